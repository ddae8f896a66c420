// Compare-and-set updates of items sent together: while some are in flight, the next wait and go as one statement.
import type { Pool } from 'pg';
import { StoreError } from '../contract.js';
import { isRetryable } from './errors.js';
import type { WrittenRow } from './item-put.js';
import { updateItemsStatement, statementNames } from './statements.js';
import { backoff, queryOrStoreError, TRANSACTION_ATTEMPTS } from './transaction.js';

/** The most updates one statement carries. */
export const MOST_UPDATES_TOGETHER = 16;

/**
 * How many update statements a store has in flight at once by default (the `updatesInFlight` option).
 *
 * @example
 * UPDATES_IN_FLIGHT; // 2
 */
export const UPDATES_IN_FLIGHT = 2;

/** One compare-and-set: type, id, fields as JSON text, expected revision (null: whatever it is). */
export type UpdateValues = readonly [type: string, id: string, text: string, revision: string | null];

/** An update waiting for its statement, and the caller waiting for its outcome. */
interface Waiting {
  values: UpdateValues;
  resolve: (row: WrittenRow | undefined) => void;
  reject: (error: unknown) => void;
}

/** Orders updates by type, then id. */
function compare(a: UpdateValues, b: UpdateValues): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
}

/** A row the statement of several updates returns. */
type UpdatedRow = WrittenRow & { type: string; id: string };

/**
 * Sends the compare-and-set updates of items (`updateItem`) so that many writes share one commit. At
 * most `inFlight` statements run at once; an update that arrives while they do waits, and when one
 * returns every waiting update (up to MOST_UPDATES_TOGETHER, one per item) goes as one statement. A
 * lone writer waits for nothing. On a 2-core PostgreSQL, ten writers at once, one statement of five
 * updates cost about a quarter of the database's CPU of five statements (docs/decisions.md,
 * "PostgreSQL writes together"): each commit that notifies takes PostgreSQL's one notify lock.
 *
 * Each update keeps its own outcome: its row, or undefined when its revision did not match. A
 * statement that fails as a whole for one update's sake (its data refused) is sent again one update a
 * statement, so only that update fails; an unreachable database fails them all; a deadlock is retried.
 *
 * @example
 * const updates = new ItemUpdates(pool, 'public', sql.updateItem, 'ph_updateItem_public', 2);
 * const row = await updates.update(['player', 'alice', '{"alias":"a"}', '7']); // undefined: changed since
 */
export class ItemUpdates {
  readonly #pool: Pool;
  readonly #schema: string;
  readonly #single: { text: string; name: string };
  readonly #inFlight: number;
  readonly #statements = new Map<number, { text: string; name: string }>();
  #running = 0;
  #waiting: Waiting[] = [];

  constructor(pool: Pool, schema: string, singleText: string, singleName: string, inFlight = UPDATES_IN_FLIGHT) {
    if (!Number.isInteger(inFlight) || inFlight < 1) throw new TypeError(`updatesInFlight must be a positive integer, not ${inFlight}`);
    this.#pool = pool;
    this.#schema = schema;
    this.#single = { text: singleText, name: singleName };
    this.#inFlight = inFlight;
  }

  /** The row the update wrote, or undefined when no row of that type and id had the expected revision. */
  update(values: UpdateValues): Promise<WrittenRow | undefined> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ values, resolve, reject });
      if (this.#running < this.#inFlight) this.#send();
    });
  }

  /** Sends what waits, and when it returns, what waits then. */
  #send(): void {
    const batch = this.#take();
    this.#running++;
    void this.#settle(batch).finally(() => {
      this.#running--;
      if (this.#waiting.length > 0 && this.#running < this.#inFlight) this.#send();
    });
  }

  /** The waiting updates of distinct items, oldest first; an item's later updates wait for the next statement. */
  #take(): Waiting[] {
    const waiting = this.#waiting;
    if (waiting.length === 1) {
      this.#waiting = [];
      return waiting;
    }
    const batch: Waiting[] = [];
    const left: Waiting[] = [];
    const keys = new Set<string>();
    for (const w of waiting) {
      const key = `${w.values[0]}/${w.values[1]}`;
      if (batch.length === MOST_UPDATES_TOGETHER || keys.has(key)) left.push(w);
      else {
        keys.add(key);
        batch.push(w);
      }
    }
    this.#waiting = left;
    // In one order of (type, id) on every instance, so that two statements lock shared rows alike.
    return batch.sort((a, b) => compare(a.values, b.values));
  }

  /** Runs a batch and tells each caller its outcome; never rejects. */
  async #settle(batch: Waiting[]): Promise<void> {
    try {
      const rows = await this.#run(batch.map((w) => w.values));
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(rows[i]);
    } catch (error) {
      // The database unreachable or busy: the same for each. Else perhaps one update's fault: each alone.
      const whole = error instanceof StoreError && (error.code === 'unavailable' || error.code === 'busy');
      if (batch.length === 1 || whole) for (const w of batch) w.reject(error);
      else await Promise.all(batch.map((w) => this.#settle([w])));
    }
  }

  /** The rows written, in the order of `updates`; a deadlock runs the statement again. */
  async #run(updates: UpdateValues[]): Promise<(WrittenRow | undefined)[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (updates.length === 1) {
          const { rows } = await queryOrStoreError<WrittenRow>(this.#pool, this.#single.text, [...updates[0]!], this.#single.name);
          return [rows[0]];
        }
        const { text, name } = this.#statement(updates.length);
        const { rows } = await queryOrStoreError<UpdatedRow>(this.#pool, text, updates.flat(), name);
        const written = new Map(rows.map((row) => [`${row.type}/${row.id}`, row]));
        return updates.map(([type, id]) => written.get(`${type}/${id}`));
      } catch (error) {
        // Several rows locked in one statement may deadlock with another (PostgreSQL aborts one).
        if (!isRetryable(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      }
      await backoff(attempt);
    }
  }

  /** The prepared statement of `count` updates, made once per count. */
  #statement(count: number): { text: string; name: string } {
    const made = this.#statements.get(count);
    if (made) return made;
    const key = `updateItems${count}`;
    const statement = { text: updateItemsStatement(this.#schema, count), name: statementNames([key], this.#schema)[key]! };
    this.#statements.set(count, statement);
    return statement;
  }
}
