// Transactions on a node-postgres pool: retried on deadlock, connection loss turned into StoreError('unavailable').
import pg, { type Pool, type PoolClient, type QueryResult, type QueryResultRow } from 'pg';
import { StoreError } from '../contract.js';
import { isPoolSaturated, isRetryable, isUnavailable, isUnstorable, violated } from './errors.js';
import { checkOut } from './connections.js';

/** What both a pool and a checked-out client can do: run one statement. */
export interface Queryable {
  query<R extends QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
}

/** How many times a transaction PostgreSQL aborted as a deadlock or serialization failure is run. */
export const TRANSACTION_ATTEMPTS = 10;

/**
 * A random wait before running an aborted transaction again, growing with the attempt (at most 100 ms).
 *
 * @example
 * await backoff(3); // up to 8 ms
 */
export function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
}

/**
 * Maps a database error to the store's vocabulary: a saturated pool (given `pool`) to `busy`,
 * unreachable database to `unavailable`, a foreign key violation (an item deleted by a concurrent
 * transaction) to `not-found`, a string PostgreSQL cannot hold to `unstorable`; anything else unchanged.
 *
 * @example
 * throw toStoreError(error, pool);
 */
export function toStoreError(error: unknown, pool?: Pool): unknown {
  if (error instanceof StoreError) return error;
  if (pool && isPoolSaturated(error, pool)) return new StoreError('busy', 'every PostgreSQL connection of the pool is in use', { cause: error });
  if (isUnavailable(error)) return new StoreError('unavailable', 'the PostgreSQL database is unreachable', { cause: error });
  if (violated(error)?.kind === 'foreign-key') return StoreError.exposed('not-found', 'an item of this write no longer exists', { cause: error });
  if (isUnstorable(error)) return StoreError.exposed('unstorable', 'a string holds a character the database cannot store (such as U+0000)', { cause: error });
  return error;
}

/**
 * Runs `work` in a transaction (READ COMMITTED) on one pooled connection: COMMIT when it resolves,
 * ROLLBACK when it throws. A deadlock or serialization failure runs it again after a short random
 * wait, up to TRANSACTION_ATTEMPTS times in all. A connection that failed
 * is destroyed rather than returned to the pool. A write is acknowledged only after COMMIT returned, so
 * an outage mid-transaction loses nothing that was acknowledged.
 *
 * @example
 * await withTransaction(pool, async (c) => { await c.query('UPDATE ...'); });
 */
export async function withTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let client: PoolClient;
    try {
      // Guarded from the turn it is handed over (a session ended right then would crash Node).
      client = await checkOut(pool);
    } catch (error) {
      throw toStoreError(error, pool);
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isUnavailable(error)) broken = error as Error;
      else await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      if (!isRetryable(error) || attempt >= TRANSACTION_ATTEMPTS) throw toStoreError(error);
    } finally {
      client.release(broken);
    }
    await backoff(attempt);
  }
}

/**
 * `withTransaction` where the work may end early with a `Rollback`: its value is returned.
 *
 * @example
 * const n = await transactionOrRollback(pool, async (c) => { throw new Rollback(0); }); // 0
 */
export async function transactionOrRollback<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  try {
    return await withTransaction(pool, work);
  } catch (error) {
    if (error instanceof Rollback) return error.value as T;
    throw error;
  }
}

/**
 * A named prepared statement as a query object. node-postgres copies a query config object with
 * `Object.getOwnPropertyDescriptors` on every call; text and values are taken as they are, the name set
 * on the query it makes of them (`Query.name`, read when it is submitted).
 */
class NamedQuery extends pg.Query {
  constructor(name: string, text: string, values: unknown[]) {
    super(text, values);
    (this as { name?: string }).name = name;
  }
}

/**
 * One query on the pool, its failure as a StoreError; `name` prepares it (a name per schema).
 *
 * @example
 * await queryOrStoreError(pool, 'SELECT 1', []);
 */
export function queryOrStoreError<R extends object>(pool: Pool, text: string, values: unknown[], name?: string): Promise<QueryResult<R & QueryResultRow>> {
  // A query object goes to the pool's callback form: the pool resolves with the query's result.
  const result = name
    ? (pool.query(new NamedQuery(name, text, values) as never) as unknown as Promise<QueryResult<R & QueryResultRow>>)
    : pool.query<R & QueryResultRow>(text, values);
  return result.catch((error: unknown) => {
    throw toStoreError(error, pool);
  });
}

/** Thrown inside a transaction to roll it back and still return a value. */
export class Rollback {
  constructor(readonly value: unknown) {}
}
