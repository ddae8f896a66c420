// Builds the neutral documents (items, pages of a relation, search pages) from stored records and the model.
import type { Relation, ResourceType } from './api.js';
import { markUriSafe, type Item, type Link, type Operation, type Page, type Paging } from './resource.js';
import { keptItemDocument } from './kept-documents.js';
import { listOperations, searchOperationFields } from './list-operations.js';
import { listUrl, searchTemplate, searchUrl, linkageUrl } from './urls.js';

/**
 * A stored record of an item: its fields by plain name (the id field included), the store's revision
 * (an opaque token, different after every change of the item or of its lists, never reused) and the
 * time of its last change (epoch milliseconds).
 *
 * @example
 * const record: StoredItem = { playerId: 'bob', alias: 'bobby', revision: '17', modifiedAt: Date.now() };
 */
export interface StoredItem {
  readonly revision: string;
  readonly modifiedAt: number;
}

/** A field of a stored record by its plain name. */
export function storedValue(stored: StoredItem, name: string): unknown {
  return (stored as unknown as Record<string, unknown>)[name];
}

/** The links of an item at `url`: self, its relations, the type's own links, its search templates. */
function itemLinks(type: ResourceType, baseUrl: string, url: string, stored: StoredItem): Link[] {
  const links: Link[] = [{ rel: 'self', href: url }];
  for (const r of type.relations) {
    if (r.kind === 'to-many') links.push({ rel: r.name, href: listUrl(url, r), prompt: r.title });
    else {
      const target = storedValue(stored, r.field!);
      if (typeof target === 'string' && target !== '') links.push({ rel: r.name, href: r.target.itemUrl(baseUrl, target), prompt: r.title });
    }
  }
  for (const l of type.links) links.push(l.type === undefined ? { rel: l.rel, href: `${url}/${l.path}`, prompt: l.title } : { rel: l.rel, href: `${url}/${l.path}`, type: l.type, prompt: l.title });
  for (const r of type.relations) {
    if (r.search) links.push({ rel: 'search', href: searchTemplate(url, r), templated: true, prompt: r.search.title, variables: searchOperationFields(r) });
  }
  return links;
}

/** The readable fields of a record, in the type's order; derived ones are the href of their link. */
function readableFields(type: ResourceType, stored: StoredItem, links: readonly Link[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const f of type.readable) {
    if (f.derived) {
      for (const l of links) if (l.rel === f.derived.link) fields[f.name] = l.href;
    } else {
      const value = storedValue(stored, f.name);
      if (value !== undefined && value !== null) fields[f.name] = value;
    }
  }
  return fields;
}

/**
 * Per type, the path under the item's URL of each derived readable field whose link is one of the
 * type's own links and no other link has its relation (`null`: the field's value needs the item's
 * links worked out, see `itemFields`). Types are defined once: worked out once.
 */
const derivedPaths = new WeakMap<ResourceType, ReadonlyMap<string, string> | null>();

function derivedPathsOf(type: ResourceType): ReadonlyMap<string, string> | null {
  let paths = derivedPaths.get(type);
  if (paths !== undefined) return paths;
  const taken = new Set(['self', ...type.relations.map((r) => r.name), ...(type.relations.some((r) => r.search) ? ['search'] : [])]);
  const own = new Map<string, string>();
  paths = new Map();
  for (const f of type.readable) {
    if (!f.derived) continue;
    const rel = f.derived.link;
    const links = type.links.filter((l) => l.rel === rel);
    if (links.length !== 1 || taken.has(rel)) {
      paths = null;
      break;
    }
    own.set(f.name, links[0]!.path);
  }
  if (paths !== null) paths = own;
  derivedPaths.set(type, paths);
  return paths;
}

/**
 * The readable fields of a record by plain name, as its document's `fields` are (derived ones the
 * href of their link), without building the document: what a PATCH applies to.
 *
 * @example
 * itemFields(api.type('player'), 'https://x.test', stored); // { playerId: 'bob', alias: 'bobby', profilePhotoUrl: 'https://x.test/player/bob/avatar.png' }
 */
export function itemFields(type: ResourceType, baseUrl: string, stored: StoredItem): Record<string, unknown> {
  const url = type.itemUrl(baseUrl, storedValue(stored, type.idField) as string);
  const paths = derivedPathsOf(type);
  if (paths === null) return readableFields(type, stored, itemLinks(type, baseUrl, url, stored));
  const fields: Record<string, unknown> = {};
  for (const f of type.readable) {
    if (f.derived) fields[f.name] = `${url}/${paths.get(f.name)!}`;
    else {
      const value = storedValue(stored, f.name);
      if (value !== undefined && value !== null) fields[f.name] = value;
    }
  }
  return fields;
}

/** An item's document from its URL (every other URL derives from it). */
function itemAt(type: ResourceType, baseUrl: string, url: string, stored: StoredItem): Item {
  const links = itemLinks(type, baseUrl, url, stored);
  return { kind: 'item', type, id: storedValue(stored, type.idField) as string, url, fields: readableFields(type, stored, links), links, operations: [] };
}

/**
 * The document of one item; with `relations`, the first page of some of its to-many relations.
 *
 * @example
 * const doc = itemDocument(api.type('player'), 'https://x.test', stored);
 * doc.links.map((l) => l.rel); // ['self', 'friends', 'avatar', 'search']
 */
export function itemDocument(type: ResourceType, baseUrl: string, stored: StoredItem, relations?: Readonly<Record<string, Page>>): Item {
  const doc = itemAt(type, baseUrl, type.itemUrl(baseUrl, storedValue(stored, type.idField) as string), stored);
  if (relations) doc.relations = relations;
  markUriSafe(doc, baseUrl);
  return doc;
}

/**
 * The copy of a listed item's document that is kept: objects of its own, made here. V8 allocates an
 * object literal's objects straight into the old generation once most of them outlived two scavenges
 * (allocation-site pretenuring); kept documents outlive many, so when the kept ones came from the same
 * sites as the documents every request builds and drops (a player's own answer), those were made old
 * too, and so were the young objects they point to. Measured 2026-11-27 with half players and half
 * pages in all eight formats (docs/scaling.md): the heap in use 25 MB against 110, scavenges 185 ms
 * against 250 over 130,000 requests, 2-3% less server CPU a request under (a) and (b). The answer memo
 * keeps its own copies for the same reason (`keptCopy` in caches/kept-copy.ts).
 */
function keptCopy(doc: Item): Item {
  const links: Link[] = [];
  for (const link of doc.links) links.push({ ...link });
  return { kind: 'item', type: doc.type, id: doc.id, url: doc.url, fields: { ...doc.fields }, links, operations: [...doc.operations] };
}

/** A listed item's document as it is kept (`keptItemDocument`): a copy of its own. */
function keptListedItem(type: ResourceType, baseUrl: string, stored: StoredItem): Item {
  return keptCopy(listedItem(type, baseUrl, stored));
}

function listedItem(type: ResourceType, baseUrl: string, stored: StoredItem): Item {
  return itemAt(type, baseUrl, type.itemUrl(baseUrl, storedValue(stored, type.idField) as string), stored);
}

/**
 * Paging arithmetic for a 1-based page of `pageSize` items in a list of `total` (or of more than
 * `total`, when `lowerBound`).
 *
 * @example
 * paging(2, 10, 25, 10); // { page: 2, pageSize: 10, size: 10, total: 25, lastPage: 3 }
 */
export function paging(page: number, pageSize: number, total: number, size: number, lowerBound = false): Paging {
  const info: Paging = { page, pageSize, size, total, lastPage: Math.max(1, Math.ceil(total / pageSize)) };
  if (lowerBound) info.totalIsLowerBound = true;
  return info;
}

/**
 * Where the pages of a list are addressed: the list itself (`/friends?page=N`), or its JSON:API
 * relationship URL (`/relationships/friends?page=N`, the linkage of the same pages).
 *
 * @example
 * const at: PageAddress = 'linkage';
 */
export type PageAddress = 'list' | 'linkage';

/**
 * The document of one page of a to-many relation, or of search results when `search` is given (its
 * URLs carry the text as `searchParameter`); with `address` 'linkage', the same page at the
 * relationship URL (linking `related`, the list itself). With `sharedRecords`, the items are records
 * handed out again until they change (a store's own, `sharesRecords`, or those the answer memo keeps):
 * each one's document is kept with it and reused by the next page that lists it.
 *
 * @example
 * const doc = pageDocument(friends, 'https://x.test', 'alice', slice.items, paging(1, 10, slice.total, slice.items.length));
 */
export function pageDocument(
  relation: Relation,
  baseUrl: string,
  ownerId: string,
  items: readonly StoredItem[],
  pageInfo: Paging,
  search?: string,
  address: PageAddress = 'list',
  searchParameter = 'search',
  sharedRecords = false,
): Page {
  const ownerUrl = relation.owner.itemUrl(baseUrl, ownerId);
  const list = listUrl(ownerUrl, relation);
  const collectionUrl = search !== undefined ? searchUrl(ownerUrl, relation, search, undefined, searchParameter) : address === 'linkage' ? linkageUrl(ownerUrl, relation) : list;
  const at = (page: number) =>
    search !== undefined ? searchUrl(ownerUrl, relation, search, page, searchParameter) : address === 'linkage' ? linkageUrl(ownerUrl, relation, page) : listUrl(ownerUrl, relation, page);
  const links: Link[] = [{ rel: 'self', href: at(pageInfo.page) }, { rel: 'first', href: at(1) }];
  if (pageInfo.page > 1) links.push({ rel: 'prev', href: at(Math.min(pageInfo.page - 1, pageInfo.lastPage)) });
  if (pageInfo.page < pageInfo.lastPage) links.push({ rel: 'next', href: at(pageInfo.page + 1) });
  // A search that stopped counting does not know its last page.
  if (!pageInfo.totalIsLowerBound) links.push({ rel: 'last', href: at(pageInfo.lastPage) });
  links.push({ rel: 'up', href: ownerUrl, prompt: relation.labels.owner });
  if (search !== undefined) links.push({ rel: 'collection', href: list, prompt: relation.labels.all });
  if (address === 'linkage') links.push({ rel: 'related', href: list });
  else if (relation.search) links.push({ rel: 'search', href: searchTemplate(ownerUrl, relation), templated: true, prompt: relation.search.title, variables: searchOperationFields(relation) });
  return pageOf(relation, baseUrl, ownerId, ownerUrl, address, at(pageInfo.page), collectionUrl, items, pageInfo, links, listOperations(relation, ownerUrl), sharedRecords, search);
}

/**
 * A page document from its parts (pageDocument, linkagePageDocument): its items' documents (kept with
 * their records when those are shared, see pageDocument), its URIs judged once for the whole page.
 */
function pageOf(
  relation: Relation,
  baseUrl: string,
  ownerId: string,
  ownerUrl: string,
  address: PageAddress,
  url: string,
  collectionUrl: string,
  items: readonly StoredItem[],
  pageInfo: Paging,
  links: Link[],
  operations: Operation[],
  sharedRecords: boolean,
  search: string | undefined,
): Page {
  const type = relation.target;
  const doc: Page = {
    kind: 'page',
    type,
    relation,
    owner: { id: ownerId, url: ownerUrl },
    address,
    url,
    collectionUrl,
    // The items share the page's verdict on their URIs (markUriSafe below): not marked one by one.
    items: items.map(sharedRecords ? (p) => keptItemDocument(type, baseUrl, p, keptListedItem) : (p) => listedItem(type, baseUrl, p)),
    paging: pageInfo,
    links,
    operations,
  };
  if (search !== undefined) doc.search = search;
  markUriSafe(doc, baseUrl);
  return doc;
}

/**
 * The first page of a to-many relation of an item shown as linkage (`RenderPlan.linkage`): its items,
 * paging and URLs as `pageDocument` gives them, without the page's links and operations, which a body
 * that shows the members by id does not render (JSON:API writes a relationship's links from the item's
 * URL).
 *
 * @example
 * linkagePageDocument(friends, 'https://x.test', 'alice', slice.items, paging(1, 10, slice.total, slice.items.length)).links; // []
 */
export function linkagePageDocument(relation: Relation, baseUrl: string, ownerId: string, items: readonly StoredItem[], pageInfo: Paging, sharedRecords = false): Page {
  const ownerUrl = relation.owner.itemUrl(baseUrl, ownerId);
  return pageOf(relation, baseUrl, ownerId, ownerUrl, 'list', listUrl(ownerUrl, relation, pageInfo.page), listUrl(ownerUrl, relation), items, pageInfo, [], [], sharedRecords, undefined);
}
