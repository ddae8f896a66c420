// Loading one page of a to-many relation (or of a search among it) with its paging and validators.
import type { RequestContext } from '../service/context.js';
import type { Relation } from '../model/api.js';
import { paging, storedValue, type StoredItem } from '../model/documents.js';
import type { Paging } from '../model/resource.js';
import { HttpError } from '../http/problem.js';
import { itemKey, type PageRequest, type Slice } from '../../stores/contract.js';
import type { Awaitable } from '../service/awaitable.js';
import { keepingSince, keepPage, keepRecords, keptPage } from './records.js';

/**
 * A loaded page: the owner, the slice of members, its paging, the latest change time of anything the
 * page shows (for Last-Modified), and the keys of the items it shows (the owner, for its list, and
 * each member).
 *
 * @example
 * const { slice, info } = await loadPage(ctx, friends, 'alice', 2);
 */
export interface LoadedPage {
  owner: StoredItem;
  slice: Slice;
  info: Paging;
  lastModified: number;
  /** The keys of the items the page shows (made when asked: see `DependencySource`). */
  shown: () => readonly string[];
  /**
   * Whether its records are handed out again until their item changes (a store that shares its
   * records, or records the answer memo keeps): `pageDocument` may then keep their documents.
   */
  shared: boolean;
}

/**
 * Reads one page of the owner's list (or of the members matching `search`) and the owner: with the
 * slice when the store gives it (one read), else by a second read. 404 for an unknown owner, and for a
 * page past the last except page 1 of an empty list (docs/decisions.md, "Identifiers, URLs and paging").
 *
 * @example
 * const page = await loadPage(ctx, relation, 'alice', 1, 'ada');
 */
export function loadPage(ctx: RequestContext, relation: Relation, ownerId: string, page: number, search?: string): Awaitable<LoadedPage> {
  const { store, pageSize, readsNow } = ctx.config;
  const window = { offset: (page - 1) * pageSize, limit: pageSize };
  // A store that reads without I/O gives the page at once: nothing to keep, no promise to wait on.
  if (readsNow !== undefined && search === undefined) {
    const slice = readsNow.list(relation, ownerId, window);
    const owner = slice && (slice.owner ?? readsNow.get(relation.owner, ownerId));
    if (!owner || !slice) throw unknownOwner(relation, ownerId);
    return loaded(relation, ownerId, page, pageSize, owner, slice, store.sharesRecords === true);
  }
  return readPage(ctx, relation, ownerId, page, window, search);
}

/** `loadPage` from the store's promises: the page kept with its records when it may be, else read. */
async function readPage(ctx: RequestContext, relation: Relation, ownerId: string, page: number, window: PageRequest, search: string | undefined): Promise<LoadedPage> {
  const { store, pageSize } = ctx.config;
  const since = keepingSince(ctx);
  // A page of the list (not a search: its matches depend on members it does not show) whose owner and
  // members are unchanged since it was read is answered from the records the memo keeps.
  const kept = since === undefined || search !== undefined ? undefined : keptPage(ctx, relation, ownerId, window);
  if (kept !== undefined) return loaded(relation, ownerId, page, pageSize, kept.owner, { items: kept.items, total: kept.total }, true);
  // A search counts its matches up to the limit, or up to one past this page, whichever is further.
  let slice = await (search === undefined
    ? store.list(relation, ownerId, window)
    : store.search(relation, ownerId, search, { ...window, countLimit: Math.max(ctx.config.searchCountLimit, window.offset + pageSize + 1) }));
  const read = slice && (slice.owner ?? (await store.get(relation.owner, ownerId)));
  if (!read || !slice) throw unknownOwner(relation, ownerId);
  const target = relation.target;
  let owner = read;
  // The page's members and its owner, for the reads of them that follow (keptItem); the page then shows
  // the records kept, the same objects on every page that lists an unchanged item (`shared`).
  let shared = store.sharesRecords === true;
  if (since !== undefined) {
    const [keptOwner, ...items] = keepRecords(ctx, [[relation.owner, read], ...slice.items.map((item) => [target, item] as const)], since);
    if (search === undefined) keepPage(ctx, relation, ownerId, window, slice, since);
    owner = keptOwner!;
    slice = { ...slice, items };
    shared = true;
  }
  return loaded(relation, ownerId, page, pageSize, owner, slice, shared);
}

/** 404 for a list of an owner that does not exist. */
function unknownOwner(relation: Relation, ownerId: string): HttpError {
  return new HttpError(404, `There is no ${relation.owner.title.toLowerCase()} "${ownerId}".`);
}

/** The loaded page of an owner and slice: its paging (404 past the last page) and validators. */
function loaded(relation: Relation, ownerId: string, page: number, pageSize: number, owner: StoredItem, slice: Slice, shared: boolean): LoadedPage {
  const target = relation.target;
  const info = paging(page, pageSize, slice.total, slice.items.length, slice.totalIsLowerBound === true);
  if (page > info.lastPage) throw new HttpError(404, `Page ${page} does not exist; the last page is ${info.lastPage}.`);
  let lastModified = owner.modifiedAt;
  for (const item of slice.items) lastModified = Math.max(lastModified, item.modifiedAt);
  const shown = () => {
    const keys = [itemKey(relation.owner.name, ownerId)];
    for (const item of slice.items) keys.push(itemKey(target.name, storedValue(item, target.idField) as string));
    return keys;
  };
  return { owner, slice, info, lastModified, shown, shared };
}

/**
 * The first page of `relation`'s list of `ownerId`, for an item that embeds it (JSON:API `include`):
 * the page the memo keeps while its owner and members are unchanged, else read from the store and kept
 * (with its records) as `loadPage` keeps one; at once from a store that reads without I/O. Undefined
 * when the owner does not exist.
 *
 * @example
 * const slice = await embeddedSlice(ctx, friends, 'alice');
 */
export function embeddedSlice(ctx: RequestContext, relation: Relation, ownerId: string): Awaitable<Slice | undefined> {
  const window = { offset: 0, limit: ctx.config.pageSize };
  const now = ctx.config.readsNow;
  return now !== undefined ? now.list(relation, ownerId, window) : readEmbeddedSlice(ctx, relation, ownerId, window);
}

async function readEmbeddedSlice(ctx: RequestContext, relation: Relation, ownerId: string, window: PageRequest): Promise<Slice | undefined> {
  const since = keepingSince(ctx);
  if (since === undefined) return ctx.config.store.list(relation, ownerId, window);
  const kept = keptPage(ctx, relation, ownerId, window);
  if (kept !== undefined) return { items: kept.items, total: kept.total };
  const slice = await ctx.config.store.list(relation, ownerId, window);
  // A store that gives no owner with its slices: its page is not kept (a kept page needs its owner's record).
  if (slice?.owner === undefined) return slice;
  const [, ...items] = keepRecords(ctx, [[relation.owner, slice.owner], ...slice.items.map((item) => [relation.target, item] as const)], since);
  keepPage(ctx, relation, ownerId, window, slice, since);
  return { ...slice, items };
}
