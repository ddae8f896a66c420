// AnswerMemo: the selected representations of GET and HEAD answers, kept until an item they show changes.
import type { RequestHead } from '../http/request-head.js';
import type { Changes, CurrentRecords } from '../../stores/contract.js';
import type { StoredItem } from '../model/documents.js';
import { dependenciesOf, type SelectedAnswers } from '../respond/selected.js';
import { keptBytes, keptCopy } from './kept-copy.js';
import { KeptRecords, type KeptPage, type SliceWindow } from './kept-records.js';
import { ChangeNotes } from './change-notes.js';
import { newKind, noteDropped, skipsKeeping, SPARSE_STRIDE, type Kind } from './answer-kinds.js';

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

/**
 * Complete GET and HEAD answers of the service, kept as selected representations by request (absolute
 * URL, Accept, Api-Version), so that a repeated read or revalidation is answered without reading the
 * store or rendering anything. An entry holds until an item it shows changes (the store tells:
 * `Store.watch`; `forget` notes when each item named changed, and a lookup finds an entry stale when an
 * item it shows changed after its reads: no index of who shows whom, only a lookup that answers pays
 * for its check) or a boundary passes (a version's sunset); the clock alone does not retire it, as Date
 * and Expires are written when an answer is made (`answerSelected`). Only anonymous requests are kept;
 * the service decides where keeping is exact (a store that tells, the system clock, no `trustProxy`).
 * Bounded by bytes; the oldest entries go first. While the last entries of a kind (a route) dropped
 * having answered too few lookups, as under frequent writes, only one computed answer of that kind in
 * SPARSE_STRIDE is kept, until its kept answers are used again (`noteDropped`).
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
  /** The store's change notices: what tells a kept answer or record from a stale one. */
  readonly #notes: ChangeNotes;
  #bytes = 0;
  #hits = 0;
  #misses = 0;
  /** By route template (see `record`). */
  readonly #kinds = new Map<string, Kind>();
  /** The bytes budget's share now in use: the budget shrinks with the kinds kept sparsely (see `record`). */
  #sparse = 0;
  /** Records read from the store and left by writes, by item key (`type/id`). */
  readonly #records: KeptRecords;

  /**
   * @param maxBytes the most bytes kept (bodies and an estimate of each entry's own cost).
   * @param boundaries instants (epoch ms) at which answers change with no write (a version's sunset).
   */
  constructor(maxBytes: number, boundaries: readonly number[] = []) {
    this.#maxBytes = maxBytes;
    this.#boundaries = [...boundaries].sort((a, b) => a - b);
    // Notes of changes take at most an eighth of the budget.
    this.#notes = new ChangeNotes(maxBytes / 8);
    this.#records = new KeptRecords(maxBytes, (key, since) => this.#notes.holds(key, since));
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
      if (now < entry.until && now < this.#notes.trustUntil && !this.#notes.blind && !this.#notes.changedSince(dependenciesOf(entry.selected), entry.since)) {
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
    return this.#notes.epoch;
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
    if (skipsKeeping(of)) return;
    if (this.#notes.blind || now >= this.#notes.trustUntil || this.#notes.changedSince(dependenciesOf(selected), since)) return;
    const bytes = keptBytes(key, selected);
    if (bytes * 4 > this.#maxBytes) return;
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    this.#entries.set(key, { selected: keptCopy(selected), kind: of, until: this.#boundaries.find((boundary) => boundary > now) ?? Infinity, bytes, hits: 0, since });
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
   * Notes that the `changed` items changed (every entry showing one of them, or showing any, no longer
   * answers), or forgets every entry for `'all'` and `'unknown'` (then nothing is kept until `'all'`):
   * what a store's change notice calls; one note per item named. The records told current with it
   * (`CurrentRecords`) are kept, and the pages their write left as they were hold on (`KeptRecords.handOn`).
   *
   * @example
   * store.watch((changed, current) => memo.forget(changed, current));
   */
  forget(changed: Changes, current?: CurrentRecords): void {
    // While nothing is kept that a change could make stale (under writes alone, as a rule), a floor keeps
    // out the answers being computed instead of a note by item, and handed records are not kept.
    const keeping = this.keepsReads;
    if (current === undefined || !keeping) this.#note(changed, keeping);
    else this.#records.handOn(current, () => (this.#note(changed, true) ? undefined : this.#notes.epoch));
  }

  /** Whether it keeps what a change could make stale (answers, read records): else handed records are not kept. */
  get keepsReads(): boolean {
    return this.#entries.size > 0 || this.#records.holdsReads;
  }

  /** Notes a notice (item by item when `byItem`); true when everything kept went. */
  #note(changed: Changes, byItem: boolean): boolean {
    if (!this.#notes.tell(changed, byItem)) return false;
    this.#entries.clear();
    this.#records.clear();
    this.#bytes = 0;
    return true;
  }

  /**
   * Whether what the store told can be trusted at `now`: no lease told yet, or the last one holds
   * (see `ChangeLease`). /readyz reports it.
   *
   * @example
   * memo.trusted(Date.now()); // false while a database's change feed is not known to be live
   */
  trusted(now: number): boolean {
    return !this.#notes.blind && now < this.#notes.trustUntil;
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
    return Date.now() < this.#notes.trustUntil ? this.#records.kept(key) : undefined;
  }

  /**
   * Keeps (a copy of) an item's record read from the store after the change notice count `since`
   * (`epoch` before the read), unless a change of that item was told since: for a store whose reads
   * cost a round trip and make a new record each time (PostgreSQL), a read of an item the memo has no
   * answer for (another format, a write's current state) is then answered from it. At most 10,000
   * are kept, and no more than an eighth of the budget's bytes (`KeptRecords`). Returns the record to
   * use: the one kept (the same object for every read of an unchanged item), else `record`.
   *
   * @example
   * const since = memo.epoch;
   * const read = await store.get(type, 'alice');
   * const stored = read && memo.keepRecord('player/alice', read, since);
   */
  keepRecord(key: string, record: StoredItem, since: number): StoredItem {
    return this.#records.keep(key, record, since);
  }

  /**
   * A page kept by `keepPage` (by owner, relation, window) while its owner and members hold (`keptRecord`).
   * @example
   * const page = memo.keptPage('player/alice\nfriends\n0\n10');
   */
  keptPage(key: string): KeptPage | undefined {
    return Date.now() < this.#notes.trustUntil ? this.#records.keptSlice(key) : undefined;
  }

  /**
   * Keeps the membership of a page read after the change notice count `since` (its members' records
   * are kept by `keepRecord`), unless its owner changed since: its owner's revision changes with every
   * change of its lists, so the same read lists the same members while the owner holds.
   * @example
   * memo.keepPage('player/alice\nfriends\n0\n10', 'player/alice', { relation: 'friends', offset: 0, limit: 10 }, ['player/bob'], 1, since);
   */
  keepPage(key: string, ownerKey: string, window: SliceWindow, memberKeys: readonly string[], total: number, since: number): void {
    this.#records.keepSlice(key, ownerKey, window, memberKeys, total, since);
  }

  /**
   * Notes the record a write of this instance left, by item key, whether or not the store's notices are
   * heard: the next read-modify-write of that item starts from it (`writtenRecord`), a guess it checks.
   *
   * @example
   * memo.noteWritten('player/alice', stored);
   */
  noteWritten(key: string, record: StoredItem): void {
    this.#records.noteWritten(key, record);
  }

  /**
   * The record the last write of an item on this instance left, whatever changed since: never what a
   * read answers, only a compare-and-set's guess, which the store's revision check confirms or refutes.
   *
   * @example
   * const guess = memo.writtenRecord('player/alice');
   */
  writtenRecord(key: string): StoredItem | undefined {
    return this.#records.written(key);
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
    return this.#records.bytes + this.#notes.bytes;
  }

  /** One answer in how many of a kind is kept now (for tests and monitoring). */
  strideOf(kind: string): number {
    return this.#kinds.get(kind)?.stride ?? 1;
  }

  #kindOf(name: string): Kind {
    let kind = this.#kinds.get(name);
    if (kind === undefined) this.#kinds.set(name, (kind = newKind()));
    return kind;
  }

  /** Drops an entry that will not answer again (stale, or evicted for room), counting whether it ever did. */
  #drop(key: string, entry: MemoEntry): void {
    this.#remove(key, entry);
    this.#sparse += noteDropped(entry.kind, entry.hits);
  }

  #remove(key: string, entry: MemoEntry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}
