// Statements of one kind sent together: while some are in flight, the next wait and go as one statement.
import { StoreError } from '../contract.js';
import { isRetryable } from './errors.js';
import { backoff, TRANSACTION_ATTEMPTS } from './transaction.js';

/**
 * The most writes one statement carries.
 *
 * @example
 * MOST_TOGETHER; // 16
 */
export const MOST_TOGETHER = 16;

/**
 * How many statements of one kind a store has in flight at once by default, at most (the
 * `writesInFlight` option).
 *
 * @example
 * IN_FLIGHT; // 2
 */
export const IN_FLIGHT = 2;

/**
 * How long the statements in flight may run before waiting writes go beside them: a statement this
 * slow is stalled (a row lock held elsewhere, a database busy with other work), some ten times what one
 * takes on a database nearby. docs/decisions.md, "PostgreSQL writes together".
 *
 * @example
 * STALLED_MS; // 20
 */
export const STALLED_MS = 20;

/**
 * How one kind of write is sent: `one` runs a write alone (its row, or undefined when it matched none),
 * `many` runs several as one statement (their rows in the order given), `keys` names the items a write
 * changes (two writes that share one never share a statement), the first the one statements lock rows
 * in the order of.
 *
 * @example
 * const kind: TogetherKind<Row> = { one: (v) => runOne(v), many: (vs) => runMany(vs), keys: (v) => [`${v[0]}/${v[1]}`] };
 */
export interface TogetherKind<R> {
  one(values: readonly unknown[]): Promise<R | undefined>;
  many(values: readonly (readonly unknown[])[]): Promise<(R | undefined)[]>;
  keys(values: readonly unknown[]): readonly string[];
}

/** A write waiting for its statement, and the caller waiting for its outcome. */
interface Waiting<R> {
  values: readonly unknown[];
  keys: readonly string[];
  /** When it began to wait (performance.now()). */
  since: number;
  resolve: (row: R | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Sends writes of one kind so that many share one commit. A write that arrives while a statement is in
 * flight waits, and when it returns every waiting write (up to MOST_TOGETHER, one per key, sorted by
 * key) goes as one statement. A lone writer waits for nothing. Another statement goes beside those in
 * flight, up to `inFlight`, only when waiting gains nothing more: a full statement's worth waits, or the
 * youngest in flight has run STALLED_MS. Why: each commit that notifies takes PostgreSQL's one notify
 * lock of the database, and the fewer and fuller the statements, the less each write costs it
 * (docs/decisions.md, "PostgreSQL writes together").
 *
 * A write waits at most `waitMs` for its statement to be sent (the pool's `connectionTimeoutMillis`,
 * the wait a query has for a connection); past it, it fails as `busy` (503), as a query does on a full
 * pool, rather than wait behind statements that do not return (a database gone silent).
 *
 * Each write keeps its own outcome. A statement that fails as a whole for a reason that may be one
 * write's (its data refused, a step that aborts the statement) is sent again one write a statement, so
 * only that write fails; an unreachable or busy database fails them all; a deadlock runs it again.
 *
 * @example
 * const updates = new Together(kind, 2, 3000);
 * const row = await updates.send(['player', 'alice', '{"alias":"a"}', '7']); // undefined: changed since
 */
export class Together<R> {
  readonly #kind: TogetherKind<R>;
  readonly #inFlight: number;
  readonly #waitMs: number;
  #running = 0;
  /** When the youngest statement in flight was sent (performance.now()). */
  #sentAt = 0;
  #waiting: Waiting<R>[] = [];
  /** Fails the writes that waited too long; armed while some wait. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Sends what waits beside a stalled statement; armed while some wait and a lane is free. */
  #stallTimer: ReturnType<typeof setTimeout> | undefined;

  /** `waitMs`: 0 or less waits without limit. */
  constructor(kind: TogetherKind<R>, inFlight = IN_FLIGHT, waitMs = 0) {
    if (!Number.isInteger(inFlight) || inFlight < 1) throw new TypeError(`writesInFlight must be a positive integer, not ${inFlight}`);
    this.#kind = kind;
    this.#inFlight = inFlight;
    this.#waitMs = waitMs;
  }

  /** The write's row, or undefined when its statement matched no row for it. */
  send(values: readonly unknown[]): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      const since = performance.now();
      this.#waiting.push({ values, keys: this.#kind.keys(values), since, resolve, reject });
      if (this.#running === 0 || this.#mayOpen(since)) this.#next();
      else {
        if (this.#timer === undefined && this.#waitMs > 0) this.#arm(this.#waitMs);
        this.#watchStall(since);
      }
    });
  }

  /** Whether another statement goes beside those in flight: a lane is free and waiting gains nothing. */
  #mayOpen(now: number): boolean {
    return this.#running < this.#inFlight && (this.#waiting.length >= MOST_TOGETHER || now - this.#sentAt >= STALLED_MS);
  }

  /** Arms the stall timer for when the youngest statement in flight will have run STALLED_MS. */
  #watchStall(now: number): void {
    if (this.#stallTimer !== undefined || this.#running >= this.#inFlight || this.#waiting.length === 0) return;
    this.#stallTimer = setTimeout(() => {
      this.#stallTimer = undefined;
      const at = performance.now();
      if (this.#waiting.length > 0 && this.#mayOpen(at)) this.#next();
      this.#watchStall(at);
    }, Math.max(1, this.#sentAt + STALLED_MS - now));
    this.#stallTimer.unref?.();
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#expire(), ms);
    this.#timer.unref?.();
  }

  /** Fails the writes that waited `waitMs`, and waits for the next oldest. */
  #expire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const left: Waiting<R>[] = [];
    for (const w of this.#waiting) {
      if (now - w.since >= this.#waitMs) w.reject(new StoreError('busy', `a write waited ${this.#waitMs} ms behind statements in flight`));
      else left.push(w);
    }
    this.#waiting = left;
    // Oldest first: writes are queued in the order they came, and those a statement left keep theirs.
    if (left.length > 0) this.#arm(Math.max(1, this.#waitMs - (now - left[0]!.since)));
  }

  /** Sends what waits, and when it returns, what waits then. */
  #next(): void {
    const batch = this.#take();
    this.#running++;
    this.#sentAt = performance.now();
    void this.#settle(batch);
  }

  /** A statement has returned: its lane is free, and what waits goes. */
  #done(): void {
    this.#running--;
    const now = performance.now();
    while (this.#waiting.length > 0 && (this.#running === 0 || this.#mayOpen(now))) this.#next();
    this.#watchStall(now);
  }

  /** The waiting writes that share no key, oldest first; a key's later writes wait for the next statement. */
  #take(): Waiting<R>[] {
    const waiting = this.#waiting;
    if (waiting.length === 1) {
      this.#waiting = [];
      return waiting;
    }
    const batch: Waiting<R>[] = [];
    const left: Waiting<R>[] = [];
    const keys = new Set<string>();
    for (const w of waiting) {
      if (batch.length === MOST_TOGETHER || w.keys.some((key) => keys.has(key))) left.push(w);
      else {
        for (const key of w.keys) keys.add(key);
        batch.push(w);
      }
    }
    this.#waiting = left;
    // In one order on every instance, so that two statements lock shared rows alike.
    return batch.sort((a, b) => (a.keys[0]! < b.keys[0]! ? -1 : a.keys[0]! > b.keys[0]! ? 1 : 0));
  }

  /**
   * Runs a batch and tells each caller its outcome; never rejects. Once its rows are here, the next
   * statement is sent before the callers hear: the database works on it while their answers are made.
   */
  async #settle(batch: Waiting<R>[]): Promise<void> {
    let rows: (R | undefined)[];
    try {
      rows = await this.#run(batch.map((w) => w.values));
    } catch (error) {
      // Its lane stays taken until each write is told: a key's later write must not overtake it.
      await this.#fail(batch, error);
      this.#done();
      return;
    }
    this.#done();
    for (let i = 0; i < batch.length; i++) batch[i]!.resolve(rows[i]);
  }

  /** The database unreachable or busy: the same for each. Else perhaps one write's fault: each alone. */
  async #fail(batch: Waiting<R>[], error: unknown): Promise<void> {
    const whole = error instanceof StoreError && (error.code === 'unavailable' || error.code === 'busy');
    if (batch.length === 1 || whole) {
      for (const w of batch) w.reject(error);
      return;
    }
    await Promise.all(
      batch.map(async (w) => {
        try {
          w.resolve((await this.#run([w.values]))[0]);
        } catch (alone) {
          w.reject(alone);
        }
      }),
    );
  }

  /** The rows written, in the order of `writes`; a deadlock of several runs them again. */
  async #run(writes: (readonly unknown[])[]): Promise<(R | undefined)[]> {
    if (writes.length === 1) return [await this.#kind.one(writes[0]!)];
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#kind.many(writes);
      } catch (error) {
        // Several rows locked in one statement may deadlock with another (PostgreSQL aborts one).
        if (!isRetryable(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      }
      await backoff(attempt);
    }
  }
}
