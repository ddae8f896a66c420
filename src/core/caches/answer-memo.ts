// AnswerMemo: the selected representations of GET and HEAD answers, kept until an item they show changes.
import type { RequestHead } from '../http/request-head.js';
import type { ChangeLease, Changes } from '../../stores/contract.js';
import type { StoredItem } from '../model/documents.js';
import { dependenciesOf, type SelectedAnswers } from '../respond/selected.js';
import { keptBytes, keptCopy } from './kept-copy.js';

/**
 * How keeping pays for one kind of answer (one route: an item, a page of a list...): kinds differ, as
 * under writes an item's own answer may be asked again before it changes while a page that shows ten
 * items rarely is, so each kind is kept densely or sparsely on its own record.
 */
interface Kind {
  /** The lookups its entries dropped in the current window had answered (each counted up to HIT_CAP), and how many were dropped. */
  hits: number;
  drops: number;
  /** Keep one computed answer of this kind in this many (1: all). */
  stride: number;
  sinceKept: number;
}

interface MemoEntry {
  selected: SelectedAnswers;
  kind: Kind;
  /** Until when (epoch ms) the entry may answer: the next boundary (a version's sunset), or Infinity. */
  until: number;
  bytes: number;
  /** How many lookups it answered. */
  hits: number;
  /** The change notice count its reads were made after: it holds while no item it shows changed since. */
  since: number;
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
const SPARSE_STRIDE = 64;

/** The most records kept (`keepRecord`), whatever the budget; past it, the oldest tenth goes. */
const MAX_PLAYERS = 10_000;
/** What a kept record costs (its copy, its strings, its slot), counted in the budget. */
const PLAYER_BYTES = 384;
/** What a noted change costs (an id and its notice count in a map), counted in the budget. */
const CHANGE_BYTES = 64;

/**
 * Complete GET and HEAD answers of the service, kept as selected representations by request (absolute
 * URL, Accept, Api-Version), so that a repeated read or revalidation is answered without reading the
 * store or rendering anything. An entry holds until an item it shows changes (the store tells:
 * `Store.watch`; `forget` notes when each item named changed, and a lookup finds an entry
 * stale when an item it shows changed after its reads: keeping and forgetting cost no index of who
 * shows whom, only a lookup that answers pays for its check) or a boundary passes (a version's
 * sunset, when its URLs start to redirect); the clock alone does not retire it, as Date and Expires
 * are written when an answer is made (`answerSelected`). Only anonymous requests
 * are kept (Authorization runs the `authenticate` hook); the service decides where keeping is exact
 * (a store that tells, the system clock, no `trustProxy`). Bounded by bytes; the oldest entries go
 * first. It keeps fewer answers of a kind (a route) while keeping them does not pay: when the last
 * USEFULNESS_WINDOW entries of that kind dropped (by a change or for room) answered fewer than MIN_HITS
 * lookups each on average, as under frequent writes, only one computed answer of the kind in
 * SPARSE_STRIDE is kept, until its kept answers are used again; the other kinds are kept as before.
 *
 * @example
 * const memo = new AnswerMemo(32 * 1024 * 1024);
 * const key = memo.keyFor(head);
 * const selected = key && memo.lookup(key, Date.now()); // else compute, then memo.record(key, ctx.selected, Date.now(), since, route)
 */
export class AnswerMemo {
  readonly #entries = new Map<string, MemoEntry>();
  readonly #maxBytes: number;
  readonly #boundaries: readonly number[];
  /** A count of change notices, and the notice after which each item (by key) last changed. */
  #epoch = 0;
  readonly #changedAt = new Map<string, number>();
  /** Notices at or before it are no longer told apart by item (the map above was emptied). */
  #floor = 0;
  /** True after an `'unknown'` notice until the next `'all'`: the store cannot tell changes, keep nothing. */
  #blind = false;
  /** Until when (epoch ms) the store's last lease vouches for its notices (`ChangeLease`); Infinity before any. */
  #trustUntil = Infinity;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  /** By route template (see `record`). */
  readonly #kinds = new Map<string, Kind>();
  /** The bytes budget's share now in use: the budget shrinks with the kinds kept sparsely (see `record`). */
  #sparse = 0;
  /** Records read from the store, by item key (`type/id`), with the change notice count their read was made after. */
  readonly #records = new Map<string, { record: StoredItem; since: number }>();
  /** The record each recent write left, by item key: a compare-and-set's first guess (`writtenRecord`). */
  readonly #written = new Map<string, StoredItem>();

  /**
   * @param maxBytes the most bytes kept (bodies and an estimate of each entry's own cost).
   * @param boundaries instants (epoch ms) at which answers change with no write, such as a version's
   *   sunset: no entry outlives the next one after it was made.
   */
  constructor(maxBytes: number, boundaries: readonly number[] = []) {
    this.#maxBytes = maxBytes;
    this.#boundaries = [...boundaries].sort((a, b) => a - b);
  }

  /**
   * The key of a request whose answer may be kept, or undefined (not GET or HEAD, or with
   * Authorization). Everything besides the URL that chooses the answer is in it: the format (Accept)
   * and the version asked by header.
   *
   * @example
   * memo.keyFor({ method: 'GET', url, headers }); // 'https://x.test/player/alice\napplication/hal+json\n'
   */
  keyFor(head: RequestHead): string | undefined {
    const method = head.method;
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const headers = head.headers;
    if (headers.has('authorization')) return undefined;
    return `${head.url}\n${headers.get('accept') ?? ''}\n${headers.get('api-version') ?? ''}`;
  }

  /**
   * The selected representation kept for `key` when it still holds at `now`; the caller answers the
   * request from it with `answerSelected`.
   *
   * @example
   * const selected = memo.lookup(key, Date.now());
   */
  lookup(key: string, now: number): SelectedAnswers | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      if (now < entry.until && now < this.#trustUntil && !this.#blind && !this.#changedSince(entry.selected, entry.since)) {
        this.#hits++;
        entry.hits++;
        return entry.selected;
      }
      this.#drop(key, entry);
    }
    this.#misses++;
    return undefined;
  }

  /**
   * The current change notice count: an answer computed from reads made after it is recorded with it
   * (`record`'s `since`), so that a change told while the answer was being computed keeps it out.
   *
   * @example
   * const since = memo.epoch;
   */
  get epoch(): number {
    return this.#epoch;
  }

  /**
   * Keeps the selected representation computed for `key` at `now` from reads made since the change
   * notice count `since` (as a copy of its own, see `keptCopy`): not when an item it shows changed since (its reads may
   * predate the change), nor when it is larger than a quarter of the budget. `kind` names the kind of
   * answer (the route's template): while the kept answers of a kind go unused, as when what they show
   * changes faster than they are asked again, only one answer of that kind in SPARSE_STRIDE is kept.
   *
   * @example
   * memo.record(key, ctx.selected, Date.now(), since, '/player/{id}');
   */
  record(key: string, selected: SelectedAnswers, now: number, since: number, kind = ''): void {
    const of = this.#kindOf(kind);
    // The cheap test first: while keeping does not pay, most answers are not even looked at.
    if (of.stride > 1 && ++of.sinceKept < of.stride) return;
    of.sinceKept = 0;
    if (this.#blind || now >= this.#trustUntil || this.#changedSince(selected, since)) return;
    const bytes = keptBytes(key, selected);
    if (bytes * 4 > this.#maxBytes) return;
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    this.#entries.set(key, { selected: keptCopy(selected), kind: of, until: this.#nextBoundary(now), bytes, hits: 0, since });
    this.#bytes += bytes;
    // Map keeps insertion order: the first keys are the oldest. Past the budget, a tenth of it is
    // freed at once: a Map walked from its start after deletions first steps over their holes, so
    // evicting one entry per record would walk them every time.
    // While no kind's keeping pays, the budget shrinks with the share kept: bodies held for nothing
    // cost the garbage collector (their bytes count toward when it runs) more than they ever save.
    const budget = Math.min(this.#sparse === this.#kinds.size ? this.#maxBytes / SPARSE_STRIDE : this.#maxBytes, this.#maxBytes - this.#reserved());
    if (this.#bytes <= budget) return;
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= budget * 0.9) break;
      this.#drop(oldKey, old);
    }
  }

  /**
   * Notes that the `changed` items changed (every entry showing one of them, or showing any, no
   * longer answers), or forgets every entry for `'all'` and `'unknown'` (after which nothing is kept
   * until the next `'all'`): what a store's change notice calls. Costs one note per item named.
   *
   * @example
   * store.watch((changed) => memo.forget(changed));
   */
  forget(changed: Changes): void {
    if (typeof changed === 'object' && !Array.isArray(changed)) {
      // A lease changes nothing kept, only until when it may be used.
      this.#trustUntil = (changed as ChangeLease).trustUntil;
      return;
    }
    const epoch = ++this.#epoch;
    if (changed === 'unknown') this.#blind = true;
    else if (changed === 'all') this.#blind = false;
    if (changed === 'all' || changed === 'unknown' || this.#changedAt.size * CHANGE_BYTES > this.#maxBytes / 8) {
      // Beyond a bound, changes are no longer told apart by item: anything computed before is stale.
      this.#floor = epoch;
      this.#changedAt.clear();
    }
    if (changed === 'all' || changed === 'unknown') {
      this.#entries.clear();
      this.#records.clear();
      this.#written.clear();
      this.#bytes = 0;
      return;
    }
    for (const id of changed as readonly string[]) this.#changedAt.set(id, epoch);
  }

  /**
   * Whether what the store told can be trusted at `now`: no lease told yet, or the last one holds
   * (see `ChangeLease`). /readyz reports it.
   *
   * @example
   * memo.trusted(Date.now()); // false while a database's change feed is not known to be live
   */
  trusted(now: number): boolean {
    return !this.#blind && now < this.#trustUntil;
  }

  /**
   * The record of an item kept by `keepRecord` (by its key, `type/id`), while no change of that item was
   * told since its read: what the store would answer now, without asking it. Shared: never changed by
   * the caller.
   *
   * @example
   * const stored = memo.keptRecord('player/alice') ?? (await store.get(type, 'alice'));
   */
  keptRecord(key: string): StoredItem | undefined {
    const kept = this.#records.get(key);
    if (kept === undefined) return undefined;
    if (!this.#blind && Date.now() < this.#trustUntil && kept.since >= this.#floor && (this.#changedAt.get(key) ?? 0) <= kept.since) return kept.record;
    this.#records.delete(key);
    return undefined;
  }

  /**
   * Keeps (a copy of) an item's record read from the store after the change notice count `since`
   * (`epoch` before the read), unless a change of that item was told since: for a store whose reads
   * cost a round trip and make a new record each time (PostgreSQL), a read of an item the memo has no
   * answer for (another format, a write's current state) is then answered from it. At most
   * MAX_PLAYERS are kept, and no more than an eighth of the budget's bytes.
   *
   * @example
   * const since = memo.epoch;
   * const stored = await store.get(type, 'alice');
   * if (stored) memo.keepRecord('player/alice', stored, since);
   */
  keepRecord(key: string, record: StoredItem, since: number): void {
    if (this.#blind || since < this.#floor || (this.#changedAt.get(key) ?? 0) > since) return;
    this.#records.delete(key);
    this.#records.set(key, { record: { ...record }, since });
    const most = Math.min(MAX_PLAYERS, Math.floor(this.#maxBytes / 8 / PLAYER_BYTES));
    if (this.#records.size <= most) return;
    let excess = Math.max(1, most / 10);
    for (const oldId of this.#records.keys()) {
      if (excess-- <= 0) break;
      this.#records.delete(oldId);
    }
  }

  /**
   * Notes the record a write of this instance left (the store's answer to it), by item key: the next
   * read-modify-write of that item starts from it (`writtenRecord`) instead of reading the store. Bounded
   * as kept records are (MAX_PLAYERS, an eighth of the budget), the oldest going first.
   *
   * @example
   * memo.noteWritten('player/alice', stored);
   */
  noteWritten(key: string, record: StoredItem): void {
    if (this.#blind) return;
    this.#written.delete(key);
    this.#written.set(key, record);
    const most = Math.min(MAX_PLAYERS, Math.floor(this.#maxBytes / 8 / PLAYER_BYTES));
    if (this.#written.size <= most) return;
    let excess = Math.max(1, most / 10);
    for (const oldKey of this.#written.keys()) {
      if (excess-- <= 0) break;
      this.#written.delete(oldKey);
    }
  }

  /**
   * The record the last write of an item on this instance left (`noteWritten`), whatever changed since:
   * not what a read may answer (another instance may have written since; its own change notice drops
   * kept records, not this), only a guess for a compare-and-set, which the store's revision check
   * confirms or refutes. A write that followed a write needs no read then when nothing came between.
   *
   * @example
   * const guess = memo.writtenRecord('player/alice');
   */
  writtenRecord(key: string): StoredItem | undefined {
    return this.#blind ? undefined : this.#written.get(key);
  }

  /**
   * The number of answers kept, the bytes counted for everything kept (answers, item records, noted
   * changes), how lookups went, and one answer in how many is kept now (for tests and monitoring).
   */
  get stats(): { size: number; bytes: number; hits: number; misses: number; stride: number } {
    let stride = 1;
    for (const kind of this.#kinds.values()) stride = Math.max(stride, kind.stride);
    return { size: this.#entries.size, bytes: this.#bytes + this.#reserved(), hits: this.#hits, misses: this.#misses, stride };
  }

  /** The budget's share held by kept and written records and noted changes (at most an eighth each). */
  #reserved(): number {
    return (this.#records.size + this.#written.size) * PLAYER_BYTES + this.#changedAt.size * CHANGE_BYTES;
  }

  /** One answer in how many of a kind is kept now (for tests and monitoring). */
  strideOf(kind: string): number {
    return this.#kinds.get(kind)?.stride ?? 1;
  }

  #kindOf(name: string): Kind {
    let kind = this.#kinds.get(name);
    if (kind === undefined) this.#kinds.set(name, (kind = { hits: 0, drops: 0, stride: 1, sinceKept: 0 }));
    return kind;
  }

  #changedSince(selected: SelectedAnswers, since: number): boolean {
    if (since < this.#floor) return true;
    const shows = dependenciesOf(selected);
    if (shows === 'all') return this.#epoch > since;
    for (const id of shows) if ((this.#changedAt.get(id) ?? 0) > since) return true;
    return false;
  }

  #nextBoundary(now: number): number {
    for (const boundary of this.#boundaries) if (boundary > now) return boundary;
    return Infinity;
  }

  /** Drops an entry that will not answer again (stale, or evicted for room), counting whether it ever did. */
  #drop(key: string, entry: MemoEntry): void {
    this.#remove(key, entry);
    const kind = entry.kind;
    kind.hits += Math.min(entry.hits, HIT_CAP);
    if (++kind.drops < USEFULNESS_WINDOW) return;
    const stride = kind.hits < kind.drops * MIN_HITS ? SPARSE_STRIDE : 1;
    if (stride !== kind.stride) this.#sparse += stride > 1 ? 1 : -1;
    kind.stride = stride;
    kind.hits = 0;
    kind.drops = 0;
  }

  #remove(key: string, entry: MemoEntry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
