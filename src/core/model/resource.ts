// The neutral resource document: what every representation maps to its own shape.
import type { Player } from '../../player/player.js';

/**
 * A typed link (RFC 8288): a relation type, an absolute target, and optional hints. `templated` marks
 * an RFC 6570 URI Template (e.g. `.../friends/search{?search}`).
 *
 * @example
 * const next: Link = { rel: 'next', href: 'https://x.test/player/alice/friends?page=2' };
 */
export interface Link {
  rel: string;
  href: string;
  title?: string;
  templated?: boolean;
  type?: string;
}

/**
 * One input of an operation. `type` is an HTML5 input type (Siren requires those); `property` names
 * the player field it fills in the alternate naming (name, alternateName, image, playerId).
 *
 * @example
 * const field: OperationField = { name: 'image', type: 'url', title: 'Avatar image URL', required: false };
 */
export interface OperationField {
  name: string;
  type: 'text' | 'url' | 'search' | 'number' | 'hidden';
  title: string;
  required: boolean;
}

/**
 * Something a client can do from a resource: add a friend (POST) or search the friends (GET).
 *
 * @example
 * const search: Operation = { name: 'search', title: 'Search friends', method: 'GET',
 *   href: 'https://x.test/player/alice/friends/search', contentType: 'application/x-www-form-urlencoded',
 *   fields: [{ name: 'search', type: 'search', title: 'Text to find', required: true }] };
 */
export interface Operation {
  name: 'add-friend' | 'search' | (string & {});
  title: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  href: string;
  contentType: string;
  fields: OperationField[];
}

/**
 * Where a page sits in its list: `page` is 1-based, `size` the number of items on this page,
 * `total` the length of the whole list, `lastPage` at least 1. When `totalIsLowerBound` (a search that
 * stopped counting), the list holds more than `total` and `lastPage` is the last page known so far:
 * formats then show neither an exact total nor a last page.
 *
 * @example
 * const paging: Paging = { page: 2, pageSize: 10, size: 10, total: 30, lastPage: 3 };
 */
export interface Paging {
  page: number;
  pageSize: number;
  size: number;
  total: number;
  lastPage: number;
  totalIsLowerBound?: boolean;
}

/**
 * A player as a resource: its plain fields, its links (self, friends, avatar, search), and, when a
 * representation asked for it, the first page of its friends (for JSON:API linkage and `include`).
 *
 * @example
 * const doc: PlayerResource = { kind: 'player', url: 'https://x.test/player/bob', player, links: [], operations: [] };
 */
export interface PlayerResource {
  kind: 'player';
  url: string;
  player: Player;
  links: Link[];
  operations: Operation[];
  friends?: FriendsResource;
}

/**
 * A page of a player's friends (`friends`) or of a search among them (`search`, with its `query`).
 * `url` is this page, `collectionUrl` the whole list (where a format names the collection itself).
 * `links` holds self, first, last, prev and next where they exist, up (the owner), and the templated
 * search link; `items` are the players of this page, each a full PlayerResource.
 *
 * @example
 * if (doc.kind === 'friends') console.log(doc.paging.total);
 */
export interface FriendsResource {
  kind: 'friends' | 'search';
  url: string;
  /** The list this page belongs to, without a page number: `.../friends` or `.../friends/search?search=TEXT`. */
  collectionUrl: string;
  ownerId: string;
  ownerUrl: string;
  query?: string;
  items: PlayerResource[];
  paging: Paging;
  links: Link[];
  operations: Operation[];
}

/**
 * Any resource the service renders.
 *
 * @example
 * function title(r: Resource) { return r.kind === 'player' ? r.player.alias : `page ${r.paging.page}`; }
 */
export type Resource = PlayerResource | FriendsResource;

/**
 * The resource kinds, for per-kind options (cache policy) and for representations.
 *
 * @example
 * const kind: ResourceKind = 'search';
 */
export type ResourceKind = Resource['kind'];

/**
 * The first link of a relation, or undefined.
 *
 * @example
 * findLink(page.links, 'next')?.href;
 */
export function findLink(links: readonly Link[], rel: string): Link | undefined {
  for (const link of links) if (link.rel === rel) return link;
  return undefined;
}

/** Characters a JSON string must escape (quote, backslash, C0 controls) or may (surrogates). */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A base class whose constructor returns the object it is given: its subclass's fields are added to that object. */
class Returning {
  constructor(target: object) {
    return target;
  }
}

/**
 * The mark of `markUriSafe`: a private field stamped on the resource (`new UriSafeMark(resource)`).
 * Like a WeakSet's membership it is seen by no enumeration, copy or comparison, so a copy made by
 * spreading (`{ ...doc, links }`, a resource built by hand) is not marked; unlike a WeakSet it goes with
 * its resource, where V8's young-generation collector keeps a WeakSet's young entries alive and every
 * request's documents were promoted (docs/decisions.md, "Nothing per request in a WeakMap"); and it
 * costs a property store, where a non-enumerable `Object.defineProperty` cost ten times as much.
 */
class UriSafeMark extends Returning {
  #uriSafe = true;

  static on(resource: object): boolean {
    return #uriSafe in resource;
  }
}

/**
 * Marks a resource built by the document builders (`playerResource`, `friendsResource`) from a base
 * URL that holds no character JSON escapes: every URI in it is that base plus percent-encoded parts,
 * so renderers may write its URIs without an escape check. Builders call it; a resource built by hand is
 * never marked, and its URIs are checked.
 *
 * @example
 * markUriSafe(doc, 'https://api.example.com'); // true: doc's URIs need no escaping
 */
export function markUriSafe(resource: Resource, baseUrl: string): boolean {
  if (JSON_ESCAPED.test(baseUrl) || !Object.isExtensible(resource)) return false;
  if (resource.kind === 'player' && resource.friends && !hasUriSafeLinks(resource.friends)) return false;
  if (!UriSafeMark.on(resource)) new UriSafeMark(resource);
  return true;
}

/**
 * Whether every URI of a resource is known to need no escaping in JSON (see `markUriSafe`).
 *
 * @example
 * hasUriSafeLinks(playerResource('https://x.test', stored)); // true
 */
export function hasUriSafeLinks(resource: Resource): boolean {
  return UriSafeMark.on(resource);
}

const SHARED = Symbol('player-hypermedia.shared-document');

/**
 * Marks a listed player's document as shared between pages (its stored record was listed before, and
 * is unchanged): a format may then keep the text it renders for it (see `isSharedDocument`). Documents
 * seen once are not marked, so that a store handing out new records for every read (PostgreSQL) pays
 * nothing for keeping texts it would never reuse.
 *
 * @example
 * markShared(doc);
 */
export function markShared(doc: PlayerResource): void {
  (doc as { [SHARED]?: true })[SHARED] = true;
}

/**
 * Whether a document is shared between pages (see `markShared`).
 *
 * @example
 * if (isSharedDocument(doc)) text = keptText(doc);
 */
export function isSharedDocument(doc: PlayerResource): boolean {
  return (doc as { [SHARED]?: true })[SHARED] === true;
}
