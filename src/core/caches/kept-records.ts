// KeptRecords: items' records kept by the answer memo, read ones (while unchanged) and written ones (as guesses).
import type { StoredItem } from '../model/documents.js';

/** The most records of each kind kept, whatever the budget; past it, the oldest tenth goes. */
const MAX_RECORDS = 10_000;
/** What a kept record costs (its copy, its strings, its slot), counted in the memo's budget. */
export const RECORD_BYTES = 384;

/**
 * The records of items a request read (`keep`, answered by `kept` while the item has not changed, as
 * `holds` decides from the memo's change notices) and the record each recent write of this instance
 * left (`noteWritten`, answered by `written` whatever changed since: a guess for a compare-and-set, which
 * the store's revision check confirms or refutes). Each kind is bounded by MAX_RECORDS and by an eighth
 * of the memo's budget in bytes, the oldest going first.
 *
 * @example
 * const records = new KeptRecords(32 * 1024 * 1024, (key, since) => true);
 * records.noteWritten('player/alice', stored);
 * records.written('player/alice'); // stored
 */
export class KeptRecords {
  readonly #read = new Map<string, { record: StoredItem; since: number }>();
  readonly #written = new Map<string, StoredItem>();
  readonly #most: number;
  readonly #holds: (key: string, since: number) => boolean;

  /**
   * @param maxBytes the memo's budget (an eighth of it for each kind of record).
   * @param holds whether nothing told since the change notice count `since` changed the item `key`.
   */
  constructor(maxBytes: number, holds: (key: string, since: number) => boolean) {
    this.#most = Math.min(MAX_RECORDS, Math.floor(maxBytes / 8 / RECORD_BYTES));
    this.#holds = holds;
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
  }

  /** Whether any read record is kept (what a change notice could make stale; written ones never are). */
  get holdsReads(): boolean {
    return this.#read.size > 0;
  }

  /** The bytes counted for the records kept. */
  get bytes(): number {
    return (this.#read.size + this.#written.size) * RECORD_BYTES;
  }
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
