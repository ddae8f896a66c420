// Query parameters and result rows of the PostgreSQL store: revisions, LIKE patterns, items written and
// read, slices of lists, media.
import type { Relation, ResourceType } from '../../core/model/api.js';
import type { StoredItem } from '../../core/model/documents.js';
import type { Slice, StoredMedia } from '../contract.js';
import type { ReadRecords } from './read-records.js';

/** A revision as the bigint parameter of a compare-and-set: one that cannot be a revision never matches. */
export function revisionParam(revision: string | undefined): string | null {
  if (revision === undefined) return null;
  return /^[1-9][0-9]{0,17}$/.test(revision) ? revision : '0';
}

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so the text matches literally, then wraps it in `%`. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The one row of a slice: the list's total, the owner's columns and the members (see `membersJoin`). */
export interface SliceRow {
  total: number;
  owner_id: string;
  /** The owner's data as jsonb text. */
  owner_data: string;
  owner_revision: string;
  owner_modified_ms: number;
  /** `[id, revision, modified_ms]` of each member in list order; null for none. */
  members: [string, string, number][] | null;
  /** The text of the json array of the members' data, in the same order; null for none. */
  member_data: string | null;
}

/**
 * A slice of `relation`'s list from its row, with its owner; undefined when the owner does not exist
 * (no row). An item `records` knows at its revision is that record, neither parsed nor built again;
 * the members' data is parsed (once, all of it) only when one is not known.
 *
 * @example
 * const slice = toSlice(friends, rows, new ReadRecords());
 */
export function toSlice(relation: Relation, rows: SliceRow[], records: ReadRecords, countLimit = Infinity): Slice | undefined {
  const row = rows[0];
  if (row === undefined) return undefined;
  const target = relation.target;
  const members = row.members ?? [];
  const items = new Array<StoredItem>(members.length);
  let data: Record<string, unknown>[] | undefined;
  for (let i = 0; i < members.length; i++) {
    const [id, revision, modified_ms] = members[i]!;
    let record = records.get(target, id, revision);
    if (record === undefined) {
      data ??= JSON.parse(row.member_data!) as Record<string, unknown>[];
      record = records.set(target, id, toStoredItem(target, { id, data: data[i]!, revision, modified_ms }));
    }
    items[i] = record;
  }
  const ownerType = relation.owner;
  const owner =
    records.get(ownerType, row.owner_id, row.owner_revision) ??
    records.set(ownerType, row.owner_id, toStoredItem(ownerType, { id: row.owner_id, data: JSON.parse(row.owner_data) as Record<string, unknown>, revision: row.owner_revision, modified_ms: row.owner_modified_ms }));
  const total = Number(row.total);
  // Past countLimit the statement read one match more than it counts: there are more than countLimit.
  return total > countLimit ? { items, total: countLimit, totalIsLowerBound: true, owner } : { items, total, owner };
}

/** An items row as the statements select it (`revision` as text, `modified_ms` as epoch milliseconds). */
export interface ItemRow {
  id: string;
  data: Record<string, unknown>;
  revision: string;
  modified_ms: number;
}

/**
 * The stored fields of an item but the id (a column of its own), nulls left out: what its data column
 * holds.
 *
 * @example
 * itemFields(player, { playerId: 'bob', alias: 'bobby', displayName: null }); // { alias: 'bobby' }
 */
export function itemFields(type: ResourceType, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of type.fields) {
    if (f.derived || f.name === type.idField) continue;
    const value = data[f.name];
    if (value !== undefined && value !== null) out[f.name] = value;
  }
  return out;
}

/**
 * The data column of an item, as JSON text (see `itemFields`).
 *
 * @example
 * itemData(player, { playerId: 'bob', alias: 'bobby' }); // '{"alias":"bobby"}'
 */
export function itemData(type: ResourceType, data: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(itemFields(type, data));
}

/**
 * The record a write of `fields` (sent as `text`) stored, from the revision and time it returned: the
 * fields as sent, or parsed again from `text` when one holds an object or array, so the record shares
 * nothing the caller may change.
 *
 * @example
 * const fields = itemFields(player, data);
 * writtenItem(player, 'bob', fields, JSON.stringify(fields), { revision: '7', modified_ms: 1700000000000 });
 */
export function writtenItem(type: ResourceType, id: string, fields: Record<string, unknown>, text: string, row: Pick<ItemRow, 'revision' | 'modified_ms'>): StoredItem {
  let data = fields;
  for (const name in fields) {
    if (typeof fields[name] === 'object') {
      data = JSON.parse(text) as Record<string, unknown>;
      break;
    }
  }
  return toStoredItem(type, { id, data, revision: row.revision, modified_ms: row.modified_ms });
}

/**
 * An items row as a stored record of `type`: its fields in declaration order (as the memory store
 * makes them), the id field from the id column.
 *
 * @example
 * toStoredItem(player, row).revision; // '42'
 */
export function toStoredItem(type: ResourceType, row: ItemRow): StoredItem {
  const record: Record<string, unknown> = {};
  const data = row.data ?? {};
  for (const f of type.fields) {
    if (f.name === type.idField) record[f.name] = row.id;
    else if (data[f.name] !== undefined && data[f.name] !== null) record[f.name] = data[f.name];
  }
  record.revision = row.revision;
  record.modifiedAt = Number(row.modified_ms);
  return record as unknown as StoredItem;
}

/**
 * A media row as StoredMedia.
 *
 * @example
 * toStoredMedia({ bytes: Buffer.from([1]), content_type: 'image/png', revision: '3', modified_ms: 0 });
 */
export function toStoredMedia(row: { bytes: Uint8Array; content_type: string; revision: string; modified_ms: number }): StoredMedia {
  return { bytes: new Uint8Array(row.bytes), contentType: row.content_type, revision: row.revision, modifiedAt: row.modified_ms };
}
