// AnswerMemo: complete GET and HEAD answers, kept while the store and the clock's second are unchanged.
import { evaluatePreconditions, type Validators } from './conditional.js';
import { Reply } from './reply.js';
import type { RequestHead } from './request-head.js';
import { API_VERSION_HEADER } from './versioning.js';

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

/**
 * The kept replies of one request: its 304, and once a body was rendered, the 200 of a GET and of a
 * HEAD. Shared by every request they answer: never to be changed.
 *
 * @example
 * const { notModified, ok } = memo.record(slot, validators, fields304, { fields: fields200, bytes });
 */
export interface KeptAnswer {
  notModified: Reply;
  ok: Reply | undefined;
  head: Reply | undefined;
}

interface MemoEntry extends MemoSlot, KeptAnswer {
  validators: Validators;
  bytes: number;
}

/**
 * Complete GET and HEAD answers of the service, by request (absolute URL, Accept, Api-Version). An
 * entry holds for as long as the store's `changeStamp()` and the current second (the resolution of
 * Date, Expires and Last-Modified) stay what they were when it was computed, so a hit is the answer the
 * service would compute again: same validators, same fields, same body. Preconditions are evaluated on
 * every hit (RFC 9110 section 13.2.2), so a revalidation gets its 304 and a GET its 200 from one entry.
 * Nothing is kept during a second that holds a boundary (a version's sunset, when its URLs start to
 * redirect). Only anonymous requests are kept (Authorization runs the `authenticate` hook), and only when the
 * store has a `changeStamp` (one process), the clock is the system clock and `trustProxy` is off; the
 * service decides this once (`createAnswerMemo`). Bounded by entries and by body bytes; the oldest
 * entries go first.
 *
 * @example
 * const memo = new AnswerMemo(1024, 8 * 1024 * 1024);
 * const slot = memo.slotFor(head, store.changeStamp(), Date.now());
 * const hit = slot && memo.lookup(slot, head); // a Reply, or undefined: compute the answer and record it
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
   * The kept answer to this request when one holds, with the request's preconditions evaluated
   * against it: the 304 or the 200 (GET or HEAD). Undefined when nothing holds, or when the
   * preconditions fail (the service then answers 412 the usual way).
   *
   * @example
   * const reply = memo.lookup(slot, head);
   */
  lookup(slot: MemoSlot, head: RequestHead): Reply | undefined {
    const entry = this.#entries.get(slot.key);
    if (!entry || entry.stamp !== slot.stamp || entry.second !== slot.second) return undefined;
    const outcome = evaluatePreconditions(head, entry.validators);
    if (outcome === 'not-modified') return entry.notModified;
    if (outcome !== 'proceed') return undefined;
    return head.method === 'HEAD' ? entry.head : entry.ok;
  }

  /**
   * Keeps an answer computed for `slot`: the fields a 304 carries (`notModified`), and when a body was
   * rendered, the fields and bytes of the 200. Returns the kept replies (the caller answers with one
   * of them; they are shared, never to be changed).
   *
   * @example
   * const { ok } = memo.record(slot, validators, fields304, { fields: fields200, bytes });
   */
  record(
    slot: MemoSlot,
    validators: Validators,
    notModified: Map<string, string>,
    ok?: { fields: Map<string, string>; bytes: Uint8Array },
  ): KeptAnswer {
    const previous = this.#entries.get(slot.key);
    if (previous) this.#forget(slot.key, previous);
    const bytes = slot.key.length + (ok ? ok.bytes.byteLength : 0);
    let head: Reply | undefined;
    if (ok) {
      const headFields = new Map(ok.fields);
      headFields.set('content-length', String(ok.bytes.byteLength));
      head = new Reply(200, headFields, null);
    }
    const entry: MemoEntry = {
      ...slot,
      validators,
      notModified: new Reply(304, notModified, null),
      ok: ok && new Reply(200, ok.fields, ok.bytes),
      head,
      bytes,
    };
    // Too large to keep (a quarter of the budget): answered once, not kept.
    if (bytes * 4 > this.#maxBytes) return entry;
    this.#entries.set(slot.key, entry);
    this.#bytes += bytes;
    // Map keeps insertion order: the first keys are the oldest.
    for (const [key, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes && this.#entries.size <= this.#maxEntries) break;
      this.#forget(key, old);
    }
    return entry;
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
