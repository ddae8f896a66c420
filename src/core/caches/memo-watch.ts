// MemoWatch: the answer memo's subscription to the store's change notices, let go while nobody asks the memo.
import type { ChangeListener, Changes, CurrentRecords, Store } from '../../stores/contract.js';
import type { AnswerMemo } from './answer-memo.js';

/**
 * How many change notices the memo takes with nobody asking it anything before it lets go of the
 * store's notices (see `MemoWatch`).
 */
export const SLEEP_AFTER_NOTICES = 1_000;

/**
 * Keeps an answer memo told of the store's changes while the memo is used, and lets go otherwise.
 * Hearing changes costs the store (PostgreSQL wakes a listening session at every commit and sends it
 * each notice) and the instance (it reads them all); a memo nobody asks, as on an instance that only
 * writes, pays that for nothing. So when `sleepAfter` change notices came in a row with no use in
 * between (a GET or HEAD looked up, a kept record asked for: `use`), the memo forgets everything it
 * kept and stops watching: it keeps nothing and answers nothing, as with the memo off. The next use
 * watches again; the memo keeps anew once the store vouches for its notices (at once for the memory
 * store, once its change feed listens for PostgreSQL). Counted in notices, not time: what sleeping
 * saves is the work each notice costs, and an instance that neither reads nor writes costs nothing.
 *
 * @example
 * const watch = MemoWatch.start(memo, store); // undefined: the store cannot tell its changes
 * watch?.use(); // before a lookup: wakes it when asleep
 */
export class MemoWatch {
  readonly #memo: AnswerMemo;
  readonly #store: Store;
  readonly #sleepAfter: number;
  readonly #listener: ChangeListener;
  #stop: (() => void) | undefined;
  /** From just before `watch` (a store may tell something as the listener is added) until it sleeps. */
  #watching = false;
  /** Change notices taken since the last use. */
  #unused = 0;
  /** A sleep is queued (it runs once the store is done telling, after the notice that made it due). */
  #sleeping = false;

  private constructor(memo: AnswerMemo, store: Store, sleepAfter: number) {
    this.#memo = memo;
    this.#store = store;
    this.#sleepAfter = sleepAfter;
    this.#listener = Object.assign((changed: Changes, current?: CurrentRecords) => this.#told(changed, current), { wantsRecords: () => memo.keepsReads });
  }

  /**
   * Watches `store` for `memo`; undefined when the store cannot tell its changes (no `watch`, or it
   * returns undefined): then nothing may be kept.
   *
   * @example
   * const watch = MemoWatch.start(memo, store, 1_000);
   */
  static start(memo: AnswerMemo, store: Store, sleepAfter = SLEEP_AFTER_NOTICES): MemoWatch | undefined {
    const watch = new MemoWatch(memo, store, sleepAfter);
    return watch.#watch() ? watch : undefined;
  }

  /** True while it does not watch: the memo keeps and answers nothing. */
  get asleep(): boolean {
    return !this.#watching;
  }

  /**
   * Something asks the memo (a lookup, a kept record): watched again when asleep, and the count of
   * unused notices starts over.
   *
   * @example
   * watch.use();
   */
  use(): void {
    this.#unused = 0;
    if (!this.#watching) this.#watch();
  }

  #watch(): boolean {
    // Seeing again first: a store that is not yet sure of its notices (a change feed starting to
    // listen) says 'unknown' as the listener is added, and 'all' once it is.
    this.#memo.forget('all');
    this.#watching = true;
    this.#stop = this.#store.watch?.(this.#listener);
    if (this.#stop !== undefined) return true;
    this.#watching = false;
    this.#memo.forget('unknown');
    return false;
  }

  #told(changed: Changes, current?: CurrentRecords): void {
    if (!this.#watching) return;
    this.#memo.forget(changed, current);
    // Only changes count (not a lease, nor 'all' and 'unknown'); the store is let go once it is done telling.
    if (Array.isArray(changed) && ++this.#unused >= this.#sleepAfter && !this.#sleeping) {
      this.#sleeping = true;
      queueMicrotask(() => this.#sleep());
    }
  }

  #sleep(): void {
    this.#sleeping = false;
    const stop = this.#stop;
    if (!this.#watching || stop === undefined || this.#unused < this.#sleepAfter) return;
    this.#watching = false;
    this.#stop = undefined;
    stop();
    // Nothing it kept can be vouched for from now on.
    this.#memo.forget('unknown');
  }
}
