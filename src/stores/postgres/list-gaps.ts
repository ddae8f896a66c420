// Renumbering lists whose removals left many gaps, in the background, one list at a time.
import type { Pool } from 'pg';
import type { Statements } from './statements.js';
import { withTransaction } from './transaction.js';

/**
 * How many gaps a list may have before it is renumbered. A page read counts the list's gaps (an index
 * range of `member_gaps`), so this bounds what gaps add to a page; renumbering costs one update per
 * member, so a list of n members pays n / GAP_LIMIT row updates per removal on average.
 *
 * @example
 * GAP_LIMIT; // 512
 */
export const GAP_LIMIT = 512;

/**
 * Renumbers a list densely once its gaps reach GAP_LIMIT, after the removal that got there has been
 * acknowledged: the removal stays O(1), and the renumbering runs in a transaction of its own that
 * holds the owner's row (so writes to that list wait; reads do not). It changes no revision: the
 * list's order and content are the same. A failed run is left to the next removal to start again.
 *
 * @example
 * compactor.consider('17', 512); // starts renumbering list 17
 * await compactor.settle();       // before closing the pool
 */
export class ListCompactor {
  readonly #pool: Pool;
  readonly #sql: Statements;
  readonly #running = new Map<string, Promise<void>>();

  constructor(pool: Pool, sql: Statements) {
    this.#pool = pool;
    this.#sql = sql;
  }

  /** Starts renumbering list `list` (its key) when it has `gaps` of them or more and no run is under way. */
  consider(list: string, gaps: number): void {
    if (gaps < GAP_LIMIT || this.#running.has(list)) return;
    const run = withTransaction(this.#pool, async (c) => {
      await c.query(this.#sql.lockList, [list]);
      const { rows } = await c.query<{ gaps: number }>(this.#sql.countGaps, [list]);
      // Another instance may have renumbered it while this one waited for the lock.
      if ((rows[0]?.gaps ?? 0) >= GAP_LIMIT) await c.query(this.#sql.compactList, [list]);
    })
      .catch(() => undefined)
      .finally(() => this.#running.delete(list));
    this.#running.set(list, run);
  }

  /** Resolves when every run under way has ended. */
  async settle(): Promise<void> {
    await Promise.all(this.#running.values());
  }
}
