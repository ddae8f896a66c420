// The rate limit's counter in PostgreSQL: every instance on the same database shares the counts.
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { RateLimitCounter } from '../../core/service/rate-limit.js';
import { quoteIdentifier } from './migrations.js';

/**
 * A `RateLimitCounter` keeping one row per client in `rate_limit_counts` (migration 5), keyed by the
 * SHA-256 of the client's key (so every row has the same small size): an upsert per request that
 * starts the count again when a later window begins, so the count is exact across instances. Rows of past windows are deleted by the first instance to see a new window.
 *
 * @example
 * const counter = new PostgresRateLimitCounter(pool, 'public');
 * await counter.increment('address:192.0.2.1', 29_000_000, 60); // 1
 */
export class PostgresRateLimitCounter implements RateLimitCounter {
  readonly #pool: Pool;
  readonly #increment: string;
  readonly #sweep: string;
  readonly #name: string;
  #sweptWindow = -Infinity;

  constructor(pool: Pool, schema: string) {
    const table = `${quoteIdentifier(schema)}.rate_limit_counts`;
    this.#pool = pool;
    this.#name = `rate_limit_increment_${schema}`;
    // A count for an earlier window than the row's (an instance whose clock is behind) joins the
    // row's window: counts never go back to an earlier window.
    this.#increment = `INSERT INTO ${table} AS r (key, window_number, count) VALUES ($1, $2, 1)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN EXCLUDED.window_number > r.window_number THEN 1 ELSE r.count + 1 END,
        window_number = GREATEST(r.window_number, EXCLUDED.window_number)
      RETURNING count`;
    this.#sweep = `DELETE FROM ${table} WHERE window_number < $1`;
  }

  async increment(key: string, window: number, windowSeconds: number): Promise<number> {
    if (window > this.#sweptWindow) {
      this.#sweptWindow = window;
      // Rows two windows old and more: nobody counts in them again. Not awaited; a failure is harmless.
      this.#pool.query(this.#sweep, [window - 1]).catch(() => undefined);
    }
    // Keys are hashed: a principal's id or an address of any length makes a row of fixed size.
    const hashed = createHash('sha256').update(`${windowSeconds}s ${key}`).digest('base64url');
    const { rows } = await this.#pool.query<{ count: number }>({ name: this.#name, text: this.#increment, values: [hashed, window] });
    return rows[0]!.count;
  }
}
