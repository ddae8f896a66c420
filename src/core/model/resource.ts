// The neutral documents, items and pages, that every representation maps to its own shape.
import type { Relation, ResourceType } from './api.js';

/**
 * A typed link (RFC 8288): a relation type, an absolute target, and optional hints. `templated` marks
 * an RFC 6570 URI Template (e.g. `.../friends/search{?search}`), whose `variables` say what each one
 * is. `prompt` is a label for the formats that show one (Collection+JSON), from the model.
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
  prompt?: string;
  variables?: readonly OperationField[];
}

/**
 * One input of an operation. `type` is an HTML5 input type (Siren requires those); `name` is the
 * member (or query parameter) it fills: a field's alternate name, or a search text.
 *
 * @example
 * const field: OperationField = { name: 'image', type: 'url', title: 'Picture URL', required: false };
 */
export interface OperationField {
  name: string;
  type: 'text' | 'url' | 'search' | 'number' | 'hidden';
  title: string;
  required: boolean;
}

/**
 * Something a client can do from a resource: add a member to a list (POST) or search it (GET).
 *
 * @example
 * const search: Operation = { name: 'search', title: 'Search friends', method: 'GET',
 *   href: 'https://x.test/player/alice/friends/search', contentType: 'application/x-www-form-urlencoded',
 *   fields: [{ name: 'search', type: 'search', title: 'Text to find', required: true }] };
 */
export interface Operation {
  name: string;
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
 * One item of a resource type, as every format maps it: its type (the metadata formats read), id and
 * URL, its readable fields in their plain names (`fields`, the type's `readable` order, derived fields
 * filled in), its links (self, its relations, the type's links, its search templates), and, when a
 * format planned for it, the first page of each to-many relation (`relations`: JSON:API linkage and
 * `include`).
 *
 * @example
 * const doc: Item = itemDocument(api.type('player'), 'https://x.test', stored);
 * doc.fields.alias; // 'bobby'
 */
export interface Item {
  kind: 'item';
  type: ResourceType;
  id: string;
  url: string;
  fields: Readonly<Record<string, unknown>>;
  links: Link[];
  operations: Operation[];
  relations?: Readonly<Record<string, Page>>;
}

/**
 * A page of a to-many relation (`relation`, of `owner`), or of a search among it (`search`, the
 * text). `url` is this page, `collectionUrl` the whole list (where a format names the collection
 * itself), `address` whether it is the list itself or its JSON:API relationship URL (`linkage`).
 * `links` holds self, first, last, prev and next where they exist, up (the owner), and the templated
 * search link; `items` are the members of this page, each a full Item.
 *
 * @example
 * if (doc.kind === 'page') console.log(doc.paging.total);
 */
export interface Page {
  kind: 'page';
  /** The members' type. */
  type: ResourceType;
  relation: Relation;
  owner: { readonly id: string; readonly url: string };
  search?: string;
  address: 'list' | 'linkage';
  url: string;
  /** The list this page belongs to, without a page number: `.../friends` or `.../friends/search?search=TEXT`. */
  collectionUrl: string;
  items: Item[];
  paging: Paging;
  links: Link[];
  operations: Operation[];
}

/**
 * Any document the service renders.
 *
 * @example
 * function title(r: Resource) { return r.kind === 'item' ? r.id : `page ${r.paging.page}`; }
 */
export type Resource = Item | Page;

/**
 * What a format plans for, from the query (`plan`): an item, or a page (of a list or a search).
 *
 * @example
 * const kind: ResourceKind = 'page';
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
 * request's documents were promoted (docs/decisions.md, "Kept answers and records"); and it
 * costs a property store, where a non-enumerable `Object.defineProperty` cost ten times as much.
 */
class UriSafeMark extends Returning {
  #uriSafe = true;

  static on(resource: object): boolean {
    return #uriSafe in resource;
  }
}

/**
 * Marks a resource built by the document builders (`itemDocument`, `pageDocument`) from a base
 * URL that holds no character JSON escapes: every URI in it is that base plus percent-encoded parts,
 * so renderers may write its URIs without an escape check. Builders call it; a resource built by hand is
 * never marked, and its URIs are checked.
 *
 * @example
 * markUriSafe(doc, 'https://api.example.com'); // true: doc's URIs need no escaping
 */
export function markUriSafe(resource: Resource, baseUrl: string): boolean {
  if (JSON_ESCAPED.test(baseUrl) || !Object.isExtensible(resource)) return false;
  if (resource.kind === 'item' && resource.relations) for (const page of Object.values(resource.relations)) if (!hasUriSafeLinks(page)) return false;
  if (!UriSafeMark.on(resource)) new UriSafeMark(resource);
  return true;
}

/**
 * Whether every URI of a resource is known to need no escaping in JSON (see `markUriSafe`).
 *
 * @example
 * hasUriSafeLinks(itemDocument(type, 'https://x.test', stored)); // true
 */
export function hasUriSafeLinks(resource: Resource): boolean {
  return UriSafeMark.on(resource);
}
