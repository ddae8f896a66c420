// The Player API's names for what any store does: getPlayer, listFriends, addFriend... on the player type.
import type { Store, PageRequest, Slice, WriteOptions, MembersChange, StoredMedia } from '../stores/contract.js';
import { MemoryStore } from '../stores/memory.js';
import { playerApi } from './api.js';
import type { PlayerData, StoredPlayer } from './player.js';

const PLAYER = playerApi.type('player');
const FRIENDS = PLAYER.relation('friends')!;

/**
 * One slice of a friend list, with the list's total length and its owner (see `Slice`).
 *
 * @example
 * const slice: PlayerSlice = { items: [], total: 0 };
 */
export interface PlayerSlice extends Slice {
  items: StoredPlayer[];
  owner?: StoredPlayer;
}

/**
 * The result of adding a friend: the owner after the write, the friend, and whether this was a replay
 * of an earlier request with the same idempotency key (nothing written).
 *
 * @example
 * const { owner, friend, replayed } = await store.addFriend('alice', 'bob');
 */
export interface FriendWrite {
  owner: StoredPlayer;
  friend: StoredPlayer;
  replayed: boolean;
}

/**
 * The Player API's methods on a store: each is the store's generic method on the player type and its
 * friends relation (`getPlayer(id)` is `get(playerType, id)`), an uploaded avatar is the media named
 * `avatar`. What tests, benchmarks and the demo data use; the service itself calls the generic methods.
 *
 * @example
 * const store = new MemoryPlayerStore();
 * await store.putPlayer({ playerId: 'alice', alias: 'ali' });
 * (await store.listFriends('alice', { offset: 0, limit: 10 }))?.total; // 0
 */
export interface PlayerStoreMethods {
  getPlayer(playerId: string): Promise<StoredPlayer | undefined>;
  putPlayer(data: PlayerData, options?: WriteOptions): Promise<{ player: StoredPlayer; created: boolean }>;
  deletePlayer(playerId: string, options?: WriteOptions): Promise<boolean>;
  listFriends(playerId: string, page: PageRequest): Promise<PlayerSlice | undefined>;
  searchFriends(playerId: string, text: string, page: PageRequest): Promise<PlayerSlice | undefined>;
  createFriend(ownerId: string, data: PlayerData, options?: WriteOptions): Promise<FriendWrite>;
  addFriend(ownerId: string, friendId: string, options?: WriteOptions): Promise<FriendWrite>;
  removeFriend(ownerId: string, friendId: string, options?: WriteOptions): Promise<StoredPlayer | undefined>;
  changeFriends(ownerId: string, change: MembersChange, options?: WriteOptions): Promise<{ owner: StoredPlayer; changed: string[] }>;
  getAvatar(playerId: string): Promise<StoredMedia | undefined>;
  putAvatar(playerId: string, bytes: Uint8Array, contentType: string, options?: WriteOptions): Promise<StoredMedia>;
}

/**
 * A store with the Player API's methods.
 *
 * @example
 * const store: PlayerStore = new MemoryPlayerStore();
 */
export type PlayerStore = Store & PlayerStoreMethods;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type StoreClass = abstract new (...args: any[]) => Store;

/**
 * A store class with the Player API's methods added (`PlayerStoreMethods`), each calling the
 * generic one. `MemoryPlayerStore` and `PostgresPlayerStore` are made with it.
 *
 * @example
 * class MyPlayerStore extends withPlayerMethods(MyStore) {}
 */
export function withPlayerMethods<T extends StoreClass>(Base: T) {
  abstract class WithPlayerMethods extends Base implements PlayerStoreMethods {
    async getPlayer(playerId: string): Promise<StoredPlayer | undefined> {
      return (await this.get(PLAYER, playerId)) as StoredPlayer | undefined;
    }
    async putPlayer(data: PlayerData, options?: WriteOptions): Promise<{ player: StoredPlayer; created: boolean }> {
      const { item, created } = await this.put(PLAYER, data as unknown as Record<string, unknown>, options);
      return { player: item as StoredPlayer, created };
    }
    deletePlayer(playerId: string, options?: WriteOptions): Promise<boolean> {
      return this.delete(PLAYER, playerId, options);
    }
    async listFriends(playerId: string, page: PageRequest): Promise<PlayerSlice | undefined> {
      return (await this.list(FRIENDS, playerId, page)) as PlayerSlice | undefined;
    }
    async searchFriends(playerId: string, text: string, page: PageRequest): Promise<PlayerSlice | undefined> {
      return (await this.search(FRIENDS, playerId, text, page)) as PlayerSlice | undefined;
    }
    async createFriend(ownerId: string, data: PlayerData, options?: WriteOptions): Promise<FriendWrite> {
      const { owner, member, replayed } = await this.createMember(FRIENDS, ownerId, data as unknown as Record<string, unknown>, options);
      return { owner: owner as StoredPlayer, friend: member as StoredPlayer, replayed };
    }
    async addFriend(ownerId: string, friendId: string, options?: WriteOptions): Promise<FriendWrite> {
      const { owner, member, replayed } = await this.addMember(FRIENDS, ownerId, friendId, options);
      return { owner: owner as StoredPlayer, friend: member as StoredPlayer, replayed };
    }
    async removeFriend(ownerId: string, friendId: string, options?: WriteOptions): Promise<StoredPlayer | undefined> {
      return (await this.removeMember(FRIENDS, ownerId, friendId, options)) as StoredPlayer | undefined;
    }
    async changeFriends(ownerId: string, change: MembersChange, options?: WriteOptions): Promise<{ owner: StoredPlayer; changed: string[] }> {
      if (!this.changeMembers) throw new TypeError('this store does not change several members at once');
      const { owner, changed } = await this.changeMembers(FRIENDS, ownerId, change, options);
      return { owner: owner as StoredPlayer, changed };
    }
    async getAvatar(playerId: string): Promise<StoredMedia | undefined> {
      return this.getMedia?.(PLAYER, playerId, 'avatar');
    }
    putAvatar(playerId: string, bytes: Uint8Array, contentType: string, options?: WriteOptions): Promise<StoredMedia> {
      if (!this.putMedia) throw new TypeError('this store keeps no media');
      return this.putMedia(PLAYER, playerId, 'avatar', bytes, contentType, options);
    }
  }
  return WithPlayerMethods;
}

/**
 * The embedded default store with the Player API's methods (`PlayerStoreMethods`): a `MemoryStore`
 * that also answers `getPlayer`, `listFriends`, `addFriend`...
 *
 * @example
 * import { MemoryPlayerStore, seedDemoData } from 'player-hypermedia';
 * const store = new MemoryPlayerStore();
 * await seedDemoData(store);
 */
export class MemoryPlayerStore extends withPlayerMethods(MemoryStore) {}
