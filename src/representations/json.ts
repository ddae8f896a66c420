// Plain JSON (application/json): the seed's Player object, and a friends page as an array of players.
import type { Representation } from '../core/representation.js';
import type { Resource } from '../core/resource.js';

/** The media type of the plain JSON representation. */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * Plain JSON: a player is `{ playerId, alias, displayName?, profilePhotoUrl }`; a friends page or a
 * search page is a JSON array of such players, its paging links in the `Link` header and its total in
 * `Total-Count` (added by the core).
 *
 * @example
 * jsonRepresentation.render(playerDoc); // '{"playerId":"bob","alias":"bobby","profilePhotoUrl":"..."}'
 */
export const jsonRepresentation: Representation = {
  name: 'json',
  mediaType: JSON_MEDIA_TYPE,
  render(resource: Resource): string {
    if (resource.kind === 'player') return JSON.stringify(resource.player);
    return JSON.stringify(resource.items.map((item) => item.player));
  },
};

