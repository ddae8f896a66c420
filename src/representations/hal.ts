// HAL (application/hal+json, draft-kelly-json-hal): _links, state fields, _embedded players.
import { HttpError } from '../core/problem.js';
import type { PlayerInput, Representation } from '../core/representation.js';
import type { FriendsResource, Link, PlayerResource, Resource } from '../core/resource.js';
import { toAlternateFields } from '../core/player.js';
import { playerInputFromAlternate, pointerToken, requireObject } from './alternate-input.js';
import { PLAYER_VOCAB, PLAYER_VOCAB_PREFIX } from './vocabulary.js';

/**
 * The media type of HAL (draft-kelly-json-hal section 3).
 *
 * @example
<<<<<<< HEAD
 * fetch(url, { headers: { Accept: HAL_MEDIA_TYPE } });
=======
 * new Request(url, { headers: { Accept: HAL_MEDIA_TYPE } });
>>>>>>> main
 */
export const HAL_MEDIA_TYPE = 'application/hal+json';

/**
 * A HAL Link Object (draft-kelly-json-hal section 5): `href` is a URI, or a URI Template when
 * `templated` is true.
 *
 * @example
 * const link: HalLink = { href: 'https://x.test/player/bob/friends/search{?search}', templated: true };
 */
export interface HalLink {
  href: string;
  templated?: boolean;
  type?: string;
  title?: string;
  name?: string;
}

/**
 * The CURIE declared on every root resource (draft-kelly-json-hal section 8.2): `ph:<rel>` names a
 * relation of our vocabulary. Embedded resources do not repeat it.
 *
 * @example
 * HAL_CURIES[0].href.replace('{rel}', 'friends'); // 'https://w3id.org/player-hypermedia/vocab#friends'
 */
export const HAL_CURIES: readonly HalLink[] = Object.freeze([
  Object.freeze({ name: PLAYER_VOCAB_PREFIX, href: `${PLAYER_VOCAB}{rel}`, templated: true }),
]);

function halLink(link: Link): HalLink {
  const out: HalLink = { href: link.href };
  if (link.templated) out.templated = true;
  if (link.type !== undefined) out.type = link.type;
  if (link.title !== undefined) out.title = link.title;
  return out;
}

/** `_links`: one Link Object per relation, an array when a relation repeats (section 4.1.1). */
function halLinks(links: readonly Link[], root: boolean): Record<string, HalLink | HalLink[]> {
  const out: Record<string, HalLink | HalLink[]> = {};
  for (const link of links) {
    const existing = out[link.rel];
    if (existing === undefined) out[link.rel] = halLink(link);
    else if (Array.isArray(existing)) existing.push(halLink(link));
    else out[link.rel] = [existing, halLink(link)];
    // Section 8.2: curies sit in the root resource's _links, right after self.
    if (root && link.rel === 'self') out.curies = HAL_CURIES as HalLink[];
  }
  return out;
}

function halPlayer(doc: PlayerResource, root: boolean): Record<string, unknown> {
  const fields = toAlternateFields(doc.player);
  const out: Record<string, unknown> = { _links: halLinks(doc.links, root), playerId: fields.playerId };
  if (fields.name !== undefined) out.name = fields.name;
  out.alternateName = fields.alternateName;
  out.image = fields.image;
  return out;
}

function halPage(doc: FriendsResource): Record<string, unknown> {
  const players = new Array<Record<string, unknown>>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) players[i] = halPlayer(doc.items[i]!, false);
  const out: Record<string, unknown> = {
    _links: halLinks(doc.links, true),
    // The seed: collection-style forms carry `size`, a string holding the count of items on the page.
    size: String(doc.paging.size),
    total: doc.paging.total,
    page: doc.paging.page,
  };
  if (doc.query !== undefined) out.query = doc.query;
  out._embedded = { player: players };
  return out;
}

/**
 * Reads a HAL request body: the state fields `name`, `alternateName`, `image` (a new friend), or a
 * reference to an existing player by `playerId` or by `_links.self.href`. `_embedded` is ignored; any
 * other member is 400.
 *
 * @example
 * readHalBody({ _links: { self: { href: 'https://x.test/player/bob' } } }); // { fields: {}, ref: 'https://x.test/player/bob' }
 */
export function readHalBody(body: unknown): PlayerInput {
  const object = requireObject(body, 'HAL');
  let ref: { value: string; pointer: string } | undefined;
  const values: [string, unknown, string][] = [];
  for (const [name, value] of Object.entries(object)) {
    if (name === '_embedded') continue;
    if (name === '_links') {
      const href = selfHref(value);
      if (href !== undefined) ref = { value: href, pointer: '/_links/self/href' };
    }
    else values.push([name, value, `/${pointerToken(name)}`]);
  }
  return playerInputFromAlternate(values, ref);
}

function selfHref(links: unknown): string | undefined {
  const object = requireObject(links, 'HAL _links', '/_links');
  if (object.self === undefined) return undefined;
  const href = (object.self as { href?: unknown } | null)?.href;
  if (typeof href !== 'string' || href === '') {
    throw new HttpError(400, 'A HAL self link must be an object with an href string.', {
      errors: [{ pointer: '/_links/self/href', detail: 'must be a non-empty string' }],
    });
  }
  return href;
}

/**
 * HAL: a player is `{ _links: { self, curies, friends, avatar, search }, playerId, name, alternateName,
 * image }`; a friends or search page is `{ _links: { self, curies, first, prev, next, last, up, search },
 * size, total, page, _embedded: { player: [...] } }` (`size` a string, per the seed). Request bodies of
 * type application/hal+json are read by `readHalBody`.
 *
 * @example
 * const res = await service.fetch(new Request(url, { headers: { Accept: 'application/hal+json' } }));
 * (await res.json())._links.friends.href;
 */
export const halRepresentation: Representation = {
  name: 'hal',
  mediaType: HAL_MEDIA_TYPE,
  bodyMediaTypes: [HAL_MEDIA_TYPE],
  render(resource: Resource): string {
    return JSON.stringify(resource.kind === 'player' ? halPlayer(resource, true) : halPage(resource));
  },
  readBody: (body) => readHalBody(body),
};
