// The storage contract: what any store (memory, PostgreSQL, yours) must do, with compare-and-set writes.
import type { PlayerData, StoredPlayer } from '../player/player.js';

/**
 * Which slice of a list to read: `limit` items after skipping `offset`. A store answers in
 * O(limit), not O(length of the list), for friend lists.
 *
 * @example
 * const firstPage: PageRequest = { offset: 0, limit: 10 };
 */
export interface PageRequest {
  offset: number;
  limit: number;
  /**
   * For searches: the store may stop counting matches past this many (the service passes at least
   * `offset + limit + 1`, so whether a next page exists is still known). A store that stops sets
   * `total` to `countLimit` and `totalIsLowerBound`; one that ignores it counts them all.
   */
  countLimit?: number;
}

/**
 * One slice of a list of players, with the total length of the whole list.
 *
 * @example
 * const slice: PlayerSlice = { items: [], total: 0 };
 */
export interface PlayerSlice {
  items: StoredPlayer[];
  total: number;
  /** True when the store stopped counting at `countLimit`: the list holds more than `total`. */
  totalIsLowerBound?: boolean;
  /**
   * The list's owner as read with the slice, when the store has it at no extra cost (the built-in
   * stores do): the service then reads nothing more for a page, and the page and its owner agree.
   */
  owner?: StoredPlayer;
}

/**
 * The condition of a compare-and-set write. `revision`: the player must currently have exactly this
 * revision. `exists: false`: the player must not exist yet. `exists: true`: it must exist (any revision).
 * Omitted: no condition. The check and the write are one atomic step in the store.
 *
 * @example
 * await store.putPlayer(data, { revision: '41' }); // throws StoreError('revision-mismatch') if it is now '42'
 */
export interface Expectation {
  revision?: string;
  exists?: boolean;
}

/**
 * Options of a write that may be retried with an `Idempotency-Key`: the same key and the same request
 * fingerprint replay the first result; the same key with another fingerprint is an error. A replay is
 * decided before `expect` is checked (the first request changed the state its preconditions named), so
 * a retry replays even when its preconditions no longer hold.
 *
 * @example
 * await store.createFriend('alice', data, { idempotencyKey: 'k-1', fingerprint: 'sha256-of-body' });
 */
export interface WriteOptions {
  expect?: Expectation;
  idempotencyKey?: string;
  fingerprint?: string;
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
 * Players to add to a friend list, or to remove from it, in one step (`PlayerStore.changeFriends`).
 *
 * @example
 * const change: FriendsChange = { add: ['bob', 'cy'] };
 */
export type FriendsChange = { readonly add: readonly string[] } | { readonly remove: readonly string[] };

/**
 * A stored avatar image.
 *
 * @example
 * const avatar: StoredAvatar = { bytes: new Uint8Array(), contentType: 'image/png', revision: '3', modifiedAt: 0 };
 */
export interface StoredAvatar {
  bytes: Uint8Array;
  contentType: string;
  revision: string;
  modifiedAt: number;
}

/**
 * Why a store refused a write or a read:
 * - `not-found`: the player (or owner) does not exist;
 * - `revision-mismatch`: the compare-and-set condition did not hold;
 * - `conflict`: the write contradicts the current state (e.g. a duplicate friend, an id already taken);
 * - `idempotency-mismatch`: an idempotency key reused with a different request;
 * - `unavailable`: the backing database cannot be reached right now;
 * - `busy`: the database is reachable but every connection stayed in use past the wait allowed
 *   (the pool is saturated): try again in a moment.
 *
 * @example
 * if (error instanceof StoreError && error.code === 'not-found') return null;
 */
export type StoreErrorCode = 'not-found' | 'revision-mismatch' | 'conflict' | 'idempotency-mismatch' | 'unavailable' | 'busy';

/**
 * The one error type stores throw; the service turns each code into its HTTP status.
 *
 * @example
 * throw new StoreError('not-found', 'no player "zed"');
 */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}

/**
 * A store's promise about time, for a store whose notices travel (a database's change feed): every
 * change committed before `trustUntil - staleness` has been told, so what was kept may be trusted
 * until `trustUntil` (epoch ms, `Date.now()`'s clock). Once a store has told a lease, kept answers
 * are not used past its `trustUntil` until the next lease: a feed lost without a sign (a connection
 * black-holed by a NAT) stops being trusted on its own. A store that tells no lease is trusted while
 * it tells changes (an in-process store hears every write).
 *
 * @example
 * const lease: ChangeLease = { trustUntil: Date.now() + 2000 };
 */
export interface ChangeLease {
  readonly trustUntil: number;
}

/**
 * What a store's change notice names: the ids of the players whose state changed, `'all'` (anything may
 * have changed; the store tells again from now on), `'unknown'` (the store can no longer tell, e.g.
 * its change feed from the database is down: keep nothing until its next `'all'`), or a lease (see
 * `ChangeLease`: until when what was told is known to be complete).
 *
 * @example
 * const changed: ChangedPlayers = ['alice', 'bob'];
 */
export type ChangedPlayers = readonly string[] | 'all' | 'unknown' | ChangeLease;

/**
 * The storage contract of the Player API. All methods are async so that a database can implement them;
 * every write is atomic, and every conditional write is a compare-and-set on the player's revision.
 * Revisions change on every change of a player or of its friend list and are never reused, even when an
 * id is deleted and created again.
 *
 * @example
 * const store: PlayerStore = new MemoryPlayerStore();
 * await store.putPlayer({ playerId: 'alice', alias: 'ali' });
 * const page = await store.listFriends('alice', { offset: 0, limit: 10 });
 */
export interface PlayerStore {
  /** The player, or undefined. */
  getPlayer(playerId: string): Promise<StoredPlayer | undefined>;
  /**
   * Resolves when the store can answer now (a database reachable), else rejects (StoreError
   * 'unavailable' or 'busy'). Optional: /readyz reads a player instead.
   */
  ping?(): Promise<void>;
  /** One slice of the player's friends in list order, with the list's length; undefined for an unknown player. */
  listFriends(playerId: string, page: PageRequest): Promise<PlayerSlice | undefined>;
  /** Friends whose alias or displayName contains `text`, case-insensitively, in list order; undefined for an unknown player. */
  searchFriends(playerId: string, text: string, page: PageRequest): Promise<PlayerSlice | undefined>;
  /** Replace or create a player; `created` tells which. */
  putPlayer(data: PlayerData, options?: WriteOptions): Promise<{ player: StoredPlayer; created: boolean }>;
  /** Delete a player (and remove it from every friend list); false when it did not exist. */
  deletePlayer(playerId: string, options?: WriteOptions): Promise<boolean>;
  /** Create a new player and append it to the owner's friends, atomically. */
  createFriend(ownerId: string, data: PlayerData, options?: WriteOptions): Promise<FriendWrite>;
  /** Append an existing player to the owner's friends. */
  addFriend(ownerId: string, friendId: string, options?: WriteOptions): Promise<FriendWrite>;
  /** Remove a friend from the owner's list; the owner after the write, or undefined when it was not on the list. */
  removeFriend(ownerId: string, friendId: string, options?: WriteOptions): Promise<StoredPlayer | undefined>;
  /**
   * Optional: adds (`add`) or removes (`remove`) several players of the owner's list in one atomic step
   * (readers see the list before or after, never between; a failure writes nothing). A player already
   * listed is not added again, one not listed is not removed; every player added must exist, else
   * StoreError('not-found') naming the missing ones. `expect` is the owner's condition before the change.
   * Returns the owner after the change (unchanged, same revision, when nothing changed) and the ids
   * added or removed, in the order given. Without it, the service changes one player at a time and
   * undoes what it did when one fails: correct in the end, not atomic for readers.
   */
  changeFriends?(ownerId: string, change: FriendsChange, options?: WriteOptions): Promise<{ owner: StoredPlayer; changed: string[] }>;
  /** The uploaded avatar, or undefined. */
  getAvatar(playerId: string): Promise<StoredAvatar | undefined>;
  /** Store an uploaded avatar for an existing player. */
  putAvatar(playerId: string, bytes: Uint8Array, contentType: string, options?: WriteOptions): Promise<StoredAvatar>;
  /**
   * Optional: tells `listener` about every change of what the reads return, with the ids of the
   * players whose state changed (a player's fields or avatar, or its friend list), or `'all'` when the
   * store cannot say which; returns a function that stops telling. A store that cannot promise to
   * tell about every change (another process may change the data and it hears nothing of it) leaves it
   * out, or returns undefined. The service keeps complete GET answers only with a store that tells
   * (see `memoizeAnswers`), and forgets those that show a changed player.
   */
  watch?(listener: (changed: ChangedPlayers) => void): (() => void) | undefined;
  /**
   * Optional: true when the store hands out the same record object for a player until the player
   * changes (the memory store), so that what is built from a record can be kept with it (a listed
   * player's document). Leave it out when records are made for each read (a database's rows).
   */
  readonly sharesRecords?: boolean;
}
