// A store written from docs/stores.md alone: items, lists and idempotency keys in Maps, for any declared
// API. Simpler than MemoryStore (no media, no watch, removals cost O(list length)); it passes the store
// kit (test/map-store.test.ts). Use it as the skeleton of a store of your own.
// In your project: from 'player-hypermedia/store' and 'player-hypermedia'.
import { StoreError, type Expectation, type MemberWrite, type PageRequest, type Slice, type Store, type StoredItem, type WriteOptions } from '../src/stores/index.js';
import type { Relation, ResourceType } from '../src/index.js';

type Record_ = StoredItem & Readonly<Record<string, unknown>>;

/** A Store over Maps. Every method checks and writes without an `await` in between: each write is atomic. */
export class MapStore implements Store {
  readonly #items = new Map<string, Map<string, Record_>>(); // type name -> id -> record
  readonly #lists = new Map<string, string[]>(); // `${type}\n${relation}\n${owner}` -> member ids in order
  readonly #keys = new Map<string, { fingerprint: string; result: MemberWrite }>(); // list key + idempotency key
  #revision = 0;

  async get(type: ResourceType, id: string): Promise<StoredItem | undefined> {
    return this.#of(type).get(id);
  }

  async put(type: ResourceType, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): Promise<{ item: StoredItem; created: boolean }> {
    const id = String(data[type.idField]);
    const current = this.#of(type).get(id);
    check(current, options.expect);
    const item = this.#write(type, structuredClone(data)); // a copy: the caller may change what it wrote
    return { item, created: current === undefined };
  }

  async delete(type: ResourceType, id: string, options: WriteOptions = {}): Promise<boolean> {
    const current = this.#of(type).get(id);
    check(current, options.expect);
    if (!current) return false;
    this.#of(type).delete(id);
    for (const [key, members] of this.#lists) {
      const [ownerType, relationName, ownerId] = key.split('\n') as [string, string, string];
      // Its own lists go with it; it leaves every list of its type that holds it, whose owners change.
      if (ownerType === type.name && ownerId === id) this.#lists.delete(key);
      else if (members.includes(id) && this.#targetOf(ownerType, relationName) === type.name) {
        this.#lists.set(key, members.filter((m) => m !== id));
        const owner = this.#items.get(ownerType)?.get(ownerId);
        if (owner) this.#touch(ownerType, owner);
      }
    }
    return true;
  }

  async list(relation: Relation, ownerId: string, page: PageRequest): Promise<Slice | undefined> {
    const owner = this.#of(relation.owner).get(ownerId);
    if (!owner) return undefined;
    const members = this.#lists.get(listKey(relation, ownerId)) ?? [];
    const targets = this.#of(relation.target);
    return { items: members.slice(page.offset, page.offset + page.limit).map((id) => targets.get(id)!), total: members.length, owner };
  }

  async search(relation: Relation, ownerId: string, text: string, page: PageRequest): Promise<Slice | undefined> {
    const owner = this.#of(relation.owner).get(ownerId);
    if (!owner) return undefined;
    const needle = text.toLowerCase(); // a substring, literally: no pattern characters
    const fields = relation.search?.fields ?? [];
    const targets = this.#of(relation.target);
    const matches = (this.#lists.get(listKey(relation, ownerId)) ?? [])
      .map((id) => targets.get(id)!)
      .filter((item) => fields.some((f) => typeof item[f] === 'string' && (item[f] as string).toLowerCase().includes(needle)));
    return { items: matches.slice(page.offset, page.offset + page.limit), total: matches.length, owner };
  }

  async createMember(relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): Promise<MemberWrite> {
    const replay = this.#replay(relation, ownerId, options);
    if (replay) return replay;
    const owner = this.#ownerOf(relation, ownerId, options.expect);
    const id = String(data[relation.target.idField]);
    if (this.#of(relation.target).has(id)) throw StoreError.exposed('conflict', `${relation.target.name} "${id}" already exists`);
    const member = this.#write(relation.target, structuredClone(data));
    return this.#append(relation, owner, member, options);
  }

  async addMember(relation: Relation, ownerId: string, memberId: string, options: WriteOptions = {}): Promise<MemberWrite> {
    const replay = this.#replay(relation, ownerId, options);
    if (replay) return replay;
    const owner = this.#ownerOf(relation, ownerId, options.expect);
    const member = this.#of(relation.target).get(memberId);
    if (!member) throw StoreError.exposed('not-found', `no ${relation.target.name} "${memberId}"`);
    if (this.#lists.get(listKey(relation, ownerId))?.includes(memberId)) throw StoreError.exposed('conflict', `"${memberId}" is already listed`);
    return this.#append(relation, owner, member, options);
  }

  async removeMember(relation: Relation, ownerId: string, memberId: string, options: WriteOptions = {}): Promise<StoredItem | undefined> {
    const owner = this.#ownerOf(relation, ownerId, options.expect);
    const key = listKey(relation, ownerId);
    const members = this.#lists.get(key) ?? [];
    if (!members.includes(memberId)) return undefined; // nothing changes: the revision stays
    this.#lists.set(key, members.filter((m) => m !== memberId));
    return this.#touch(relation.owner.name, owner);
  }

  /** The first result of this list's idempotency key when the fingerprint matches (checked before `expect`). */
  #replay(relation: Relation, ownerId: string, options: WriteOptions): MemberWrite | undefined {
    if (options.idempotencyKey === undefined) return undefined;
    const kept = this.#keys.get(`${listKey(relation, ownerId)}\n${options.idempotencyKey}`);
    if (!kept) return undefined;
    if (kept.fingerprint !== (options.fingerprint ?? '')) throw StoreError.exposed('idempotency-mismatch', 'this Idempotency-Key was used with a different request');
    return { ...kept.result, replayed: true };
  }

  #append(relation: Relation, owner: Record_, member: StoredItem, options: WriteOptions): MemberWrite {
    const key = listKey(relation, String(owner[relation.owner.idField]));
    this.#lists.set(key, [...(this.#lists.get(key) ?? []), String((member as Record_)[relation.target.idField])]);
    const result = { owner: this.#touch(relation.owner.name, owner), member, replayed: false };
    if (options.idempotencyKey !== undefined) this.#keys.set(`${key}\n${options.idempotencyKey}`, { fingerprint: options.fingerprint ?? '', result });
    return result;
  }

  #ownerOf(relation: Relation, ownerId: string, expect: Expectation | undefined): Record_ {
    const owner = this.#of(relation.owner).get(ownerId);
    check(owner, expect);
    if (!owner) throw StoreError.exposed('not-found', `no ${relation.owner.name} "${ownerId}"`);
    return owner;
  }

  /** A new record with a new revision (a counter of the whole store: never reused). */
  #write(type: ResourceType, data: Record<string, unknown>): Record_ {
    const item = { ...data, revision: String(++this.#revision), modifiedAt: Date.now() } as Record_;
    this.#of(type).set(String(data[type.idField]), item);
    return item;
  }

  /** The owner again with a new revision: its list changed. */
  #touch(typeName: string, owner: Record_): Record_ {
    const { revision: _r, modifiedAt: _m, ...fields } = owner;
    return this.#write(this.#types.get(typeName)!, fields);
  }

  readonly #types = new Map<string, ResourceType>(); // the types seen, by name

  #of(type: ResourceType): Map<string, Record_> {
    let items = this.#items.get(type.name);
    if (!items) {
      this.#items.set(type.name, (items = new Map()));
      this.#types.set(type.name, type);
    }
    return items;
  }

  #targetOf(ownerType: string, relationName: string): string | undefined {
    return this.#types.get(ownerType)?.relations.find((r) => r.name === relationName)?.target.name;
  }
}

function listKey(relation: Relation, ownerId: string): string {
  return `${relation.owner.name}\n${relation.name}\n${ownerId}`;
}

/** docs/stores.md, "Compare-and-set": the revision, or existence, the write expects. */
function check(current: StoredItem | undefined, expect: Expectation | undefined): void {
  if (expect?.revision !== undefined && current?.revision !== expect.revision) throw new StoreError('revision-mismatch', 'the revision changed');
  if (expect?.exists !== undefined && expect.exists !== (current !== undefined)) throw new StoreError('revision-mismatch', 'existence differs');
}
