// The options of the PostgreSQL store.
import type { Pool, PoolConfig } from 'pg';
import type { ChangeFeedTiming } from './change-feed.js';
import type { Api } from '../../core/model/api.js';

/**
 * Options of a PostgresStore: a pool of yours, or a connection string for one it creates and owns.
 *
 * @example
 * const options: PostgresStoreOptions = { api, connectionString: process.env.DATABASE_URL, poolConfig: { max: 20 } };
 */
export interface PostgresStoreOptions {
  /** The API whose items are stored: `migrate()` makes the search indexes of its searched fields. */
  api?: Api;
  /** An existing node-postgres pool; the store never ends it. */
  pool?: Pool;
  /** A connection string (e.g. `process.env.DATABASE_URL`, undefined when unset: then node-postgres reads PG* variables) when no pool is given. */
  connectionString?: string | undefined;
  /** More settings of the pool the store creates (max, ssl...). */
  poolConfig?: PoolConfig;
  /** The schema holding the store's tables; default `public` (also when undefined, as an unset variable gives). */
  schema?: string | undefined;
  /** Called with errors of idle pooled connections (the database went away); default: ignored. */
  onError?: (error: Error) => void;
  /**
   * Whether `watch` tells about changes, heard through LISTEN on one connection of the pool (so the
   * service may keep answers until a player they show changes, on any instance). Default: true when
   * the store creates its pool, false with a pool of yours (it would hold one of its connections).
   */
  watchChanges?: boolean;
  /**
   * How the change feed proves it is live (see docs/scaling.md, "Across instances"): a heartbeat every
   * `heartbeatMs` (default 500) through the listening connection; answers kept by this instance are
   * trusted only while a heartbeat sent at most `maxStalenessMs` ago (default 2000) was heard, which
   * bounds how long a write committed elsewhere can go unseen here, even when the connection is lost
   * without a sign.
   */
  changeFeed?: ChangeFeedTiming;
  /**
   * The most statements of each kind of write the store sends at once (default 2): updates of items
   * (PUT and PATCH), appends of new members, appends of existing ones. One goes at a time; the writes
   * that arrive meanwhile wait and go together as one statement when it returns: one commit, and one
   * turn of PostgreSQL's notify lock, for many writes. Another goes beside it, up to this many, only
   * when a full statement waits or the one in flight has run 20 ms (docs/decisions.md, "PostgreSQL
   * writes together").
   */
  writesInFlight?: number;
}
