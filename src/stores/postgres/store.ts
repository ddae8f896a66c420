// PostgresPlayerStore: the PlayerStore contract on PostgreSQL, for several stateless instances on one database.
import pg, { type Pool, type PoolClient } from 'pg';
import type { PlayerData, StoredPlayer } from '../../player/player.js';
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
} from '../contract.js';
import { ChangeFeed } from './change-feed.js';
import { guardPool } from './connections.js';
import { changeFriendsIn, friendsChangeStatements, type FriendsChangeStatements } from './friends-change.js';
import { ListCompactor } from './list-gaps.js';
import { appendFailure, diagnose } from './diagnose.js';
import { migrate } from './migrations.js';
import { PostgresRateLimitCounter } from './rate-limit-counter.js';
import type { RateLimitCounter } from '../../core/service/rate-limit.js';
import type { PostgresPlayerStoreOptions } from './options.js';
import { statementNames, statements, toStoredAvatar, toStoredPlayer, type PlayerRow, type Statements } from './statements.js';
import { queryOrStoreError, Rollback, toStoreError, transactionOrRollback } from './transaction.js';
import { likeContains, revisionParam, toSlice, type SliceRow } from './rows.js';

/** The statements run as named prepared statements (search stays unnamed: planned for each pattern). */
const PREPARED = ['getPlayer', 'listFriends', 'getAvatar', 'insertPlayer', 'upsertPlayer', 'updatePlayer', 'createAndLink', 'linkExisting', 'findKey'] as const;
type PreparedStatement = (typeof PREPARED)[number];

/**
 * The PlayerStore on PostgreSQL (node-postgres). Every page of friends is one index range scan of
 * `(owner, position)` and the total is a column, so page 10,000 costs what page 1 costs; search uses
 * pg_trgm indexes. Conditional writes are one `UPDATE ... WHERE revision = $n` compare-and-set inside
 * the write's transaction; idempotency keys are saved in that same transaction. An unreachable database
 * is `StoreError('unavailable')` (503 with Retry-After); the pool reconnects when the database is back.
 *
 * @example
 * import { PostgresPlayerStore } from 'player-hypermedia/postgres';
 * const store = new PostgresPlayerStore({ connectionString: process.env.DATABASE_URL });
 * await store.migrate();
 * const service = createPlayerService({ baseUrl: 'https://api.example.com', store });
 */
export class PostgresPlayerStore implements PlayerStore {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #sql: Statements;
  readonly #listSql: FriendsChangeStatements;
  readonly #feed: ChangeFeed | undefined;
  readonly #compactor: ListCompactor;
  readonly #names: Record<PreparedStatement, string>;

  constructor(options: PostgresPlayerStoreOptions = {}) {
    this.#ownsPool = options.pool === undefined;
    this.#pool =
      options.pool ??
      new pg.Pool({
        connectionString: options.connectionString,
        max: 10,
        connectionTimeoutMillis: 3000,
        idleTimeoutMillis: 30_000,
        ...options.poolConfig,
      });
    // An idle client whose server went away emits 'error' on the pool; without a listener Node would
    // exit. A pool given by the caller is the caller's to listen to (unless onError is given). Every
    // client gets a listener of its own as it is created (connections.ts), whoever owns the pool.
    const onError = options.onError ?? (() => undefined);
    if (this.#ownsPool || options.onError) this.#pool.on('error', onError);
    guardPool(this.#pool, () => undefined);
    this.#schema = options.schema ?? 'public';
    this.#sql = statements(this.#schema);
    this.#listSql = friendsChangeStatements(this.#schema);
    this.#names = statementNames(PREPARED, this.#schema);
    this.#compactor = new ListCompactor(this.#pool, this.#sql);
    if (options.watchChanges ?? this.#ownsPool) this.#feed = new ChangeFeed(this.#pool, this.#schema, options.changeFeed);
  }

  /**
   * Tells `listener` the players each committed write changes, here and (LISTEN/NOTIFY) on every other
   * instance; undefined with `watchChanges: false`.
   * @example
   * const stop = store.watch((changed) => console.log(changed)); // ['alice'], 'all' or 'unknown'
   */
  watch(listener: (changed: ChangedPlayers) => void): (() => void) | undefined {
    return this.#feed?.add(listener);
  }

  /** The schema holding the store's tables. */
  get schema(): string {
    return this.#schema;
  }

  /**
   * Creates or upgrades the schema (idempotent; safe when several instances start at once).
   *
   * @example
   * await store.migrate(); // [1, 2] on an empty database, [] afterwards
   */
  async migrate(): Promise<number[]> {
    try {
      return await migrate(this.#pool, this.#schema);
    } catch (error) {
      throw toStoreError(error);
    }
  }

  /**
   * Ends the pool when the store created it.
   *
   * @example
   * await store.close();
   */
  async close(): Promise<void> {
    this.#feed?.close();
    await this.#compactor.settle();
    if (this.#ownsPool) await this.#pool.end();
  }

  /**
   * Deletes idempotency keys older than `ageMs`, returning how many; run it from a scheduled job.
   *
   * @example
   * await store.pruneIdempotencyKeys(24 * 3600 * 1000);
   */
  async pruneIdempotencyKeys(ageMs: number): Promise<number> {
    return (await this.#query(this.#sql.pruneKeys, [ageMs])).rowCount ?? 0;
  }

  /**
   * A rate-limit counter on this store's database, so every instance shares each client's count (the
   * service's `rateLimit.counter`). Needs migration 5 (`migrate()`).
   *
   * @example
   * createPlayerService({ baseUrl, store, rateLimit: { limit: 600, counter: store.rateLimitCounter() } });
   */
  rateLimitCounter(): RateLimitCounter {
    return new PostgresRateLimitCounter(this.#pool, this.#schema);
  }

  /** The pool's connections (for /metrics): open, idle, queries waiting for one, and the most allowed. */
  poolStats(): { total: number; idle: number; waiting: number; max: number } {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount, max: this.#pool.options.max ?? 10 };
  }

  async ping(): Promise<void> {
    await this.#query('SELECT 1', []);
  }

  getPlayer(playerId: string): Promise<StoredPlayer | undefined> {
    return this.#prepared<PlayerRow>('getPlayer', [playerId]).then(({ rows }) => rows[0] && toStoredPlayer(rows[0]));
  }

  listFriends(playerId: string, page: PageRequest): Promise<PlayerSlice | undefined> {
    return this.#prepared<SliceRow>('listFriends', [playerId, page.offset, page.limit]).then(({ rows }) => toSlice(rows));
  }

  async searchFriends(playerId: string, text: string, page: PageRequest): Promise<PlayerSlice | undefined> {
    // Unnamed statement: planned with the actual pattern each time, so pg_trgm is used when it pays. One match past countLimit is read.
    const { rows } = await this.#query<SliceRow>(this.#sql.searchFriends, [playerId, likeContains(text), page.offset, page.limit, page.countLimit === undefined ? null : page.countLimit + 1]);
    return toSlice(rows, page.countLimit);
  }

  async putPlayer(data: PlayerData, options: WriteOptions = {}): Promise<{ player: StoredPlayer; created: boolean }> {
    const expect = options.expect ?? {};
    const values = [data.playerId, data.alias, data.displayName ?? null, data.image ?? null];
    if (expect.exists === false) {
      const { rows } = expect.revision === undefined ? await this.#prepared<PlayerRow>('insertPlayer', values) : { rows: [] };
      if (!rows[0]) throw new StoreError('revision-mismatch', `player "${data.playerId}" already exists`);
      return this.#changed([data.playerId], { player: toStoredPlayer(rows[0]), created: true });
    }
    if (expect.revision === undefined && expect.exists === undefined) {
      const { rows } = await this.#prepared<PlayerRow & { created: boolean }>('upsertPlayer', values);
      return this.#changed([data.playerId], { player: toStoredPlayer(rows[0]!), created: rows[0]!.created });
    }
    const { rows } = await this.#prepared<PlayerRow>('updatePlayer', [...values, revisionParam(expect.revision)]);
    if (!rows[0]) throw new StoreError('revision-mismatch', `player "${data.playerId}" has changed or does not exist`);
    return this.#changed([data.playerId], { player: toStoredPlayer(rows[0]), created: false });
  }

  async deletePlayer(playerId: string, options: WriteOptions = {}): Promise<boolean> {
    const expect = options.expect ?? {};
    if (expect.exists === false) {
      await diagnose(this.#pool, this.#sql.revisionOf, playerId, expect);
      return false;
    }
    // The owners whose lists it left changed too (unknown here without another query): 'all'.
    const deleted = await this.#transaction(async (c) => {
      await c.query(this.#sql.lockForDelete, [playerId]);
      const { rows } = await c.query(this.#sql.deletePlayer, [playerId, revisionParam(expect.revision)]);
      if (!rows[0]) {
        if (expect.revision !== undefined || expect.exists === true) throw new StoreError('revision-mismatch', `player "${playerId}" has changed`);
        return false;
      }
      return (await c.query<{ owner: string; gaps: number }>(this.#sql.unlinkEverywhere, [playerId])).rows;
    });
    if (!deleted) return false;
    for (const { owner, gaps } of deleted) this.#compactor.consider(owner, gaps);
    return this.#changed('all', true);
  }

  async createFriend(ownerId: string, data: PlayerData, options: WriteOptions = {}): Promise<FriendWrite> {
    const values = [data.alias, data.displayName ?? null, data.image ?? null];
    return this.#linkWrite(ownerId, data.playerId, options, 'createAndLink', values);
  }

  async addFriend(ownerId: string, friendId: string, options: WriteOptions = {}): Promise<FriendWrite> {
    return this.#linkWrite(ownerId, friendId, options, 'linkExisting', []);
  }

  async removeFriend(ownerId: string, friendId: string, options: WriteOptions = {}): Promise<StoredPlayer | undefined> {
    const expect = options.expect ?? {};
    if (expect.exists === false) await diagnose(this.#pool, this.#sql.revisionOf, ownerId, expect); // throws: the owner must exist
    const removed = await this.#transaction(async (c) => {
      const owner = await c.query<PlayerRow>(this.#sql.touchOwnerIfFriend, [ownerId, revisionParam(expect.revision), friendId]);
      if (!owner.rows[0]) {
        await diagnose(c, this.#sql.revisionOf, ownerId, expect);
        return undefined; // the owner is as expected: the friend is not on its list
      }
      const gone = await c.query<{ gaps: number }>(this.#sql.unlink, [ownerId, friendId]);
      if (!gone.rows[0]) throw new Rollback(undefined);
      return { owner: toStoredPlayer(owner.rows[0]), gaps: gone.rows[0].gaps };
    });
    if (!removed) return undefined;
    this.#compactor.consider(ownerId, removed.gaps);
    return this.#changed([ownerId], removed.owner);
  }

  async changeFriends(ownerId: string, change: FriendsChange, options: WriteOptions = {}): Promise<{ owner: StoredPlayer; changed: string[] }> {
    const done = await this.#transaction((c) => changeFriendsIn(c, this.#listSql, ownerId, change, options.expect ?? {}));
    if (done.changed.length === 0) return { owner: done.owner, changed: [] };
    if (done.gaps > 0) this.#compactor.consider(ownerId, done.gaps);
    return this.#changed([ownerId], { owner: done.owner, changed: done.changed });
  }

  async getAvatar(playerId: string): Promise<StoredAvatar | undefined> {
    const { rows } = await this.#prepared<Parameters<typeof toStoredAvatar>[0]>('getAvatar', [playerId]);
    return rows[0] && toStoredAvatar(rows[0]);
  }

  async putAvatar(playerId: string, bytes: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<StoredAvatar> {
    const expect = options.expect ?? {};
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let statement = this.#sql.upsertAvatar;
    const values: unknown[] = [playerId, data, contentType];
    if (expect.exists === false) statement = this.#sql.insertAvatar;
    else if (expect.revision !== undefined || expect.exists === true) {
      statement = this.#sql.updateAvatar;
      values.push(revisionParam(expect.revision));
    }
    const { rows } =
      expect.exists === false && expect.revision !== undefined
        ? { rows: [] }
        : await this.#query<{ revision: string; modified_ms: number }>(statement, values);
    if (!rows[0]) {
      const player = await this.#query(this.#sql.revisionOf, [playerId]);
      if (!player.rows[0]) throw new StoreError('not-found', `no player "${playerId}"`);
      throw new StoreError('revision-mismatch', 'avatar revision or existence differs');
    }
    return this.#changed([playerId], { bytes: bytes.slice(), contentType, revision: rows[0].revision, modifiedAt: rows[0].modified_ms });
  }

  /**
   * A friend-list append (createAndLink or linkExisting): replay, then one statement that updates the
   * owner (the compare-and-set), creates or reads the friend, links it and saves the key, atomically.
   */
  async #linkWrite(ownerId: string, friendId: string, options: WriteOptions, statement: 'createAndLink' | 'linkExisting', values: unknown[]): Promise<FriendWrite> {
    const replay = await this.#replay(ownerId, options);
    if (replay) return replay;
    const expect = options.expect ?? {};
    try {
      if (expect.exists === false) await diagnose(this.#pool, this.#sql.revisionOf, ownerId, expect);
      const params = [ownerId, revisionParam(expect.revision), friendId, ...values, options.idempotencyKey ?? null, options.fingerprint ?? ''];
      const { rows } = await this.#prepared<{ owner: PlayerRow; friend: PlayerRow }>(statement, params).catch((error: unknown) => {
        throw appendFailure(error, ownerId, friendId);
      });
      if (!rows[0]) {
        await diagnose(this.#pool, this.#sql.revisionOf, ownerId, expect);
        throw new StoreError('revision-mismatch', `player "${ownerId}" has changed`);
      }
      return this.#changed([ownerId, friendId], { owner: toStoredPlayer(rows[0].owner), friend: toStoredPlayer(rows[0].friend), replayed: false });
    } catch (error) {
      // A racing request with the same key won: answer as its replay (or its mismatch).
      const again = error instanceof StoreError && error.code !== 'unavailable' ? await this.#replay(ownerId, options) : undefined;
      if (again) return again;
      throw error;
    }
  }

  async #replay(ownerId: string, options: WriteOptions): Promise<FriendWrite | undefined> {
    if (options.idempotencyKey === undefined) return undefined;
    const { rows } = await this.#prepared<{ fingerprint: string; friend: string }>('findKey', [ownerId, options.idempotencyKey]);
    if (!rows[0]) return undefined;
    if (rows[0].fingerprint !== (options.fingerprint ?? '')) {
      throw new StoreError('idempotency-mismatch', 'this Idempotency-Key was used with a different request');
    }
    const [owner, friend] = await Promise.all([this.getPlayer(ownerId), this.getPlayer(rows[0].friend)]);
    if (!owner || !friend) throw new StoreError('not-found', 'the player of the first request no longer exists');
    return { owner, friend, replayed: true };
  }

  /** Tells the watchers of a committed write of this instance (its NOTIFY reaches them again, later). */
  #changed<T>(changed: ChangedPlayers, value: T): T {
    this.#feed?.tell(changed);
    return value;
  }

  #query<R extends object = Record<string, unknown>>(text: string, values: unknown[]) {
    return queryOrStoreError<R>(this.#pool, text, values);
  }

  /**
   * One of the store's statements as a named prepared statement: parsed and planned once per pooled
   * connection, then only bound and executed (an unnamed one sends and parses its whole text each time).
   */
  #prepared<R extends object = Record<string, unknown>>(key: PreparedStatement, values: unknown[]) {
    return queryOrStoreError<R>(this.#pool, this.#sql[key], values, this.#names[key]);
  }

  #transaction<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    return transactionOrRollback(this.#pool, work);
  }
}
