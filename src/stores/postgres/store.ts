// PostgresStore: the storage contract on PostgreSQL for any declared type, for several stateless instances on one database.
import type { Pool } from 'pg';
import type { Api, Relation, ResourceType } from '../../core/model/api.js';
import type { StoredItem } from '../../core/model/documents.js';
import {
  StoreError,
  type Changes,
  type ChangeListener,
  type CurrentRecords,
  type MemberWrite,
  type MembersChange,
  type PageRequest,
  type Slice,
  type Store,
  type StoredMedia,
  type WriteOptions,
  itemKey,
} from '../contract.js';
import { ChangeFeed, writing } from './change-feed.js';
import type { WriteTicket } from './write-echoes.js';
import { ReadRecords } from './read-records.js';
import { openPool } from './connections.js';
import { writeMedia } from './media.js';
import { changeMembersIn, membersChangeStatements, removeMemberIn, type MembersChangeStatements } from './members-change.js';
import { ListCompactor } from './list-gaps.js';
import { diagnose } from './diagnose.js';
import { appendMember, type AppendContext, type AppendStatement } from './list-append.js';
import { migrate } from './migrate.js';
import { putRow, type WrittenRow } from './item-put.js';
import { itemUpdates } from './item-updates.js';
import { Together } from './together.js';
import { listAppends, type AppendedRow } from './appends-together.js';
import { PostgresRateLimitCounter } from './rate-limit-counter.js';
import type { RateLimitCounter } from '../../core/service/rate-limit.js';
import type { PostgresStoreOptions } from './options.js';
import { searchStatement, statementNames, statements, type Statements } from './statements.js';

import { queryOrStoreError, toStoreError, transactionOrRollback } from './transaction.js';
import { itemData, itemFields, likeContains, revisionParam, toSlice, toStoredItem, toStoredMedia, writtenItem, type ItemRow, type SliceRow } from './rows.js';

/** The statements run as named prepared statements (searches stay unnamed: planned for each pattern). */
const PREPARED = ['getItem', 'listMembers', 'getMedia', 'insertItem', 'upsertItem', 'updateItem', 'createAndLink', 'linkExisting', 'findKey'] as const;
type PreparedStatement = (typeof PREPARED)[number];

/**
 * The storage contract on PostgreSQL (node-postgres), for the items of any declared type. Every page
 * of a list is one index range scan of `(list, position)` and the total is a column, so page 10,000
 * costs what page 1 costs; search uses pg_trgm indexes made by `migrate()` for each searched field.
 * Conditional writes are one `UPDATE ... WHERE revision = $n` compare-and-set inside the write's
 * transaction; idempotency keys are saved in that same transaction; every write that changes a list
 * locks its owner's row first. An unreachable database is `StoreError('unavailable')` (503 with
 * Retry-After); the pool reconnects when the database is back. Changes are told to every instance
 * through LISTEN/NOTIFY (`watch`).
 *
 * @example
 * import { PostgresStore } from 'player-hypermedia/postgres';
 * const store = new PostgresStore({ api, connectionString: process.env.DATABASE_URL });
 * await store.migrate();
 * const service = createService({ api, baseUrl: 'https://api.example.com', store });
 */
export class PostgresStore implements Store {
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #schema: string;
  readonly #api: Api | undefined;
  readonly #sql: Statements;
  readonly #listSql: MembersChangeStatements;
  readonly #searches = new Map<Relation, string>();
  readonly #feed: ChangeFeed | undefined;
  /** The records made of recent page reads, by item and revision (see ReadRecords). */
  readonly #read = new ReadRecords();
  readonly #compactor: ListCompactor;
  readonly #names: Record<PreparedStatement, string>;
  readonly #updates: Together<WrittenRow>;
  readonly #appendContext: AppendContext;

  constructor(options: PostgresStoreOptions = {}) {
    this.#ownsPool = options.pool === undefined;
    this.#pool = openPool(options);
    this.#schema = options.schema ?? 'public';
    this.#api = options.api;
    this.#sql = statements(this.#schema);
    this.#listSql = membersChangeStatements(this.#schema);
    this.#names = statementNames(PREPARED, this.#schema);
    this.#compactor = new ListCompactor(this.#pool, this.#sql);
    const wait = this.#pool.options.connectionTimeoutMillis ?? 0; // what a query waits for a connection
    this.#updates = new Together(itemUpdates(this.#pool, this.#schema, (v) => this.#prepared<WrittenRow>('updateItem', v)), options.writesInFlight, wait);
    const appends = (key: AppendStatement) => new Together(listAppends(this.#pool, this.#schema, key, (v) => this.#prepared<AppendedRow>(key, v)), options.writesInFlight, wait);
    const together = { createAndLink: appends('createAndLink'), linkExisting: appends('linkExisting') };
    this.#appendContext = { pool: this.#pool, revisionOf: this.#sql.revisionOf, prepared: (key, params) => this.#prepared(key, params), append: (key, v) => together[key].send(v), get: (t, id) => this.get(t, id) };
    if (options.watchChanges ?? this.#ownsPool) this.#feed = new ChangeFeed(this.#pool, this.#schema, options.changeFeed);
  }

  /**
   * Tells `listener` the items each committed write changes (`<type>/<id>`), here and (LISTEN/NOTIFY)
   * on every other instance; undefined with `watchChanges: false`.
   *
   * @example
   * const stop = store.watch((changed) => console.log(changed)); // ['player/alice'], 'all' or 'unknown'
   */
  watch(listener: ChangeListener): (() => void) | undefined {
    return this.#feed?.add(listener);
  }

  /** The schema holding the store's tables. */
  get schema(): string {
    return this.#schema;
  }

  /**
   * Creates or upgrades the schema (idempotent; safe when several instances start at once), and makes
   * the search indexes of the `api` option's searched fields.
   *
   * @example
   * await store.migrate(); // [1, 2, 3, 4, 5, 6, 7, 8] on an empty database, [] afterwards
   */
  async migrate(): Promise<number[]> {
    try {
      return await migrate(this.#pool, this.#schema, this.#api);
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
    this.#feed?.end();
    this.#read.clear();
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
   * createService({ api, baseUrl, store, rateLimit: { limit: 600, counter: store.rateLimitCounter() } });
   */
  rateLimitCounter(): RateLimitCounter {
    return new PostgresRateLimitCounter(this.#pool, this.#schema);
  }

  /**
   * The pool's connections (for /metrics): open, idle, queries waiting for one, and the most allowed.
   *
   * @example
   * store.poolStats().waiting; // 0
   */
  poolStats(): { total: number; idle: number; waiting: number; max: number } {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount, max: this.#pool.options.max ?? 10 };
  }

  async ping(): Promise<void> {
    await this.#query('SELECT 1', []);
  }

  get(type: ResourceType, id: string): Promise<StoredItem | undefined> {
    return this.#prepared<ItemRow>('getItem', [type.name, id]).then(({ rows }) => rows[0] && toStoredItem(type, rows[0]));
  }

  list(relation: Relation, ownerId: string, page: PageRequest): Promise<Slice | undefined> {
    return this.#prepared<SliceRow>('listMembers', [relation.owner.name, ownerId, relation.name, page.offset, page.limit]).then(({ rows }) => toSlice(relation, rows, this.#read));
  }

  async search(relation: Relation, ownerId: string, text: string, page: PageRequest): Promise<Slice | undefined> {
    let statement = this.#searches.get(relation);
    if (statement === undefined) this.#searches.set(relation, (statement = searchStatement(this.#schema, relation)));
    // Unnamed statement: planned with the actual pattern each time, so pg_trgm is used when it pays. One match past countLimit is read.
    const values = [relation.owner.name, ownerId, relation.name, likeContains(text), page.offset, page.limit, page.countLimit === undefined ? null : page.countLimit + 1];
    const { rows } = await this.#query<SliceRow>(statement, values);
    return toSlice(relation, rows, this.#read, page.countLimit);
  }

  async put(type: ResourceType, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): Promise<{ item: StoredItem; created: boolean }> {
    const expect = options.expect ?? {};
    const id = data[type.idField] as string;
    const fields = itemFields(type, data);
    const text = JSON.stringify(fields);
    const key = itemKey(type.name, id);
    return writing(this.#feed, [key], async (ticket) => {
      const { row, created } = await putRow((name, values) => this.#prepared(name, values), (v) => this.#updates.send(v), [type.name, id, text], expect);
      const item = writtenItem(type, id, fields, text, row);
      return this.#changed(ticket, [key], { item, created }, new Map([[key, item]]), 'unchanged');
    });
  }

  async delete(type: ResourceType, id: string, options: WriteOptions = {}): Promise<boolean> {
    const expect = options.expect ?? {};
    if (expect.exists === false) {
      await diagnose(this.#pool, this.#sql.revisionOf, type, id, expect);
      return false;
    }
    // The owners whose lists it left changed too (unknown here without another query): 'all'.
    const deleted = await transactionOrRollback(this.#pool, async (c) => {
      await c.query(this.#sql.lockForDelete, [type.name, id]);
      const { rows } = await c.query<{ item: string }>(this.#sql.deleteItem, [type.name, id, revisionParam(expect.revision)]);
      if (!rows[0]) {
        if (expect.revision !== undefined || expect.exists === true) throw new StoreError('revision-mismatch', `${type.name} "${id}" has changed`);
        return false;
      }
      return (await c.query<{ list: string; gaps: number }>(this.#sql.unlinkEverywhere, [rows[0].item])).rows;
    });
    if (!deleted) return false;
    for (const { list, gaps } of deleted) this.#compactor.consider(list, gaps);
    return this.#changed(undefined, 'all', true);
  }

  createMember(relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options: WriteOptions = {}): Promise<MemberWrite> {
    const target = relation.target;
    return this.#append(relation, ownerId, data[target.idField] as string, options, 'createAndLink', [itemData(target, data)]);
  }

  addMember(relation: Relation, ownerId: string, memberId: string, options: WriteOptions = {}): Promise<MemberWrite> {
    return this.#append(relation, ownerId, memberId, options, 'linkExisting', []);
  }

  async removeMember(relation: Relation, ownerId: string, memberId: string, options: WriteOptions = {}): Promise<StoredItem | undefined> {
    const expect = options.expect ?? {};
    const ownerType = relation.owner;
    if (expect.exists === false) await diagnose(this.#pool, this.#sql.revisionOf, ownerType, ownerId, expect); // throws: the owner must exist
    const key = itemKey(ownerType.name, ownerId);
    return writing(this.#feed, [key], async (ticket) => {
      const removed = await transactionOrRollback(this.#pool, (c) => removeMemberIn(c, this.#sql, relation, ownerId, memberId, expect));
      if (!removed) return undefined;
      this.#compactor.consider(removed.list, removed.gaps);
      return this.#changed(ticket, [key], removed.owner, new Map([[key, removed.owner]]));
    });
  }

  async changeMembers(relation: Relation, ownerId: string, change: MembersChange, options: WriteOptions = {}): Promise<{ owner: StoredItem; changed: string[] }> {
    const key = itemKey(relation.owner.name, ownerId);
    return writing(this.#feed, [key], async (ticket) => {
      const done = await transactionOrRollback(this.#pool, (c) => changeMembersIn(c, this.#listSql, relation, ownerId, change, options.expect ?? {}));
      if (done.changed.length === 0) return { owner: done.owner, changed: [] };
      if (done.gaps > 0) this.#compactor.consider(done.list, done.gaps);
      return this.#changed(ticket, [key], { owner: done.owner, changed: done.changed }, new Map([[key, done.owner]]));
    });
  }

  async getMedia(type: ResourceType, id: string, name: string): Promise<StoredMedia | undefined> {
    const { rows } = await this.#prepared<Parameters<typeof toStoredMedia>[0]>('getMedia', [type.name, id, name]);
    return rows[0] && toStoredMedia(rows[0]);
  }

  async putMedia(type: ResourceType, id: string, name: string, bytes: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<StoredMedia> {
    const written = await writeMedia((text, values) => this.#query(text, values), this.#sql, type, id, name, bytes, contentType, options.expect ?? {});
    return this.#changed(undefined, [itemKey(type.name, id)], { bytes: bytes.slice(), contentType, ...written });
  }

  #append(relation: Relation, ownerId: string, memberId: string, options: WriteOptions, statement: AppendStatement, values: unknown[]): Promise<MemberWrite> {
    const owner = itemKey(relation.owner.name, ownerId);
    const member = itemKey(relation.target.name, memberId);
    return writing(this.#feed, [owner, member], async (ticket) => {
      const { changed, write, total } = await appendMember(this.#appendContext, relation, ownerId, memberId, options, statement, values);
      if (!changed) return write;
      // Only the owner's record is handed on: the member's shows on the list's last page, which the
      // append changed and is read again anyway. Both echoes are awaited.
      const written = new Map([[owner, write.owner], [member, write.member]]);
      return this.#changed(ticket, changed, write, written, { owner, relation: relation.name, total: total! }, owner);
    });
  }

  /**
   * Tells the watchers of a committed write of this instance (begun by `writing`, with its `ticket`),
   * with the records it left or read (`records`, by key) to hand on while current (`lists`: what it did
   * to their lists, when known); its NOTIFY, when it comes back, is not told again (`ChangeFeed.tellWrite`).
   */
  #changed<T>(ticket: WriteTicket | undefined, changed: Changes, value: T, records?: ReadonlyMap<string, StoredItem>, lists?: CurrentRecords['lists'], handOn?: string): T {
    this.#feed?.tellWrite(ticket, changed, records, lists, handOn);
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
}
