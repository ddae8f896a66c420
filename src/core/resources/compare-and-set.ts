// Read-modify-write of one item as a compare-and-set on its revision, retried while other writers race it.
import type { RequestContext } from '../service/context.js';
import type { ResourceType } from '../model/api.js';
import type { StoredItem } from '../model/documents.js';
import { HttpError } from '../http/problem.js';
import { WRITE_CONTENTION } from '../service/errors.js';
import { preconditionFailed } from '../respond/write-preconditions.js';
import { StoreError, type Expectation } from '../../stores/contract.js';
import { guessedItem, readItem } from './records.js';
import { andThen, type Awaitable } from '../service/awaitable.js';

/**
 * How long a read-modify-write keeps trying while other writers keep changing the item between its
 * read and its write; past it the answer is 503 (write contention) with Retry-After.
 *
 * @example
 * CONTENTION_DEADLINE_MS; // 5000
 */
export const CONTENTION_DEADLINE_MS = 5000;

/**
 * Whether the client's own expectation still holds for the current state.
 *
 * @example
 * expectationHolds({ exists: true }, stored); // true
 */
export function expectationHolds(expect: Expectation | undefined, current: StoredItem | undefined): boolean {
  if (!expect) return true;
  if (expect.exists !== undefined && expect.exists !== (current !== undefined)) return false;
  return expect.revision === undefined || current?.revision === expect.revision;
}

/**
 * Runs a read-modify-write of one item as a compare-and-set: `write` gets the current state and the
 * expectation to pass to the store (the client's preconditions, narrowed to the revision just read).
 * When another writer got in between, it reads again: a client precondition that no longer holds is
 * 412, and otherwise (a write without preconditions, or one whose preconditions still hold) it tries
 * again after a short random wait, so an unconditional write is never 412. Past
 * CONTENTION_DEADLINE_MS since the first lost race the answer is 503 with Retry-After. Nothing is written by a
 * failed attempt. The first attempt may start from a record the answer memo kept or the one the last
 * write of the item on this instance left (`guessedItem`), either of which may be older
 * than the store when another instance has just changed the item: `verified` is then
 * false, and a `write` that would write nothing (so no compare-and-set would check it) throws
 * StoreError 'revision-mismatch' to have the store read first.
 *
 * @example
 * const { item } = await compareAndSet(ctx, type, id, expect, (current, cas) => store.put(type, data(current), { expect: cas }));
 * // A value rather than a promise where the store reads and writes without I/O.
 */
export function compareAndSet<T>(
  ctx: RequestContext,
  type: ResourceType,
  id: string,
  clientExpect: Expectation | undefined,
  write: (current: StoredItem | undefined, expect: Expectation, verified: boolean) => Awaitable<T>,
): Awaitable<T> {
  return attempt({ ctx, type, id, clientExpect, write, started: undefined }, 1);
}

/** What every attempt of one compare-and-set shares. */
interface Attempts<T> {
  ctx: RequestContext;
  type: ResourceType;
  id: string;
  clientExpect: Expectation | undefined;
  write: (current: StoredItem | undefined, expect: Expectation, verified: boolean) => Awaitable<T>;
  /** When the first race was lost (the clock is read then: most writes lose none). */
  started: number | undefined;
}

/**
 * One attempt: at once where nothing waits on I/O (a store that reads and writes without it, see
 * `readsNow` and `writesNow`), through promises otherwise.
 */
function attempt<T>(a: Attempts<T>, n: number): Awaitable<T> {
  const { ctx, type, id, clientExpect } = a;
  // The first attempt may start from a kept record the client's precondition holds for: the store's
  // compare-and-set still checks its revision. A kept record the precondition fails for may be older
  // than the client's ETag: the store decides.
  // Else the record this instance's last write of it left: a guess the compare-and-set checks.
  const kept = n === 1 ? guessedItem(ctx, type, id) : undefined;
  const fromKept = kept !== undefined && expectationHolds(clientExpect, kept);
  const now = ctx.config.readsNow;
  const read = fromKept ? kept : now !== undefined ? now.get(type, id) : readItem(ctx, type, id);
  return andThen(read, (current) => {
    if (!expectationHolds(clientExpect, current)) throw preconditionFailed();
    const expect: Expectation = current ? { revision: current.revision } : { exists: false };
    const lost = (error: unknown): Awaitable<T> => {
      if (!(error instanceof StoreError) || error.code !== 'revision-mismatch') throw error;
      // The kept record was older than the store: read it now (no other writer has been raced yet).
      if (fromKept) return attempt(a, n + 1);
      const at = Date.now();
      a.started ??= at;
      if (at - a.started > CONTENTION_DEADLINE_MS) {
        throw new HttpError(503, `Other writers kept changing ${type.title.toLowerCase()} "${id}"; nothing was written. Try again.`, {
          headers: { 'Retry-After': '1' },
          type: WRITE_CONTENTION,
        });
      }
      return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** n))).then(() => attempt(a, n + 1));
    };
    let written: Awaitable<T>;
    try {
      written = a.write(current, expect, !fromKept);
    } catch (error) {
      return lost(error);
    }
    return written instanceof Promise ? written.catch(lost) : written;
  });
}
