// Every node-postgres client the store touches has an 'error' listener from the moment it exists.
import pg, { type Pool, type PoolClient } from 'pg';
import type { PostgresStoreOptions } from './options.js';

/** Marks a client (or pool) that already carries the store's listener (a symbol property: no weak collection). */
const GUARDED = Symbol('player-hypermedia.guarded');

/**
 * Gives a client a permanent 'error' listener, once. node-postgres emits 'error' on a client whose
 * session the server ends (FATAL 57P01 at a fast shutdown, failover or pg_terminate_backend) or whose
 * socket breaks; an EventEmitter's 'error' without a listener throws, and the process exits. pg-pool
 * removes its own listener from a client as it hands it out, and the code that asked for the client
 * (`await pool.connect()`) adds its own only a turn later: a FATAL in the same TCP segment as the
 * answer that freed the client falls in between. A permanent listener closes that gap; the session's
 * failure still reaches its queries (they reject) and the pool (which discards the client).
 *
 * @example
 * guardClient(client, (error) => console.warn(error.message));
 */
export function guardClient(client: PoolClient, onError: (error: Error) => void): void {
  const marked = client as PoolClient & { [GUARDED]?: true };
  if (marked[GUARDED]) return;
  marked[GUARDED] = true;
  client.on('error', onError);
}

/**
 * Guards every client the pool creates from now on (the pool's 'connect' event fires before the new
 * client is handed out or can emit anything but its connection failure, which goes to the caller).
 *
 * @example
 * guardPool(pool, () => undefined);
 */
export function guardPool(pool: Pool, onError: (error: Error) => void): void {
  const marked = pool as Pool & { [GUARDED]?: true };
  if (marked[GUARDED]) return;
  marked[GUARDED] = true;
  pool.on('connect', (client) => guardClient(client, onError));
}

/**
 * Checks a client out of the pool with the listener on it before anything else can run: the callback
 * form of `pool.connect`, which pg-pool calls in the same turn as it hands the client over (the
 * promise form resumes its caller a turn later). For pools the store did not create and clients made
 * before `guardPool`.
 *
 * @example
 * const client = await checkOut(pool);
 * try { await client.query('SELECT 1'); } finally { client.release(); }
 */
export function checkOut(pool: Pool, onError: (error: Error) => void = ignore): Promise<PoolClient> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (error || !client) return reject(error ?? new Error('the pool gave no client'));
      guardClient(client, onError);
      resolve(client);
    });
  });
}

function ignore(): void {}

/**
 * The store's pool: the one given in `options.pool`, or a new one (`connectionString`, 10 connections,
 * 3 s to connect, idle ones closed after 30 s, then `poolConfig`). An idle client whose server went away
 * emits 'error' on the pool, and without a listener Node would exit: a pool the store makes gets
 * `onError` (default: ignore), a given one only when `onError` is given (it is the caller's to listen
 * to); every client gets a listener of its own as it is created (`guardPool`), whoever owns the pool.
 *
 * @example
 * const pool = openPool({ connectionString: process.env.DATABASE_URL });
 */
export function openPool(options: Pick<PostgresStoreOptions, 'pool' | 'connectionString' | 'poolConfig' | 'onError'>): Pool {
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: 10,
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      ...options.poolConfig,
    });
  if (options.pool === undefined || options.onError) pool.on('error', options.onError ?? (() => undefined));
  guardPool(pool, () => undefined);
  return pool;
}
