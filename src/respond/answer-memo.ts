// AnswerMemo: complete GET and HEAD answers, kept while the store and the clock's second are unchanged.
import type { RequestHead } from '../http/request-head.js';
import type { SelectedAnswers } from './selected.js';
import { API_VERSION_HEADER } from '../service/versioning.js';

const API_VERSION_FIELD = API_VERSION_HEADER.toLowerCase();

/**
 * Where a request's answer is recorded: its key, and the store stamp and second it was computed in.
 *
 * @example
 * const slot: MemoSlot = { key: 'https://x.test/player/alice', stamp: 42, second: 1795000000 };
 */
export interface MemoSlot {
  key: string;
  stamp: number;
  second: number;
}

interface MemoEntry extends MemoSlot {
  selected: SelectedAnswers;
  bytes: number;
}

/**
 * Complete GET and HEAD answers of the service, by request (absolute URL, Accept, Api-Version). An
 * entry holds for as long as the store's `changeStamp()` and the current second (the resolution of
 * Date, Expires and Last-Modified) stay what they were when it was computed, so a hit is the answer the
 * service would compute again: same validators, same fields, same body. An entry is a selected
 * representation: a revalidation gets its 304 and a GET its 200 from one entry (`answerSelected`).
 * Nothing is kept during a second that holds a boundary (a version's sunset, when its URLs start to
 * redirect). Only anonymous requests are kept (Authorization runs the `authenticate` hook), and only when the
 * store has a `changeStamp` (one process), the clock is the system clock and `trustProxy` is off; the
 * service decides this once (`createAnswerMemo`). Bounded by entries and by body bytes; the oldest
 * entries go first.
 *
 * @example
 * const memo = new AnswerMemo(1024, 8 * 1024 * 1024);
 * const slot = memo.slotFor(head, store.changeStamp(), Date.now());
 * const selected = slot && memo.lookup(slot); // or undefined: compute the answer, then memo.record(slot, ctx.selected)
 */
export class AnswerMemo {
  readonly #entries = new Map<string, MemoEntry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #boundarySeconds: ReadonlySet<number>;
  #bytes = 0;

  /**
   * @param boundaries instants (epoch ms) at which answers change with no write, such as a version's
   *   sunset: nothing is kept during the second that holds one, so no answer outlives it.
   */
  constructor(maxEntries: number, maxBytes: number, boundaries: readonly number[] = []) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
    this.#boundarySeconds = new Set(boundaries.map((ms) => Math.floor(ms / 1000)));
  }

  /**
   * The slot of a request, or undefined when its answer may not be kept (not GET or HEAD, or with
   * Authorization).
   *
   * @example
   * memo.slotFor({ method: 'GET', url, headers }, 42, Date.now())?.key;
   */
  slotFor(head: RequestHead, stamp: number, now: number): MemoSlot | undefined {
    const method = head.method;
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const second = Math.floor(now / 1000);
    if (this.#boundarySeconds.has(second)) return undefined;
    const headers = head.headers;
    if (headers.has('authorization')) return undefined;
    // Everything besides the URL that chooses the answer: the format, and the version by header.
    const key = `${head.url}\n${headers.get('accept') ?? ''}\n${headers.get(API_VERSION_FIELD) ?? ''}`;
    return { key, stamp, second };
  }

  /**
   * The selected representation kept for this slot when it still holds (same store stamp and second);
   * the caller answers the request from it with `answerSelected`.
   *
   * @example
   * const selected = memo.lookup(slot);
   */
  lookup(slot: MemoSlot): SelectedAnswers | undefined {
    const entry = this.#entries.get(slot.key);
    return entry && entry.stamp === slot.stamp && entry.second === slot.second ? entry.selected : undefined;
  }

  /**
   * Keeps the selected representation computed for `slot` (its answers are shared from now on, never
   * to be changed). One too large for the budget (a quarter of it) is not kept.
   *
   * @example
   * memo.record(slot, ctx.selected);
   */
  record(slot: MemoSlot, selected: SelectedAnswers): void {
    const previous = this.#entries.get(slot.key);
    if (previous) this.#forget(slot.key, previous);
    const body = selected.ok?.body;
    const bytes = slot.key.length + (body ? (body as Uint8Array).byteLength : 0);
    if (bytes * 4 > this.#maxBytes) return;
    this.#entries.set(slot.key, { ...slot, selected, bytes });
    this.#bytes += bytes;
    // Map keeps insertion order: the first keys are the oldest.
    for (const [key, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes && this.#entries.size <= this.#maxEntries) break;
      this.#forget(key, old);
    }
  }

  /** The number of answers kept (for tests and monitoring). */
  get size(): number {
    return this.#entries.size;
  }

  #forget(key: string, entry: MemoEntry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
