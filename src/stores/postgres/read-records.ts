// The records a PostgreSQL store made of recent reads of pages, by item and revision, so that an
// unchanged item read again is neither parsed nor built again.
import type { ResourceType } from '../../core/model/api.js';
import type { StoredItem } from '../../core/model/documents.js';

/** The most records kept; past it, the oldest eighth goes (about 400 bytes each: under 2 MB in all). */
const MAX_READ_RECORDS = 4096;

/**
 * The record made of each item recently read in a page, with its revision: a revision is never reused
 * (the Store contract), so the record of an item at a revision is the same whenever it is read, and a
 * page that lists it again hands out the record made before instead of parsing its data again. Records
 * handed out are shared, as the memory store's are: never changed by their readers.
 *
 * @example
 * const records = new ReadRecords();
 * records.get(player, 'alice', '42') ?? records.set(player, 'alice', toStoredItem(player, row));
 */
export class ReadRecords {
  readonly #records = new Map<string, StoredItem>();

  /** The record of item `id` of `type` at `revision`, if one was made. */
  get(type: ResourceType, id: string, revision: string): StoredItem | undefined {
    const record = this.#records.get(`${type.name}/${id}`);
    return record !== undefined && record.revision === revision ? record : undefined;
  }

  /** Keeps `record` as item `id`'s of `type` (replacing an older revision's); returns it. */
  set(type: ResourceType, id: string, record: StoredItem): StoredItem {
    const key = `${type.name}/${id}`;
    if (this.#records.size >= MAX_READ_RECORDS && !this.#records.has(key)) {
      let excess = MAX_READ_RECORDS / 8;
      for (const old of this.#records.keys()) {
        if (excess-- <= 0) break;
        this.#records.delete(old);
      }
    }
    this.#records.set(key, record);
    return record;
  }

  /** Forgets every record (the store closed). */
  clear(): void {
    this.#records.clear();
  }
}
