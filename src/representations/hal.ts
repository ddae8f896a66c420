// HAL (application/hal+json, draft-kelly-json-hal): _links, state fields, _embedded players.
import { HttpError } from '../core/http/problem.js';
import type { PlayerInput, Representation } from '../core/model/representation.js';
import { findLink, isSharedDocument, type FriendsResource, type Link, type PlayerResource, type Resource } from '../core/model/resource.js';
import type { Player } from '../player/player.js';
import { playerInputFromAlternate, pointerToken, requireObject } from './alternate-input.js';
import { flat, jsonChars, jsonKey, jsonNumber, jsonString, jsonUri, uriChars, withUris } from '../core/json/text.js';
import { EMBEDDED_PLAYER_RELATIONS } from './link-relations.js';
import { PLAYER_VOCAB, PLAYER_VOCAB_PREFIX } from './vocabulary.js';

/**
 * The media type of HAL (draft-kelly-json-hal section 3).
 *
 * @example
 * new Request(url, { headers: { Accept: HAL_MEDIA_TYPE } });
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

/** The curies member, written once: every root resource carries the same one. */
const CURIES_MEMBER = flat(`,"curies":${JSON.stringify(HAL_CURIES)}`);

/** The end of a Link Object (section 5) after its href's characters: templated, type and title when present. */
function halLinkTail(link: Link): string {
  if (!link.templated && link.type === undefined && link.title === undefined) return '"}';
  let out = '"';
  if (link.templated) out += ',"templated":true';
  if (link.type !== undefined) out += `,"type":${jsonString(link.type)}`;
  if (link.title !== undefined) out += `,"title":${jsonString(link.title)}`;
  return `${out}}`;
}

function halLink(link: Link): string {
  return `{"href":"${uriChars(link.href)}${halLinkTail(link)}`;
}

/**
 * `_links`: one Link Object per relation, an array when a relation repeats (section 4.1.1), in the
 * order relations first appear.
 */
function halLinks(links: readonly Link[], root: boolean): string {
  let out = '{';
  let sep = '';
  next: for (let i = 0; i < links.length; i++) {
    const rel = links[i]!.rel;
    // The curies are this format's own (CURIES_MEMBER); a link of a hand-built resource named so is left out.
    if (rel === 'curies') continue;
    for (let j = 0; j < i; j++) if (links[j]!.rel === rel) continue next;
    let value = halLink(links[i]!);
    let repeated = false;
    for (let j = i + 1; j < links.length; j++) {
      if (links[j]!.rel !== rel) continue;
      value += `,${halLink(links[j]!)}`;
      repeated = true;
    }
    out += `${sep}${jsonKey(rel)}${repeated ? `[${value}]` : value}`;
    sep = ',';
    // Section 8.2: curies sit in the root resource's _links, right after self.
    if (root && rel === 'self') out += CURIES_MEMBER;
  }
  return `${out}}`;
}

/** The state fields in the alternate names (seed: playerId, name, alternateName, image), closing the object. */
function halState(player: Player): string {
  let out = `,"playerId":${jsonString(player.playerId)}`;
  if (player.displayName !== undefined) out += `,"name":${jsonString(player.displayName)}`;
  return `${out},"alternateName":${jsonString(player.alias)},"image":${jsonUri(player.profilePhotoUrl)}}`;
}

/**
 * A player in `_embedded` is partial (section 4.1.2 allows it): only the links a client follows from a
 * list, `self` and `friends` (the links of a single player), and its state; its avatar is its
 * `image`, and its search template and the curies are on its own representation.
 */
function halEmbeddedPlayer(doc: PlayerResource): string {
  if (!isSharedDocument(doc)) return embeddedPlayerText(doc);
  let text = embeddedTexts.get(doc);
  // Kept flat: a text built by concatenation is a rope that every page's join would walk again.
  if (text === undefined) embeddedTexts.set(doc, (text = flat(embeddedPlayerText(doc))));
  return text;
}

/**
 * The embedded text of each shared document of a listed player (`isSharedDocument`: listed on more than
 * one page while the player is unchanged, documents.ts), kept with it. The same text
 * whether or not the page's URIs were verified (verification only skips escaping that would change
 * nothing).
 */
const embeddedTexts = new WeakMap<PlayerResource, string>();

function embeddedPlayerText(doc: PlayerResource): string {
  let links = '';
  for (const rel of EMBEDDED_PLAYER_RELATIONS) {
    const link = findLink(doc.links, rel);
    if (link !== undefined) links += `${links === '' ? '{' : ','}${jsonKey(rel)}${halLink(link)}`;
  }
  const p = doc.player;
  return p.displayName === undefined
    ? `{"_links":${links === '' ? '{' : links}},"playerId":"${jsonChars(p.playerId)}","alternateName":"${jsonChars(p.alias)}","image":"${uriChars(p.profilePhotoUrl)}"}`
    : `{"_links":${links === '' ? '{' : links}},"playerId":"${jsonChars(p.playerId)}","name":"${jsonChars(p.displayName)}","alternateName":"${jsonChars(p.alias)}","image":"${uriChars(p.profilePhotoUrl)}"}`;
}

function halPage(doc: FriendsResource): string {
  const players = new Array<string>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) players[i] = halEmbeddedPlayer(doc.items[i]!);
  const p = doc.paging;
  // A search that stopped counting says how many it counted as `totalAtLeast` instead of `total`.
  const total = p.totalIsLowerBound ? `"totalAtLeast":${jsonNumber(p.total)}` : `"total":${jsonNumber(p.total)}`;
  let out = `{"_links":${halLinks(doc.links, true)},"size":${jsonString(String(p.size))},${total},"page":${jsonNumber(p.page)}`;
  if (doc.query !== undefined) out += `,"query":${jsonString(doc.query)}`;
  return `${out},"_embedded":{"player":[${players.join(',')}]}}`;
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
 * size, total, page, _embedded: { player: [...] } }` (`size` a string, as the Player API defines it), its embedded
 * players partial: `_links` self and friends, and their state fields. Request bodies of
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
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object.
    return withUris(resource, () => (resource.kind === 'player' ? `{"_links":${halLinks(resource.links, true)}${halState(resource.player)}` : halPage(resource)));
  },
  readBody: (body) => readHalBody(body),
};
