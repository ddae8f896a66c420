// The records and entries of MemoryStore: what is kept per item, the keys of lists, stored records.
import type { Relation, ResourceType } from '../core/model/api.js';
import type { StoredItem } from '../core/model/documents.js';
import type { Owners } from './owner-index.js';
import type { Searchable } from './memory-search.js';

export const NO_MEMBERS: readonly string[] = Object.freeze([]);

/**
 * Everything kept about one item, under one map key: its record, the lists it owns (by relation), and
 * the owners whose lists hold it (for taking it off them when it is deleted): for the first list that
 * held it, `owners` (most items are on lists of one kind: no map), for others `otherOwners`; and its
 * searched fields in lower case once a search made them (`Searchable`, until the record changes).
 */
export interface Entry extends Searchable {
  record: StoredItem;
  lists: Record<string, string[]> | undefined;
  ownersOf: string | undefined;
  owners: Owners;
  otherOwners: Map<string, Owners> | undefined;
}

export interface Replayable {
  fingerprint: string;
  memberId: string;
}

/** The key of a list: its owner's type and its relation (`player\nfriends`). */
export function listKey(relation: Relation): string {
  return `${relation.owner.name}\n${relation.name}`;
}

export function ownersIn(entry: Entry, key: string): Owners {
  return entry.ownersOf === key ? entry.owners : entry.otherOwners?.get(key);
}

export function setOwners(entry: Entry, key: string, owners: Owners): void {
  if (entry.ownersOf === undefined || entry.ownersOf === key) {
    entry.ownersOf = owners === undefined ? undefined : key;
    entry.owners = owners;
    return;
  }
  entry.otherOwners ??= new Map();
  if (owners === undefined) entry.otherOwners.delete(key);
  else entry.otherOwners.set(key, owners);
}

/**
 * The record again with a new revision and modification time: its fields added in the same order as
 * `storedRecord` adds them, so that both make objects of the same shapes (a spread of records of
 * several shapes is a slow, megamorphic copy).
 */
export function withRevision(record: StoredItem, revision: string, modifiedAt: number): StoredItem {
  const next: Record<string, unknown> = {};
  const fields = record as unknown as Record<string, unknown>;
  for (const key in fields) if (key !== 'revision' && key !== 'modifiedAt') next[key] = fields[key];
  next.revision = revision;
  next.modifiedAt = modifiedAt;
  return next as unknown as StoredItem;
}

/**
 * The stored record of `data`: the type's stored fields (not derived ones), in declaration order, then
 * the revision and the modification time; fields without a value are left out. An object or array is
 * copied: the caller may change what it wrote, and the store must not change with it.
 */
export function storedRecord(type: ResourceType, data: Readonly<Record<string, unknown>>, revision: string, modifiedAt: number): StoredItem {
  const record: Record<string, unknown> = {};
  for (const f of type.fields) {
    if (f.derived) continue;
    const value = data[f.name];
    if (value !== undefined && value !== null) record[f.name] = typeof value === 'object' ? structuredClone(value) : value;
  }
  record.revision = revision;
  record.modifiedAt = modifiedAt;
  return record as unknown as StoredItem;
}
