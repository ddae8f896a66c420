// An item's current record for a request: kept by the answer memo while unchanged, else read from the store.
import type { RequestContext } from '../service/context.js';
import type { Relation, ResourceType } from '../model/api.js';
import type { StoredItem } from '../model/documents.js';
import type { AnswerMemo } from '../caches/answer-memo.js';
import type { KeptPage } from '../caches/kept-records.js';
import { itemKey, type Slice } from '../../stores/contract.js';
import type { Awaitable } from '../service/awaitable.js';

/** A page's window of a list. */
type Window = { offset: number; limit: number };

/** The memo that keeps records read for this request: none with the memo off, or for a store that shares its records. */
function recordKeeper(ctx: RequestContext): AnswerMemo | undefined {
  const { store, answerMemo } = ctx.config;
  return store.sharesRecords === true ? undefined : answerMemo;
}

/** `recordKeeper` for a request that asks it for a record: a use of the memo (which wakes it, `MemoWatch`). */
function askedKeeper(ctx: RequestContext): AnswerMemo | undefined {
  const memo = recordKeeper(ctx);
  if (memo !== undefined) ctx.config.memoWatch?.use();
  return memo;
}

/**
 * An item's record kept by the answer memo (`AnswerMemo.keptRecord`), while the store has told no
 * change of that item since it was read; undefined when none is kept, or when records are not kept: the
 * memo off, or a store that hands out the same record until a change (`sharesRecords`), whose reads
 * cost nothing. A kept record is as current as the answers the memo keeps: a change made on another
 * instance is heard a moment after it commits (docs/scaling.md). Shared: never changed.
 *
 * @example
 * const kept = keptItem(ctx, type, 'alice');
 */
export function keptItem(ctx: RequestContext, type: ResourceType, id: string): StoredItem | undefined {
  return askedKeeper(ctx)?.keptRecord(itemKey(type.name, id));
}

/**
 * The item's record read from the store, kept for the next request (see `keptItem`); undefined for an
 * item that does not exist.
 *
 * @example
 * const stored = await readItem(ctx, type, 'alice');
 */
export function readItem(ctx: RequestContext, type: ResourceType, id: string): Promise<StoredItem | undefined> {
  const memo = recordKeeper(ctx);
  if (memo === undefined) return ctx.config.store.get(type, id);
  const since = memo.epoch;
  return ctx.config.store.get(type, id).then((read) => (read === undefined ? undefined : memo.keepRecord(itemKey(type.name, id), read, since)));
}

/**
 * The change notice count to read records after, when records read for this request may be kept (see
 * `keptItem`); undefined when they are not.
 *
 * @example
 * const since = keepingSince(ctx);
 */
export function keepingSince(ctx: RequestContext): number | undefined {
  return recordKeeper(ctx)?.epoch;
}

/**
 * Keeps the records a read made after the change notice count `since` (`keepingSince`) returned, such
 * as a page's members and its owner: a later read of one of them is answered from it (`keptItem`).
 * Returns the records to use, in order: each the one kept (the same object for every read of an
 * unchanged item, see `KeptRecords.keep`), else the record read.
 *
 * @example
 * const [owner, ...members] = keepRecords(ctx, [[relation.owner, owner], ...slice.items.map((i) => [relation.target, i])], since);
 */
export function keepRecords(ctx: RequestContext, records: readonly (readonly [ResourceType, StoredItem])[], since: number): StoredItem[] {
  const memo = recordKeeper(ctx);
  if (memo === undefined) return records.map(([, record]) => record);
  return records.map(([type, record]) => memo.keepRecord(itemKey(type.name, (record as unknown as Record<string, string>)[type.idField]!), record, since));
}

/**
 * The page of `relation`'s list of `ownerId` in `window`, answered from the records the memo keeps
 * (`AnswerMemo.keptPage`) while its owner and members are unchanged; undefined when not kept.
 *
 * @example
 * const kept = keptPage(ctx, friends, 'alice', { offset: 0, limit: 10 });
 */
export function keptPage(ctx: RequestContext, relation: Relation, ownerId: string, window: Window): KeptPage | undefined {
  return askedKeeper(ctx)?.keptPage(pageKey(relation, ownerId, window));
}

/**
 * Keeps the membership of a page read after the change notice count `since` (`keepingSince`), for
 * `keptPage`; its records are kept by `keepRecords`.
 *
 * @example
 * keepPage(ctx, friends, 'alice', { offset: 0, limit: 10 }, slice, since);
 */
export function keepPage(ctx: RequestContext, relation: Relation, ownerId: string, window: Window, slice: Slice, since: number): void {
  const memo = recordKeeper(ctx);
  if (memo === undefined) return;
  const target = relation.target;
  const keys = slice.items.map((item) => itemKey(target.name, (item as unknown as Record<string, string>)[target.idField]!));
  memo.keepPage(pageKey(relation, ownerId, window), itemKey(relation.owner.name, ownerId), { relation: relation.name, ...window }, keys, slice.total, since);
}

/** The key of a page of a list: its owner's key, the relation's name, offset and limit. */
function pageKey(relation: Relation, ownerId: string, window: Window): string {
  return `${itemKey(relation.owner.name, ownerId)}\n${relation.name}\n${window.offset}\n${window.limit}`;
}

/**
 * The item's current record: the kept one (`keptItem`), else read from the store, at once where the
 * store reads without I/O (`readsNow`), else by `readItem`.
 *
 * @example
 * const stored = await currentItem(ctx, type, 'alice');
 */
export function currentItem(ctx: RequestContext, type: ResourceType, id: string): Awaitable<StoredItem | undefined> {
  const kept = keptItem(ctx, type, id);
  if (kept !== undefined) return kept;
  const now = ctx.config.readsNow;
  return now !== undefined ? now.get(type, id) : readItem(ctx, type, id);
}

/**
 * The record a compare-and-set starts from: the one the memo keeps (`keptItem`), else the one the last
 * write of the item on this instance left (`AnswerMemo.writtenRecord`); undefined when records are not
 * kept (see `keptItem`). Possibly stale: only a write whose store checks the revision may start from it.
 * Asking is not a use of the memo (`MemoWatch`): a guess the store checks gains nothing from the change
 * feed, so an instance that only writes lets the feed go and still starts each write from the record
 * its last write of the item left (docs/decisions.md, "A memo nobody asks lets go").
 *
 * @example
 * const guess = guessedItem(ctx, type, 'alice');
 */
export function guessedItem(ctx: RequestContext, type: ResourceType, id: string): StoredItem | undefined {
  const memo = recordKeeper(ctx);
  if (memo === undefined) return undefined;
  const key = itemKey(type.name, id);
  return memo.keptRecord(key) ?? memo.writtenRecord(key);
}

/**
 * Notes the record a write left, for the next read-modify-write of the item (`writtenItem`).
 *
 * @example
 * noteWritten(ctx, type, stored);
 */
export function noteWritten(ctx: RequestContext, type: ResourceType, record: StoredItem): void {
  recordKeeper(ctx)?.noteWritten(itemKey(type.name, (record as unknown as Record<string, string>)[type.idField]!), record);
}
