// Whether keeping answers pays, kind by kind (a kind is a route: an item, a page of a list...).

/**
 * How keeping pays for one kind of answer: kinds differ, as under writes an item's own answer may be
 * asked again before it changes while a page that shows ten items rarely is, so each kind is kept
 * densely or sparsely on its own record.
 *
 * @example
 * const kind = newKind(); // kept densely until its dropped answers show they went unused
 */
export interface Kind {
  /** The lookups its entries dropped in the current window had answered (each counted up to HIT_CAP), and how many were dropped. */
  hits: number;
  drops: number;
  /** Keep one computed answer of this kind in this many (1: all). */
  stride: number;
  sinceKept: number;
}

/** After this many entries were dropped, whether they had answered anything decides how much is kept. */
const USEFULNESS_WINDOW = 256;
/**
 * A kept answer pays when it answers at least this many lookups on average before it is dropped: one
 * hit saves a computed answer, but keeping costs too (its objects outlive the young generation, and
 * its 200 is made again each second with that second's Date), about as much as one computed answer.
 */
const MIN_HITS = 2;
/** One entry's hits count up to this many in its kind's window: a few hot answers do not hide many unused ones. */
const HIT_CAP = 8;
/** When a kind's dropped entries answered fewer than MIN_HITS lookups each on average, only one answer in this many is kept. */
export const SPARSE_STRIDE = 64;

/**
 * A kind with nothing known yet: kept densely.
 *
 * @example
 * kinds.set('/player/{id}', newKind());
 */
export function newKind(): Kind {
  return { hits: 0, drops: 0, stride: 1, sinceKept: 0 };
}

/**
 * Whether a computed answer of the kind is let go unkept: while the kind is kept sparsely, all but one
 * in SPARSE_STRIDE (counted here).
 *
 * @example
 * if (skipsKeeping(kind)) return;
 */
export function skipsKeeping(kind: Kind): boolean {
  if (kind.stride > 1 && ++kind.sinceKept < kind.stride) return true;
  kind.sinceKept = 0;
  return false;
}

/**
 * Counts an entry of the kind dropped after answering `hits` lookups. At the end of each window of
 * USEFULNESS_WINDOW drops, the kind is kept densely again if its entries answered MIN_HITS lookups
 * each on average, else sparsely. Returns how the number of sparse kinds changed (-1, 0 or 1).
 *
 * @example
 * sparseKinds += noteDropped(kind, entry.hits);
 */
export function noteDropped(kind: Kind, hits: number): -1 | 0 | 1 {
  kind.hits += Math.min(hits, HIT_CAP);
  if (++kind.drops < USEFULNESS_WINDOW) return 0;
  const stride = kind.hits < kind.drops * MIN_HITS ? SPARSE_STRIDE : 1;
  const change = stride === kind.stride ? 0 : stride > 1 ? 1 : -1;
  kind.stride = stride;
  kind.hits = 0;
  kind.drops = 0;
  return change;
}
