// MemoryPlayerStore: the embedded default store, in one process's memory.
import type { PlayerData, StoredPlayer } from '../player/player.js';
import {
  StoreError,
  type ChangedPlayers,
  type Expectation,
  type FriendWrite,
  type FriendsChange,
  type PageRequest,
  type PlayerSlice,
  type PlayerStore,
  type StoredAvatar,
  type WriteOptions,
} from './contract.js';
import { hasOwner, ownerList, withOwner, withoutOwner, type Owners } from './owner-index.js';

const NO_FRIENDS: readonly string[] = Object.freeze([]);
/**
 * What a search compares: the alias and display name in lower case, joined by U+0000, so a match
 * never spans both (a search text holding U+0000 is compared field by field instead).
 */
function searchKey(player: StoredPlayer): string {
  const alias = player.alias.toLowerCase();
  return player.displayName === undefined ? alias : `${alias}\u0000${player.displayName.toLowerCase()}`;
}

/** How many friends a search compares between turns of the event loop (about 20 ms of work). */
const SCAN_CHUNK = 50_000;

/**
 * Everything kept about one player, under one map key: its record, its friend list (undefined when it has
 * none) and the owners listing it (for deleting it from their lists).
 */
interface Entry {
  player: StoredPlayer;
  friends: string[] | undefined;
  owners: Owners;
}

interface IdempotentEntry {
  fingerprint: string;
  friendId: string;
}

/**
 * The embedded default store. Friend lists are arrays, so a page costs O(page size); search scans the
 * owner's list. Every method checks and writes without awaiting in between, so each conditional write
 * is atomic within the process.
 *
 * @example
 * const store = new MemoryPlayerStore();
 * await store.putPlayer({ playerId: 'alice', alias: 'ali', displayName: 'Alice' });
 * await store.createFriend('alice', { playerId: 'bob', alias: 'bobby' });
 * (await store.listFriends('alice', { offset: 0, limit: 10 }))?.total; // 1
 */
export class MemoryPlayerStore implements PlayerStore {
  /** Each player's record is the same object until the player changes (see `PlayerStore.sharesRecords`). */
  readonly sharesRecords = true;
  #entries = new Map<string, Entry>();
  #avatars = new Map<string, StoredAvatar>();
  #idempotency = new Map<string, IdempotentEntry>();
  #sequence = 0;
  /**
   * Each searched player's alias and display name in lower case, made by the first search that reads
   * it after a write, so searching converts each player once; a store nobody searches keeps none.
   */
  #searchKeys: Map<string, string> | undefined;
  readonly #listeners = new Set<(changed: ChangedPlayers) => void>();
  #now: () => number;

  /** @param options.now a clock (epoch ms), for tests. */
  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * Tells `listener` the ids of the players each write changes (see PlayerStore.watch). A subclass
   * that overrides a read is not watched (undefined): its reads may answer differently without a write.
   *
   * @example
   * const stop = store.watch((changed) => console.log('changed', changed));
   */
  watch(listener: (changed: ChangedPlayers) => void): (() => void) | undefined {
    const own = MemoryPlayerStore.prototype;
    const proto = Object.getPrototypeOf(this) as MemoryPlayerStore;
    const ownReads = proto.getPlayer === own.getPlayer && proto.listFriends === own.listFriends && proto.searchFriends === own.searchFriends && proto.getAvatar === own.getAvatar;
    if (!ownReads) return undefined;
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  async getPlayer(playerId: string): Promise<StoredPlayer | undefined> {
    return this.#entries.get(playerId)?.player;
  }

  async listFriends(playerId: string, page: PageRequest): Promise<PlayerSlice | undefined> {
    const entry = this.#entries.get(playerId);
    if (!entry) return undefined;
    const list = entry.friends ?? NO_FRIENDS;
    const ids = list.slice(page.offset, page.offset + page.limit);
    return { items: ids.map((id) => this.#entries.get(id)!.player), total: list.length, owner: entry.player };
  }

  async searchFriends(playerId: string, text: string, page: PageRequest): Promise<PlayerSlice | undefined> {
    const entry = this.#entries.get(playerId);
    if (!entry) return undefined;
    const list = entry.friends ?? NO_FRIENDS;
    const needle = text.toLowerCase();
    const keys = (this.#searchKeys ??= new Map());
    const exact = needle.includes('\u0000');
    const countLimit = page.countLimit ?? Infinity;
    const items: StoredPlayer[] = [];
    let total = 0;
    // A long scan gives the event loop a turn every SCAN_CHUNK players, going on over a copy of the ids
    // taken before the first turn (a friend deleted meanwhile is skipped).
    let ids = list;
    for (let i = 0; i < ids.length; i++) {
      if (i > 0 && i % SCAN_CHUNK === 0) {
        if (ids === list) ids = list.slice();
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const friend = this.#entries.get(ids[i]!);
      if (friend === undefined) continue;
      if (exact) {
        const p = friend.player;
        if (!p.alias.toLowerCase().includes(needle) && !(p.displayName?.toLowerCase().includes(needle) ?? false)) continue;
      } else {
        let key = keys.get(ids[i]!);
        if (key === undefined) keys.set(ids[i]!, (key = searchKey(friend.player)));
        if (!key.includes(needle)) continue;
      }
      if (total === countLimit) return { items, total, totalIsLowerBound: true, owner: entry.player };
      if (total >= page.offset && items.length < page.limit) items.push(friend.player);
      total++;
    }
    return { items, total, owner: entry.player };
  }

  async putPlayer(data: PlayerData, options: WriteOptions = {}): Promise<{ player: StoredPlayer; created: boolean }> {
    const current = this.#entries.get(data.playerId)?.player;
    this.#check(data.playerId, current, options.expect);
    const player = this.#write(data);
    if (this.#listeners.size > 0) this.#tell([data.playerId]);
    return { player, created: current === undefined };
  }

  async deletePlayer(playerId: string, options: WriteOptions = {}): Promise<boolean> {
    const entry = this.#entries.get(playerId);
    this.#check(playerId, entry?.player, options.expect);
    if (!entry) return false;
    const changed = [playerId];
    for (const ownerId of ownerList(entry.owners)) {
      changed.push(ownerId);
      const owner = this.#entries.get(ownerId);
      if (!owner?.friends) continue;
      const rest = owner.friends.filter((id) => id !== playerId);
      owner.friends = rest.length === 0 ? undefined : rest;
      this.#touch(owner);
    }
    for (const friendId of entry.friends ?? NO_FRIENDS) {
      const friend = this.#entries.get(friendId);
      if (friend) friend.owners = withoutOwner(friend.owners, playerId);
    }
    this.#entries.delete(playerId);
    this.#avatars.delete(playerId);
    for (const [key, entry] of this.#idempotency) if (key.startsWith(`${playerId}\n`) || entry.friendId === playerId) this.#idempotency.delete(key);
    this.#tell(changed);
    return true;
  }

  async createFriend(ownerId: string, data: PlayerData, options: WriteOptions = {}): Promise<FriendWrite> {
    const replay = this.#replay(ownerId, options);
    if (replay) return replay;
    const owner = this.#entries.get(ownerId);
    this.#check(ownerId, owner?.player, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    if (this.#entries.has(data.playerId)) throw new StoreError('conflict', `player "${data.playerId}" already exists`);
    const friend = this.#write(data);
    const linked = this.#link(owner, friend.playerId, options);
    if (this.#listeners.size > 0) this.#tell([ownerId, friend.playerId]);
    return { owner: linked, friend, replayed: false };
  }

  async addFriend(ownerId: string, friendId: string, options: WriteOptions = {}): Promise<FriendWrite> {
    const replay = this.#replay(ownerId, options);
    if (replay) return replay;
    const owner = this.#entries.get(ownerId);
    this.#check(ownerId, owner?.player, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    const friend = this.#entries.get(friendId);
    if (!friend) throw new StoreError('not-found', `no player "${friendId}"`);
    if (hasOwner(friend.owners, ownerId)) throw new StoreError('conflict', `"${friendId}" is already a friend of "${ownerId}"`);
    const linked = this.#link(owner, friendId, options);
    if (this.#listeners.size > 0) this.#tell([ownerId]);
    return { owner: linked, friend: friend.player, replayed: false };
  }

  async removeFriend(ownerId: string, friendId: string, options: WriteOptions = {}): Promise<StoredPlayer | undefined> {
    const owner = this.#entries.get(ownerId);
    this.#check(ownerId, owner?.player, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    const list = owner.friends;
    const index = list ? list.indexOf(friendId) : -1;
    if (!list || index < 0) return undefined;
    list.splice(index, 1);
    if (list.length === 0) owner.friends = undefined;
    const friend = this.#entries.get(friendId);
    if (friend) friend.owners = withoutOwner(friend.owners, ownerId);
    const touched = this.#touch(owner);
    if (this.#listeners.size > 0) this.#tell([ownerId]);
    return touched;
  }

  async changeFriends(ownerId: string, change: FriendsChange, options: WriteOptions = {}): Promise<{ owner: StoredPlayer; changed: string[] }> {
    const owner = this.#entries.get(ownerId);
    this.#check(ownerId, owner?.player, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    const adding = 'add' in change;
    const ids = adding ? change.add : change.remove;
    const missing = adding ? ids.filter((id) => !this.#entries.has(id)) : [];
    if (missing.length) throw new StoreError('not-found', `no player ${missing.map((id) => `"${id}"`).join(', ')}`);
    const listed = new Set(owner.friends);
    const changed = [...new Set(ids)].filter((id) => listed.has(id) !== adding);
    if (changed.length === 0) return { owner: owner.player, changed };
    if (adding) owner.friends = [...(owner.friends ?? NO_FRIENDS), ...changed];
    else {
      const gone = new Set(changed);
      const rest = owner.friends!.filter((id) => !gone.has(id));
      owner.friends = rest.length === 0 ? undefined : rest;
    }
    for (const id of changed) {
      const friend = this.#entries.get(id);
      if (friend) friend.owners = adding ? withOwner(friend.owners, ownerId) : withoutOwner(friend.owners, ownerId);
    }
    const touched = this.#touch(owner);
    if (this.#listeners.size > 0) this.#tell([ownerId]);
    return { owner: touched, changed };
  }

  async getAvatar(playerId: string): Promise<StoredAvatar | undefined> {
    return this.#avatars.get(playerId);
  }

  async putAvatar(playerId: string, bytes: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<StoredAvatar> {
    if (!this.#entries.has(playerId)) throw new StoreError('not-found', `no player "${playerId}"`);
    const current = this.#avatars.get(playerId);
    const expect = options.expect;
    if (expect?.revision !== undefined && current?.revision !== expect.revision) throw new StoreError('revision-mismatch', 'avatar revision changed');
    if (expect?.exists !== undefined && expect.exists !== (current !== undefined)) throw new StoreError('revision-mismatch', 'avatar existence differs');
    const avatar: StoredAvatar = { bytes: bytes.slice(), contentType, revision: this.#nextRevision(), modifiedAt: this.#now() };
    this.#avatars.set(playerId, avatar);
    if (this.#listeners.size > 0) this.#tell([playerId]);
    return avatar;
  }

  #check(playerId: string, current: StoredPlayer | undefined, expect: Expectation | undefined): void {
    if (!expect) return;
    if (expect.exists === true && !current) throw new StoreError('revision-mismatch', `player "${playerId}" does not exist`);
    if (expect.exists === false && current) throw new StoreError('revision-mismatch', `player "${playerId}" already exists`);
    if (expect.revision !== undefined && current?.revision !== expect.revision) {
      throw new StoreError('revision-mismatch', `player "${playerId}" has changed`);
    }
  }

  #replay(ownerId: string, options: WriteOptions): FriendWrite | undefined {
    if (options.idempotencyKey === undefined) return undefined;
    const entry = this.#idempotency.get(`${ownerId}\n${options.idempotencyKey}`);
    if (!entry) return undefined;
    if (entry.fingerprint !== (options.fingerprint ?? '')) {
      throw new StoreError('idempotency-mismatch', 'this Idempotency-Key was used with a different request');
    }
    const owner = this.#entries.get(ownerId)?.player;
    const friend = this.#entries.get(entry.friendId)?.player;
    if (!owner || !friend) throw new StoreError('not-found', 'the player of the first request no longer exists');
    return { owner, friend, replayed: true };
  }

  #link(owner: Entry, friendId: string, options: WriteOptions): StoredPlayer {
    const ownerId = owner.player.playerId;
    if (owner.friends) owner.friends.push(friendId);
    else owner.friends = [friendId];
    const friend = this.#entries.get(friendId)!;
    friend.owners = withOwner(friend.owners, ownerId);
    if (options.idempotencyKey !== undefined) {
      this.#idempotency.set(`${ownerId}\n${options.idempotencyKey}`, { fingerprint: options.fingerprint ?? '', friendId });
    }
    return this.#touch(owner);
  }

  /** Writes a player's record, keeping its lists when it exists. */
  #write(data: PlayerData): StoredPlayer {
    const player = stored(data, this.#nextRevision(), this.#now());
    const entry = this.#entries.get(data.playerId);
    if (!entry) this.#entries.set(data.playerId, { player, friends: undefined, owners: undefined });
    else {
      entry.player = player;
      this.#searchKeys?.delete(data.playerId);
    }
    return player;
  }

  /** A new revision of a player whose friend list changed. */
  #touch(entry: Entry): StoredPlayer {
    return (entry.player = stored(entry.player, this.#nextRevision(), this.#now()));
  }

  #nextRevision(): string {
    return String(++this.#sequence);
  }

  /**
   * Tells the watchers which players a write changed, once it is complete. Callers make the list only
   * when someone listens: a store nobody watches (seeding) makes none.
   */
  #tell(changed: ChangedPlayers): void {
    if (this.#listeners.size === 0) return;
    for (const listener of this.#listeners) listener(changed);
  }
}

/**
 * The stored record of `data`, built as one object literal per shape so every field is in-object (a
 * spread copy would allocate a second object and keep the fields out of line).
 */
function stored(data: PlayerData, revision: string, modifiedAt: number): StoredPlayer {
  const { playerId, alias, displayName, image } = data;
  if (image === undefined) {
    return displayName === undefined ? { playerId, alias, revision, modifiedAt } : { playerId, alias, displayName, revision, modifiedAt };
  }
  return displayName === undefined ? { playerId, alias, image, revision, modifiedAt } : { playerId, alias, displayName, image, revision, modifiedAt };
}
