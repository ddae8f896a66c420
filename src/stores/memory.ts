// MemoryStore: the embedded default store, for any declared type, in one process's memory.
import type { Relation, ResourceType } from '../core/model/api.js';
import { storedValue, type StoredItem } from '../core/model/documents.js';
import {
  itemKey,
  StoreError,
  type Changes,
  type ChangeListener,
  type Expectation,
  type MemberWrite,
  type MembersChange,
  type PageRequest,
  type ReadsNow,
  type WritesNow,
  type Slice,
  type Store,
  type StoredMedia,
  type WriteOptions,
} from './contract.js';
import { hasOwner, withOwner, withoutOwner } from './owner-index.js';
import { searchList } from './memory-search.js';
import { changeList, listKey, replayOf, NO_MEMBERS, ownersIn, releaseMembers, setOwners, storedRecord, unlistEverywhere, withRevision, type Entry, type Replayable } from './memory-entries.js';

/**
 * The embedded default store, for any type of any API. Lists are arrays, so a page costs O(page size);
 * a search scans the owner's list. Every method checks and writes without awaiting in between, so each
 * conditional write is atomic within the process. It hands out the same record object for an item
 * until the item changes (`sharesRecords`).
 *
 * @example
 * const store = new MemoryStore();
 * await store.put(api.type('player'), { playerId: 'alice', alias: 'ali' });
 * await store.createMember(api.type('player').relation('friends')!, 'alice', { playerId: 'bob', alias: 'bobby' });
 */
export class MemoryStore implements Store {
  // Each item's record is the same object until the item changes (see Store.sharesRecords).
  readonly sharesRecords = true;
  readonly #types = new Map<string, Map<string, Entry>>();
  readonly #media = new Map<string, StoredMedia>();
  readonly #idempotency = new Map<string, Replayable>();
  #sequence = 0;
  readonly #listeners = new Set<ChangeListener>();
  readonly #now: () => number;

  /** @param options.now a clock (epoch ms), for tests. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * Tells `listener` the keys of the items each write changes (see Store.watch). A subclass that
   * overrides a read is not watched (undefined): its reads may answer differently without a write.
   *
   * @example
   * const stop = store.watch((changed) => console.log('changed', changed));
   */
  watch(listener: ChangeListener): (() => void) | undefined {
    if (!this.#ownReads()) return undefined;
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * `get` and `list` answered synchronously (see Store.readsNow); undefined for a subclass that
   * overrides a read, whose reads are its own.
   *
   * @example
   * new MemoryStore().readsNow()?.get(api.type('player'), 'alice'); // undefined: nobody yet
   */
  readsNow(): ReadsNow | undefined {
    return this.#ownReads() ? { get: (type, id) => this.#get(type, id), list: (relation, ownerId, page) => this.#list(relation, ownerId, page) } : undefined;
  }

  async get(type: ResourceType, id: string): Promise<StoredItem | undefined> {
    return this.#get(type, id);
  }

  async list(relation: Relation, ownerId: string, page: PageRequest): Promise<Slice | undefined> {
    return this.#list(relation, ownerId, page);
  }

  #get(type: ResourceType, id: string): StoredItem | undefined {
    return this.#entries(type).get(id)?.record;
  }

  #list(relation: Relation, ownerId: string, page: PageRequest): Slice | undefined {
    const entry = this.#entries(relation.owner).get(ownerId);
    if (!entry) return undefined;
    const list = entry.lists?.[relation.name] ?? NO_MEMBERS;
    const members = this.#entries(relation.target);
    const ids = list.slice(page.offset, page.offset + page.limit);
    return { items: ids.map((id) => members.get(id)!.record), total: list.length, owner: entry.record };
  }

  async search(relation: Relation, ownerId: string, text: string, page: PageRequest): Promise<Slice | undefined> {
    const entry = this.#entries(relation.owner).get(ownerId);
    if (!entry) return undefined;
    const members = this.#entries(relation.target);
    const slice = await searchList(entry.lists?.[relation.name] ?? NO_MEMBERS, text, page, relation.search?.fields ?? [], (id) => members.get(id));
    return { ...slice, owner: entry.record };
  }

  /**
   * `put` and `createMember` done synchronously (see Store.writesNow); undefined for a subclass that
   * overrides a read or one of them, whose writes are its own.
   *
   * @example
   * new MemoryStore().writesNow()?.put(api.type('player'), { playerId: 'zoe', alias: 'zoe' }).created; // true
   */
  writesNow(): WritesNow | undefined {
    const own = MemoryStore.prototype;
    const proto = Object.getPrototypeOf(this) as MemoryStore;
    if (!this.#ownReads() || proto.put !== own.put || proto.createMember !== own.createMember) return undefined;
    return { put: (type, data, options) => this.#put(type, data, options), createMember: (relation, ownerId, data, options) => this.#createMember(relation, ownerId, data, options) };
  }

  async put(type: ResourceType, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): Promise<{ item: StoredItem; created: boolean }> {
    return this.#put(type, data, options);
  }

  #put(type: ResourceType, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): { item: StoredItem; created: boolean } {
    const id = data[type.idField] as string;
    const current = this.#entries(type).get(id)?.record;
    this.#check(type, id, current, options.expect);
    const item = this.#write(type, data);
    if (this.#listeners.size > 0) this.#tell([itemKey(type.name, id)]);
    return { item, created: current === undefined };
  }

  async delete(type: ResourceType, id: string, options: WriteOptions = {}): Promise<boolean> {
    const entries = this.#entries(type);
    const entry = entries.get(id);
    this.#check(type, id, entry?.record, options.expect);
    if (!entry) return false;
    const changed = [itemKey(type.name, id), ...unlistEverywhere(entry, id, (t, i) => this.#types.get(t)?.get(i), (owner) => this.#touch(owner))];
    releaseMembers(type, entry, id, (t) => this.#entries(t));
    entries.delete(id);
    for (const key of this.#media.keys()) if (key.startsWith(`${type.name}\n${id}\n`)) this.#media.delete(key);
    for (const [key, replay] of this.#idempotency) if (key.startsWith(`${type.name}\n${id}\n`) || replay.memberId === id) this.#idempotency.delete(key);
    this.#tell(changed);
    return true;
  }

  async createMember(relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): Promise<MemberWrite> {
    return this.#createMember(relation, ownerId, data, options);
  }

  #createMember(relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): MemberWrite {
    const replay = replayOf(this.#idempotency, (t) => this.#entries(t), relation, ownerId, options);
    if (replay) return replay;
    const owner = this.#owner(relation, ownerId, options.expect);
    const target = relation.target;
    const memberId = data[target.idField] as string;
    if (this.#entries(target).has(memberId)) throw StoreError.exposed('conflict', `${target.name} "${memberId}" already exists`);
    const member = this.#write(target, data);
    const linked = this.#link(relation, owner, memberId, options);
    if (this.#listeners.size > 0) this.#tell([itemKey(relation.owner.name, ownerId), itemKey(target.name, memberId)]);
    return { owner: linked, member, replayed: false };
  }

  async addMember(relation: Relation, ownerId: string, memberId: string, options: WriteOptions = {}): Promise<MemberWrite> {
    const replay = replayOf(this.#idempotency, (t) => this.#entries(t), relation, ownerId, options);
    if (replay) return replay;
    const owner = this.#owner(relation, ownerId, options.expect);
    const member = this.#entries(relation.target).get(memberId);
    if (!member) throw StoreError.exposed('not-found', `no ${relation.target.name} "${memberId}"`);
    if (hasOwner(ownersIn(member, listKey(relation)), ownerId)) throw StoreError.exposed('conflict', `"${memberId}" is already in the ${relation.name} of "${ownerId}"`);
    const linked = this.#link(relation, owner, memberId, options);
    if (this.#listeners.size > 0) this.#tell([itemKey(relation.owner.name, ownerId)]);
    return { owner: linked, member: member.record, replayed: false };
  }

  async removeMember(relation: Relation, ownerId: string, memberId: string, options: WriteOptions = {}): Promise<StoredItem | undefined> {
    const owner = this.#owner(relation, ownerId, options.expect);
    const list = owner.lists?.[relation.name];
    const index = list ? list.indexOf(memberId) : -1;
    if (!list || index < 0) return undefined;
    list.splice(index, 1);
    if (list.length === 0) delete owner.lists![relation.name];
    const member = this.#entries(relation.target).get(memberId);
    if (member) setOwners(member, listKey(relation), withoutOwner(ownersIn(member, listKey(relation)), ownerId));
    const touched = this.#touch(owner);
    if (this.#listeners.size > 0) this.#tell([itemKey(relation.owner.name, ownerId)]);
    return touched;
  }

  async changeMembers(relation: Relation, ownerId: string, change: MembersChange, options: WriteOptions = {}): Promise<{ owner: StoredItem; changed: string[] }> {
    const owner = this.#owner(relation, ownerId, options.expect);
    const adding = 'add' in change;
    const ids = adding ? change.add : change.remove;
    const members = this.#entries(relation.target);
    const missing = adding ? ids.filter((id) => !members.has(id)) : [];
    if (missing.length) throw StoreError.exposed('not-found', `no ${relation.target.name} ${missing.map((id) => `"${id}"`).join(', ')}`);
    const current = owner.lists?.[relation.name];
    const listed = new Set(current);
    const changed = [...new Set(ids)].filter((id) => listed.has(id) !== adding);
    if (changed.length === 0) return { owner: owner.record, changed };
    changeList(relation, owner, ownerId, changed, adding, members);
    const touched = this.#touch(owner);
    if (this.#listeners.size > 0) this.#tell([itemKey(relation.owner.name, ownerId)]);
    return { owner: touched, changed };
  }

  async getMedia(type: ResourceType, id: string, name: string): Promise<StoredMedia | undefined> {
    return this.#media.get(`${type.name}\n${id}\n${name}`);
  }

  async putMedia(type: ResourceType, id: string, name: string, bytes: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<StoredMedia> {
    if (!this.#entries(type).has(id)) throw StoreError.exposed('not-found', `no ${type.name} "${id}"`);
    const key = `${type.name}\n${id}\n${name}`;
    const current = this.#media.get(key);
    const expect = options.expect;
    if (expect?.revision !== undefined && current?.revision !== expect.revision) throw new StoreError('revision-mismatch', `${name} revision changed`);
    if (expect?.exists !== undefined && expect.exists !== (current !== undefined)) throw new StoreError('revision-mismatch', `${name} existence differs`);
    const media: StoredMedia = { bytes: bytes.slice(), contentType, revision: this.#nextRevision(), modifiedAt: this.#now() };
    this.#media.set(key, media);
    if (this.#listeners.size > 0) this.#tell([itemKey(type.name, id)]);
    return media;
  }

  /** Whether its reads are this class's own: a subclass that overrides one is neither watched nor read at once. */
  #ownReads(): boolean {
    const own = MemoryStore.prototype;
    const proto = Object.getPrototypeOf(this) as MemoryStore;
    return proto.get === own.get && proto.list === own.list && proto.search === own.search && proto.getMedia === own.getMedia;
  }

  #entries(type: ResourceType): Map<string, Entry> {
    let entries = this.#types.get(type.name);
    if (entries === undefined) this.#types.set(type.name, (entries = new Map()));
    return entries;
  }

  /** The owner of a list change, checked against `expect`; not-found when it does not exist. */
  #owner(relation: Relation, ownerId: string, expect: Expectation | undefined): Entry {
    const owner = this.#entries(relation.owner).get(ownerId);
    this.#check(relation.owner, ownerId, owner?.record, expect);
    if (!owner) throw StoreError.exposed('not-found', `no ${relation.owner.name} "${ownerId}"`);
    return owner;
  }

  #check(type: ResourceType, id: string, current: StoredItem | undefined, expect: Expectation | undefined): void {
    if (!expect) return;
    if (expect.exists === true && !current) throw new StoreError('revision-mismatch', `${type.name} "${id}" does not exist`);
    if (expect.exists === false && current) throw new StoreError('revision-mismatch', `${type.name} "${id}" already exists`);
    if (expect.revision !== undefined && current?.revision !== expect.revision) throw new StoreError('revision-mismatch', `${type.name} "${id}" has changed`);
  }

  #link(relation: Relation, owner: Entry, memberId: string, options: WriteOptions): StoredItem {
    const ownerId = storedValue(owner.record, relation.owner.idField) as string;
    const member = this.#entries(relation.target).get(memberId)!;
    owner.lists ??= {};
    const list = owner.lists[relation.name];
    if (list) list.push(member.id);
    else owner.lists[relation.name] = [member.id];
    const key = listKey(relation);
    setOwners(member, key, withOwner(ownersIn(member, key), ownerId));
    if (options.idempotencyKey !== undefined) {
      this.#idempotency.set(`${relation.owner.name}\n${ownerId}\n${relation.name}\n${options.idempotencyKey}`, { fingerprint: options.fingerprint ?? '', memberId });
    }
    return this.#touch(owner);
  }

  /** Writes an item's record (its stored fields only), keeping its lists and owners when it exists. */
  #write(type: ResourceType, data: Readonly<Record<string, unknown>>): StoredItem {
    const record = storedRecord(type, data, this.#nextRevision(), this.#now());
    const id = data[type.idField] as string;
    const entries = this.#entries(type);
    const entry = entries.get(id);
    if (!entry) entries.set(id, { id, record, lists: undefined, ownersOf: undefined, owners: undefined, otherOwners: undefined, search: undefined });
    else {
      entry.record = record;
      entry.search = undefined;
    }
    return record;
  }

  /** A new revision of an item whose lists changed. */
  #touch(entry: Entry): StoredItem {
    return (entry.record = withRevision(entry.record, this.#nextRevision(), this.#now()));
  }

  #nextRevision(): string {
    return String(++this.#sequence);
  }

  /**
   * Tells the watchers which items a write changed, once it is complete. Callers make the list only
   * when someone listens: a store nobody watches (seeding) makes none.
   */
  #tell(changed: Changes): void {
    if (this.#listeners.size === 0) return;
    for (const listener of this.#listeners) listener(changed);
  }
}
