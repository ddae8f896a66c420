// KeptRecords: items' records kept by the answer memo, read ones (while unchanged) and written ones (as guesses).
import type { StoredItem } from '../model/documents.js';
import type { CurrentRecords } from '../../stores/contract.js';

/** The most records of each kind kept, whatever the budget; past it, the oldest tenth goes. */
const MAX_RECORDS = 10_000;
/** What a kept record costs (its copy, its strings, its slot), counted in the memo's budget. */
export const RECORD_BYTES = 384;
/** What a kept page's membership costs besides its members' keys (the entry, its key, its slots). */
export const SLICE_BYTES = 320;
/** What each member's key in a kept page costs. */
const MEMBER_KEY_BYTES = 48;

/**
 * The membership of a page read after a change notice count: its owner's key, its members' keys in
 * order and the list's total. The owner's revision changes with every change of its lists (the Store
 * contract), so while the owner holds, a read of the same page would list the same members.
 */
interface KeptSlice {
  ownerKey: string;
  window: SliceWindow;
  memberKeys: readonly string[];
  total: number;
  since: number;
}

/**
 * Which page of which list a kept page is: the relation's name, the offset of its first member and the
 * most members it shows.
 *
 * @example
 * const window: SliceWindow = { relation: 'friends', offset: 10, limit: 10 };
 */
export interface SliceWindow {
  relation: string;
  offset: number;
  limit: number;
}

/**
 * A page answered from kept records: the owner's current record, its members' in order, the total.
 *
 * @example
 * const page: KeptPage = { owner, items: [bob, carol], total: 2 };
 */
export interface KeptPage {
  owner: StoredItem;
  items: StoredItem[];
  total: number;
}

/**
 * The records of items a request read (`keep`, answered by `kept` while the item has not changed, as
 * `holds` decides from the memo's change notices) and the record each recent write of this instance
 * left (`noteWritten`, answered by `written` whatever changed since: a guess for a compare-and-set, which
 * the store's revision check confirms or refutes), and which members the pages of lists read showed
 * (`keepSlice`, answered by `keptSlice` from the read records while the owner has not changed). Read
 * and written records are each bounded by MAX_RECORDS and by an eighth of the memo's budget in bytes,
 * pages by another eighth; the oldest go first.
 *
 * @example
 * const records = new KeptRecords(32 * 1024 * 1024, (key, since) => true);
 * records.noteWritten('player/alice', stored);
 * records.written('player/alice'); // stored
 */
export class KeptRecords {
  readonly #read = new Map<string, { record: StoredItem; since: number }>();
  readonly #written = new Map<string, StoredItem>();
  readonly #slices = new Map<string, KeptSlice>();
  /** The keys of the pages kept of each owner's lists. */
  readonly #slicesOf = new Map<string, Set<string>>();
  #sliceBytes = 0;
  readonly #most: number;
  readonly #maxSliceBytes: number;
  readonly #holds: (key: string, since: number) => boolean;

  /**
   * @param maxBytes the memo's budget (an eighth of it for each kind of record).
   * @param holds whether nothing told since the change notice count `since` changed the item `key`.
   */
  constructor(maxBytes: number, holds: (key: string, since: number) => boolean) {
    this.#most = Math.min(MAX_RECORDS, Math.floor(maxBytes / 8 / RECORD_BYTES));
    this.#maxSliceBytes = maxBytes / 8;
    this.#holds = holds;
  }

  /**
   * Keeps the membership of a page (by `key`: its owner, relation and window) read after the change
   * notice count `since`, unless its owner changed since. Its members' records are kept by `keep`.
   */
  keepSlice(key: string, ownerKey: string, window: SliceWindow, memberKeys: readonly string[], total: number, since: number): void {
    if (!this.#holds(ownerKey, since)) return;
    this.#dropSlice(key);
    this.#slices.set(key, { ownerKey, window, memberKeys, total, since });
    let ofOwner = this.#slicesOf.get(ownerKey);
    if (ofOwner === undefined) this.#slicesOf.set(ownerKey, (ofOwner = new Set()));
    ofOwner.add(key);
    this.#sliceBytes += sliceBytes(memberKeys);
    // Past the budget, the oldest tenth of the bytes goes at once (see `trim`).
    if (this.#sliceBytes <= this.#maxSliceBytes) return;
    for (const old of this.#slices.keys()) {
      if (this.#sliceBytes <= this.#maxSliceBytes * 0.9) break;
      this.#dropSlice(old);
    }
  }

  /**
   * The page kept for `key` while its owner has not changed since it was read and the records of its
   * owner and every member are kept and hold: what a read of the store would answer now. Else
   * undefined (the page is dropped when its owner changed).
   */
  keptSlice(key: string): KeptPage | undefined {
    const slice = this.#slices.get(key);
    if (slice === undefined) return undefined;
    if (!this.#holds(slice.ownerKey, slice.since)) {
      this.#dropSlice(key);
      return undefined;
    }
    const owner = this.kept(slice.ownerKey);
    if (owner === undefined) return undefined;
    const keys = slice.memberKeys;
    const items = new Array<StoredItem>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const item = this.kept(keys[i]!);
      if (item === undefined) return undefined;
      items[i] = item;
    }
    return { owner, items, total: slice.total };
  }

  /**
   * Hands on the records a write of this instance left (`CurrentRecords`) around the notice of that
   * write (`tell` notes it and returns the notice count after it, or undefined when everything kept
   * went): they are kept as read after it, and the pages kept of their lists that the write left as
   * they were (every one when it changed fields only; for an append, all but those of the list appended
   * to that reach its old end, with the new total) hold on past it, if they held before it.
   */
  handOn(current: CurrentRecords, tell: () => number | undefined): void {
    const lists = current.lists;
    // The pages to carry, each with its new total (unchanged but for the list appended to).
    const carried: [KeptSlice, number][] = [];
    if (lists !== undefined) {
      for (const ownerKey of current.records.keys()) {
        for (const key of this.#slicesOf.get(ownerKey) ?? []) {
          const slice = this.#slices.get(key)!;
          const { relation, offset, limit } = slice.window;
          if (!this.#holds(ownerKey, slice.since)) continue;
          if (lists === 'unchanged' || ownerKey !== lists.owner || relation !== lists.relation) carried.push([slice, slice.total]);
          else if (offset + limit <= lists.total - 1) carried.push([slice, lists.total]);
        }
      }
    }
    const since = tell();
    if (since === undefined) return;
    for (const [key, record] of current.records) this.keep(key, record, since);
    for (const [slice, total] of carried) {
      slice.since = since;
      slice.total = total;
    }
  }

  #dropSlice(key: string): void {
    const slice = this.#slices.get(key);
    if (slice === undefined) return;
    this.#slices.delete(key);
    const ofOwner = this.#slicesOf.get(slice.ownerKey);
    if (ofOwner !== undefined && ofOwner.delete(key) && ofOwner.size === 0) this.#slicesOf.delete(slice.ownerKey);
    this.#sliceBytes -= sliceBytes(slice.memberKeys);
  }

  /**
   * Keeps a copy of a record read after the change notice count `since`, unless it changed since.
   * Returns the record to use from now on: the copy kept (the one kept before, for a revision read
   * again), else `record` itself. So every read of an unchanged item hands out the same object, as a
   * store that shares its records does, and what is made of it once (its document in a page, the formats'
   * texts of it) is made once (`pageDocument` with shared records).
   */
  keep(key: string, record: StoredItem, since: number): StoredItem {
    if (!this.#holds(key, since)) return record;
    const kept = this.#read.get(key);
    // The same revision read again (every page that shows an item reads it): the copy kept is this very
    // record (revisions are never reused, the Store contract), current as of the later read. It keeps its
    // place: the oldest kept go first when full, whether read since or not (moving it to the newest end
    // on every read cost more than reading an item again after it went).
    if (kept !== undefined && kept.record.revision === record.revision) {
      if (since > kept.since) kept.since = since;
      return kept.record;
    }
    if (kept !== undefined) this.#read.delete(key);
    const copy = { ...record };
    this.#read.set(key, { record: copy, since });
    trim(this.#read, this.#most);
    return copy;
  }

  /** The kept record of an item while it holds (else it is dropped). */
  kept(key: string): StoredItem | undefined {
    const kept = this.#read.get(key);
    if (kept === undefined) return undefined;
    if (this.#holds(key, kept.since)) return kept.record;
    this.#read.delete(key);
    return undefined;
  }

  /** Notes (a copy of) the record a write of this instance left. */
  noteWritten(key: string, record: StoredItem): void {
    this.#written.delete(key);
    this.#written.set(key, { ...record });
    trim(this.#written, this.#most);
  }

  /** The record the last write of an item on this instance left, if noted and not yet pushed out. */
  written(key: string): StoredItem | undefined {
    return this.#written.get(key);
  }

  /** Forgets every record. */
  clear(): void {
    this.#read.clear();
    this.#written.clear();
    this.#slices.clear();
    this.#slicesOf.clear();
    this.#sliceBytes = 0;
  }

  /** Whether any read record is kept (what a change notice could make stale; written ones never are). */
  get holdsReads(): boolean {
    return this.#read.size > 0;
  }

  /** The bytes counted for the records kept. */
  get bytes(): number {
    return (this.#read.size + this.#written.size) * RECORD_BYTES + this.#sliceBytes;
  }
}

/** The bytes counted for a kept page's membership. */
function sliceBytes(memberKeys: readonly string[]): number {
  return SLICE_BYTES + memberKeys.length * MEMBER_KEY_BYTES;
}

/** Past `most` entries, the oldest tenth goes (a Map keeps insertion order). */
function trim(map: Map<string, unknown>, most: number): void {
  if (map.size <= most) return;
  let excess = Math.max(1, most / 10);
  for (const key of map.keys()) {
    if (excess-- <= 0) break;
    map.delete(key);
  }
}
