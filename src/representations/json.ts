// Plain JSON (application/json): the Player object of the Player API, and a friends page as an array of players.
import { HttpError } from '../core/http/problem.js';
import type { PlayerInput, Representation } from '../core/model/representation.js';
import { isSharedDocument, type PlayerResource, type Resource } from '../core/model/resource.js';

/**
 * The media type of the plain JSON representation.
 *
 * @example
 * fetch(url, { headers: { Accept: JSON_MEDIA_TYPE } });
 */
export const JSON_MEDIA_TYPE = 'application/json';

/** The friend payload names of the Player API (name, alternateName, image), and the plain names they stand for. */
const ALTERNATE_NAMES: Readonly<Record<string, string>> = { name: 'displayName', alternateName: 'alias' };

/**
 * Reads a plain JSON body: a player with the plain names (`playerId`, `alias`, `displayName`, `image`)
 * or the friend payload names (`name`, `alternateName`, `image`), or a reference to an existing
 * player by `playerId` or `@id`. Other members pass through, so that the schema rejects them.
 *
 * @example
 * readJsonPlayer({ name: 'Bob', alternateName: 'bobby' }); // { fields: { displayName: 'Bob', alias: 'bobby' }, pointers: {...} }
 * readJsonPlayer({ '@id': 'https://x.test/player/bob' });   // { fields: {}, ref: 'https://x.test/player/bob' }
 */
export function readJsonPlayer(body: unknown): PlayerInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'The body must be a JSON object describing a player.', { errors: [{ pointer: '', detail: 'must be object' }] });
  }
  const fields: Record<string, unknown> = {};
  const pointers: Record<string, string> = {};
  const clashes: { pointer: string; detail: string }[] = [];
  let ref: string | undefined;
  for (const [member, value] of Object.entries(body)) {
    if (member === '@id') {
      if (typeof value !== 'string') throw new HttpError(400, 'The body has members of the wrong JSON type.', { errors: [{ pointer: '/@id', detail: 'must be string' }] });
      ref = value;
      continue;
    }
    const plain = ALTERNATE_NAMES[member] ?? member;
    if (Object.hasOwn(fields, plain)) {
      clashes.push({ pointer: `/${member}`, detail: `gives ${plain} a second time` });
      continue;
    }
    // defineProperty: a member named "__proto__" stays an own member (and is then rejected by the schema).
    Object.defineProperty(fields, plain, { value, enumerable: true, writable: true, configurable: true });
    if (plain !== member) pointers[plain] = `/${member}`;
  }
  if (clashes.length) throw new HttpError(422, 'Use either the plain names (alias, displayName) or the alternate ones (alternateName, name).', { errors: clashes });
  return ref === undefined ? { fields, pointers } : { fields, pointers, ref };
}

const playerTexts = new WeakMap<PlayerResource, string>();

function playerText(doc: PlayerResource): string {
  let text = playerTexts.get(doc);
  if (text === undefined) playerTexts.set(doc, (text = JSON.stringify(doc.player)));
  return text;
}

/**
 * Plain JSON: a player is `{ playerId, alias, displayName?, profilePhotoUrl }`; a friends page or a
 * search page is a JSON array of such players, its paging links in the `Link` header and its total in
 * `Total-Count` (added by the core). Request bodies: see `readJsonPlayer`.
 *
 * @example
 * jsonRepresentation.render(playerDoc); // '{"playerId":"bob","alias":"bobby","profilePhotoUrl":"..."}'
 */
export const jsonRepresentation: Representation = {
  name: 'json',
  mediaType: JSON_MEDIA_TYPE,
  bodyMediaTypes: [JSON_MEDIA_TYPE],
  render(resource: Resource): string {
    if (resource.kind === 'player') return JSON.stringify(resource.player);
    // A page of documents seen before (shared, see isSharedDocument) is written from the kept text of
    // each, the same bytes as stringifying the array; any other page is stringified at once.
    if (!resource.items.every(isSharedDocument)) return JSON.stringify(resource.items.map((item) => item.player));
    let out = '[';
    for (let i = 0; i < resource.items.length; i++) out += i === 0 ? playerText(resource.items[i]!) : `,${playerText(resource.items[i]!)}`;
    return `${out}]`;
  },
  readBody: readJsonPlayer,
};
