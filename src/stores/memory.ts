// MemoryPlayerStore: the embedded default store, in one process's memory.
import type { PlayerData, StoredPlayer } from '../player/player.js';
import {
  StoreError,
  type ChangedPlayers,
  type Expectation,
  type FriendWrite,
  type PageRequest,
  type PlayerSlice,
  type PlayerStore,
  type StoredAvatar,
  type WriteOptions,
} from './contract.js';

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
  #players = new Map<string, StoredPlayer>();
  #friends = new Map<string, string[]>();
  #friendOf = new Map<string, Set<string>>();
  #avatars = new Map<string, StoredAvatar>();
  #idempotency = new Map<string, IdempotentEntry>();
  #sequence = 0;
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
    return this.#players.get(playerId);
  }

  async listFriends(playerId: string, page: PageRequest): Promise<PlayerSlice | undefined> {
    const list = this.#friends.get(playerId);
    if (!list) return undefined;
    const ids = list.slice(page.offset, page.offset + page.limit);
    return { items: ids.map((id) => this.#players.get(id)!), total: list.length };
  }

  async searchFriends(playerId: string, text: string, page: PageRequest): Promise<PlayerSlice | undefined> {
    const list = this.#friends.get(playerId);
    if (!list) return undefined;
    const needle = text.toLowerCase();
    const items: StoredPlayer[] = [];
    let total = 0;
    for (const id of list) {
      const p = this.#players.get(id)!;
      if (!p.alias.toLowerCase().includes(needle) && !(p.displayName?.toLowerCase().includes(needle) ?? false)) continue;
      if (total >= page.offset && items.length < page.limit) items.push(p);
      total++;
    }
    return { items, total };
  }

  async putPlayer(data: PlayerData, options: WriteOptions = {}): Promise<{ player: StoredPlayer; created: boolean }> {
    const current = this.#players.get(data.playerId);
    this.#check(data.playerId, current, options.expect);
    const player = this.#write(data);
    this.#tell([data.playerId]);
    return { player, created: current === undefined };
  }

  async deletePlayer(playerId: string, options: WriteOptions = {}): Promise<boolean> {
    const current = this.#players.get(playerId);
    this.#check(playerId, current, options.expect);
    if (!current) return false;
    const changed = [playerId];
    for (const ownerId of this.#friendOf.get(playerId) ?? []) {
      changed.push(ownerId);
      const list = this.#friends.get(ownerId);
      if (!list) continue;
      this.#friends.set(ownerId, list.filter((id) => id !== playerId));
      this.#touch(ownerId);
    }
    for (const friendId of this.#friends.get(playerId) ?? []) this.#friendOf.get(friendId)?.delete(playerId);
    this.#players.delete(playerId);
    this.#friends.delete(playerId);
    this.#friendOf.delete(playerId);
    this.#avatars.delete(playerId);
    for (const [key, entry] of this.#idempotency) if (key.startsWith(`${playerId}\n`) || entry.friendId === playerId) this.#idempotency.delete(key);
    this.#tell(changed);
    return true;
  }

  async createFriend(ownerId: string, data: PlayerData, options: WriteOptions = {}): Promise<FriendWrite> {
    const replay = this.#replay(ownerId, options);
    if (replay) return replay;
    const owner = this.#players.get(ownerId);
    this.#check(ownerId, owner, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    if (this.#players.has(data.playerId)) throw new StoreError('conflict', `player "${data.playerId}" already exists`);
    const friend = this.#write(data);
    const linked = this.#link(ownerId, friend.playerId, options);
    this.#tell([ownerId, friend.playerId]);
    return { owner: linked, friend, replayed: false };
  }

  async addFriend(ownerId: string, friendId: string, options: WriteOptions = {}): Promise<FriendWrite> {
    const replay = this.#replay(ownerId, options);
    if (replay) return replay;
    const owner = this.#players.get(ownerId);
    this.#check(ownerId, owner, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    const friend = this.#players.get(friendId);
    if (!friend) throw new StoreError('not-found', `no player "${friendId}"`);
    if (this.#friendOf.get(friendId)?.has(ownerId)) throw new StoreError('conflict', `"${friendId}" is already a friend of "${ownerId}"`);
    const linked = this.#link(ownerId, friendId, options);
    this.#tell([ownerId]);
    return { owner: linked, friend, replayed: false };
  }

  async removeFriend(ownerId: string, friendId: string, options: WriteOptions = {}): Promise<StoredPlayer | undefined> {
    const owner = this.#players.get(ownerId);
    this.#check(ownerId, owner, options.expect);
    if (!owner) throw new StoreError('not-found', `no player "${ownerId}"`);
    const list = this.#friends.get(ownerId)!;
    const index = list.indexOf(friendId);
    if (index < 0) return undefined;
    list.splice(index, 1);
    this.#friendOf.get(friendId)?.delete(ownerId);
    const touched = this.#touch(ownerId);
    this.#tell([ownerId]);
    return touched;
  }

  async getAvatar(playerId: string): Promise<StoredAvatar | undefined> {
    return this.#avatars.get(playerId);
  }

  async putAvatar(playerId: string, bytes: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<StoredAvatar> {
    if (!this.#players.has(playerId)) throw new StoreError('not-found', `no player "${playerId}"`);
    const current = this.#avatars.get(playerId);
    const expect = options.expect;
    if (expect?.revision !== undefined && current?.revision !== expect.revision) throw new StoreError('revision-mismatch', 'avatar revision changed');
    if (expect?.exists !== undefined && expect.exists !== (current !== undefined)) throw new StoreError('revision-mismatch', 'avatar existence differs');
    const avatar: StoredAvatar = { bytes: bytes.slice(), contentType, revision: this.#nextRevision(), modifiedAt: this.#now() };
    this.#avatars.set(playerId, avatar);
    this.#tell([playerId]);
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
    const owner = this.#players.get(ownerId);
    const friend = this.#players.get(entry.friendId);
    if (!owner || !friend) throw new StoreError('not-found', 'the player of the first request no longer exists');
    return { owner, friend, replayed: true };
  }

  #link(ownerId: string, friendId: string, options: WriteOptions): StoredPlayer {
    this.#friends.get(ownerId)!.push(friendId);
    let owners = this.#friendOf.get(friendId);
    if (!owners) this.#friendOf.set(friendId, (owners = new Set()));
    owners.add(ownerId);
    if (options.idempotencyKey !== undefined) {
      this.#idempotency.set(`${ownerId}\n${options.idempotencyKey}`, { fingerprint: options.fingerprint ?? '', friendId });
    }
    return this.#touch(ownerId);
  }

  #write(data: PlayerData): StoredPlayer {
    const player: StoredPlayer = { ...pick(data), revision: this.#nextRevision(), modifiedAt: this.#now() };
    this.#players.set(player.playerId, player);
    if (!this.#friends.has(player.playerId)) this.#friends.set(player.playerId, []);
    return player;
  }

  #touch(playerId: string): StoredPlayer {
    const player = { ...this.#players.get(playerId)!, revision: this.#nextRevision(), modifiedAt: this.#now() };
    this.#players.set(playerId, player);
    return player;
  }

  #nextRevision(): string {
    return String(++this.#sequence);
  }

  /** Tells the watchers which players a write changed, once it is complete. */
  #tell(changed: ChangedPlayers): void {
    for (const listener of this.#listeners) listener(changed);
  }
}

function pick(data: PlayerData): PlayerData {
  const out: PlayerData = { playerId: data.playerId, alias: data.alias };
  if (data.displayName !== undefined) out.displayName = data.displayName;
  if (data.image !== undefined) out.image = data.image;
  return out;
}
