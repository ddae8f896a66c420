// The records and entries of MemoryStore: what is kept per item, the keys of lists, stored records.
import type { Relation, ResourceType } from '../core/model/api.js';
import type { StoredItem } from '../core/model/documents.js';
import { ownerList, withOwner, withoutOwner, type Owners } from './owner-index.js';
import type { Searchable } from './memory-search.js';
import { itemKey, StoreError, type MemberWrite, type WriteOptions } from './contract.js';

export const NO_MEMBERS: readonly string[] = Object.freeze([]);

/**
 * Everything kept about one item, under one map key: its record, the lists it owns (by relation), and
 * the owners whose lists hold it (for taking it off them when it is deleted): for the first list that
 * held it, `owners` (most items are on lists of one kind: no map), for others `otherOwners`; and its
 * searched fields in lower case once a search made them (`Searchable`, until the record changes).
 */
export interface Entry extends Searchable {
  /**
   * The item's id as its type's map holds it: lists hold this same string, so that a page finds each
   * member by identity, without comparing the characters of an id parsed from a request or a seed.
   */
  readonly id: string;
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

/**
 * Takes a deleted item (`entry`, its id `id`) off every list that holds it: `ownerOf` finds an owner's
 * entry by type name and id, `touch` gives an owner whose list changed a new revision. Returns the
 * keys of those owners.
 */
export function unlistEverywhere(entry: Entry, id: string, ownerOf: (type: string, id: string) => Entry | undefined, touch: (owner: Entry) => void): string[] {
  const changed: string[] = [];
  const held: [string, Owners][] = [];
  if (entry.ownersOf !== undefined) held.push([entry.ownersOf, entry.owners]);
  for (const pair of entry.otherOwners ?? []) held.push(pair);
  for (const [key, owners] of held) {
    const [ownerType, relationName] = key.split('\n') as [string, string];
    for (const ownerId of ownerList(owners)) {
      const owner = ownerOf(ownerType, ownerId);
      const list = owner?.lists?.[relationName];
      if (!owner || !list) continue;
      const rest = list.filter((m) => m !== id);
      if (rest.length) owner.lists![relationName] = rest;
      else delete owner.lists![relationName];
      touch(owner);
      changed.push(itemKey(ownerType, ownerId));
    }
  }
  return changed;
}

/** A deleted item's own lists no longer hold their members: each member forgets it as an owner. */
export function releaseMembers(type: ResourceType, entry: Entry, id: string, entriesOf: (type: ResourceType) => Map<string, Entry>): void {
  for (const relation of type.relations) {
    const members = entry.lists?.[relation.name];
    if (!members) continue;
    const targets = entriesOf(relation.target);
    const key = listKey(relation);
    for (const memberId of members) {
      const member = targets.get(memberId);
      if (member) setOwners(member, key, withoutOwner(ownersIn(member, key), id));
    }
  }
}

/**
 * Adds `changed` to (or, `adding` false, removes them from) the list of `relation` of `owner`, and
 * each member's owners with it; `changed` are ids not yet on the list (on it, to remove).
 *
 * @example
 * changeList(friends, entry, 'alice', ['bob'], true, entriesOf(player));
 */
export function changeList(relation: Relation, owner: Entry, ownerId: string, changed: readonly string[], adding: boolean, members: Map<string, Entry>): void {
  const key = listKey(relation);
  const current = owner.lists?.[relation.name];
  owner.lists ??= {};
  // Each member looked up once: its owners change, and an added one is listed by its own id string
  // (`Entry.id`), so that a page finds it by identity.
  const added: string[] = [];
  for (const id of changed) {
    const member = members.get(id);
    if (adding) added.push(member?.id ?? id);
    if (member) setOwners(member, key, adding ? withOwner(ownersIn(member, key), ownerId) : withoutOwner(ownersIn(member, key), ownerId));
  }
  if (adding) owner.lists[relation.name] = [...(current ?? NO_MEMBERS), ...added];
  else {
    const gone = new Set(changed);
    const rest = current!.filter((id) => !gone.has(id));
    if (rest.length) owner.lists[relation.name] = rest;
    else delete owner.lists[relation.name];
  }
}

/**
 * The first answer of an idempotent member write repeated with its Idempotency-Key, or undefined when
 * the key is new (or none): the same body replays it, another is 'idempotency-mismatch'.
 *
 * @example
 * const replay = replayOf(idempotency, entriesOf, friends, 'alice', { idempotencyKey: 'k-1', fingerprint });
 */
export function replayOf(idempotency: ReadonlyMap<string, Replayable>, entriesOf: (type: ResourceType) => Map<string, Entry>, relation: Relation, ownerId: string, options: WriteOptions): MemberWrite | undefined {
  if (options.idempotencyKey === undefined) return undefined;
  const entry = idempotency.get(`${relation.owner.name}\n${ownerId}\n${relation.name}\n${options.idempotencyKey}`);
  if (!entry) return undefined;
  if (entry.fingerprint !== (options.fingerprint ?? '')) throw StoreError.exposed('idempotency-mismatch', 'this Idempotency-Key was used with a different request');
  const owner = entriesOf(relation.owner).get(ownerId)?.record;
  const member = entriesOf(relation.target).get(entry.memberId)?.record;
  if (!owner || !member) throw StoreError.exposed('not-found', 'an item of the first request no longer exists');
  return { owner, member, replayed: true };
}
