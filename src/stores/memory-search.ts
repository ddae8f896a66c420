// The memory store's search of a list: a scan of its members, each one's searched fields lower-cased once.
import { storedValue, type StoredItem } from '../core/model/documents.js';
import type { PageRequest, Slice } from './contract.js';

/** How many members a search compares between turns of the event loop (about 20 ms of work). */
const SCAN_CHUNK = 50_000;

/**
 * What a search compares of a member: its searched fields in lower case, joined by U+0000, so a match
 * never spans two fields (a search text holding U+0000 is compared field by field instead).
 */
function searchKey(record: StoredItem, fields: readonly string[]): string {
  let key = '';
  for (const f of fields) {
    const value = storedValue(record, f);
    if (typeof value === 'string') key = key === '' ? value.toLowerCase() : `${key}\u0000${value.toLowerCase()}`;
  }
  return key;
}

/**
 * A member as a search reads it: its record, and its lower-cased searched fields once a search made
 * them (kept with the member until it changes, which sets `search` back to undefined).
 *
 * @example
 * const member: Searchable = { record, search: undefined };
 */
export interface Searchable {
  readonly record: StoredItem;
  search: { fields: readonly string[]; key: string } | undefined;
}

/**
 * The members of `list` whose `fields` contain `text`, case-insensitively, in list order: one page of
 * them and their count (up to `page.countLimit`, then a lower bound). Each member's lower-cased fields
 * are kept on it (`Searchable.search`) until it changes. A long scan gives the event loop a turn every
 * SCAN_CHUNK members, going on over a copy of the ids taken before the first turn (a member deleted
 * meanwhile is skipped).
 *
 * @example
 * const slice = await searchList(ids, 'ada', { offset: 0, limit: 10 }, ['alias'], (id) => entries.get(id));
 */
export async function searchList(
  list: readonly string[],
  text: string,
  page: PageRequest,
  fields: readonly string[],
  lookup: (id: string) => Searchable | undefined,
): Promise<Omit<Slice, 'owner'>> {
  const needle = text.toLowerCase();
  const exact = needle.includes('\u0000');
  const countLimit = page.countLimit ?? Infinity;
  const items: StoredItem[] = [];
  let total = 0;
  let ids = list;
  for (let i = 0; i < ids.length; i++) {
    if (i > 0 && i % SCAN_CHUNK === 0) {
      if (ids === list) ids = list.slice();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const member = lookup(ids[i]!);
    if (member === undefined) continue;
    const record = member.record;
    if (exact) {
      if (!fields.some((f) => String(storedValue(record, f) ?? '').toLowerCase().includes(needle))) continue;
    } else {
      let kept = member.search;
      if (kept === undefined || kept.fields !== fields) member.search = kept = { fields, key: searchKey(record, fields) };
      if (!kept.key.includes(needle)) continue;
    }
    if (total === countLimit) return { items, total, totalIsLowerBound: true };
    if (total >= page.offset && items.length < page.limit) items.push(record);
    total++;
  }
  return { items, total };
}
