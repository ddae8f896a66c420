// WriteEchoes: which notices the change feed hears are the echo of this instance's own writes (told
// already, as they committed), and which records a write left are still current when it is told.
import type { StoredItem } from '../../core/model/documents.js';

/** The most echoes awaited, and notices remembered by item; past it, the oldest tenth goes. */
const MOST = 4096;

/**
 * A write of this instance in flight: the count of notices heard when it began, the items it writes,
 * and the notices held until it ends.
 *
 * @example
 * const ticket: WriteTicket = echoes.begin(['player/alice', 'player/bob']);
 */
export interface WriteTicket {
  readonly mark: number;
  readonly keys: readonly string[];
  readonly held: HeldNotice[];
  ended: boolean;
}

/** A notice heard while a write of the same item was in flight: told (or not) once they all ended. */
interface HeldNotice {
  key: string;
  revision: string;
  waiting: number;
  /** When it was heard (epoch ms): a notice is held for a moment only (`releaseHeld`). */
  at: number;
  /** Its place among the notices held, in the order heard (`settled`). */
  seq: number;
  released: boolean;
}

/**
 * The feed's memory of its notices, by item. A write of this instance is told when it commits, with the
 * records it left; its NOTIFY comes back on the listening connection, before or after the write's own
 * answer, and would tell it again, dropping what was read since. So:
 *
 * - A notice naming an item a write of this instance is writing is held until those writes end
 *   (`begin`, `end`): it may be the echo of one of them.
 * - Each record a write tells notes its item's revision as an awaited echo: the first notice naming
 *   that very revision is the echo (revisions are never reused, the Store contract) and is not told.
 *   Every write's echo is awaited, by item and revision: an echo that arrives after a later write of
 *   the same item ended (a loaded machine delivers NOTIFY late) is still known.
 * - Any other notice is told, and remembered with its count: a record is handed on as current only when
 *   no notice naming its item was heard since the write began, but echoes: one heard meanwhile may be
 *   of a later change, committed after the write and heard before the write's own answer arrived.
 *
 * A lease the feed earns while notices are held waits until those are told (`lastHeld`, `settled`),
 * so the staleness bound holds; notices held later do not hold it back, and none is held longer than
 * a moment (`releaseHeld`: a quarter of the staleness bound), however long its write takes.
 *
 * @example
 * const echoes = new WriteEchoes();
 * const ticket = echoes.begin(['player/alice']);
 * // ... the write commits, leaving `record` of player/alice at revision 42
 * echoes.end(ticket, new Map([['player/alice', record]])).current; // the map: current
 * echoes.heard('player/alice', '42'); // 'echo': not told again
 */
export class WriteEchoes {
  /** The echoes awaited, as `key\nrevision`, oldest first. */
  readonly #awaited = new Set<string>();
  readonly #heardAt = new Map<string, number>();
  /** The writes in flight (as many as the pool's connections, at most). */
  readonly #writing: WriteTicket[] = [];
  /** The notices held, in the order heard (released ones leave from the front, see `settled`). */
  readonly #queue: HeldNotice[] = [];
  #heldSeq = 0;
  #heard = 0;
  /** Notices heard after this count may have been forgotten. */
  #floor = 0;

  /** Whether a notice is held (the lease waits for it). */
  get holding(): boolean {
    return !this.settled(Infinity);
  }

  /** The place of the last notice held so far: a lease earned now waits until it is `settled`. */
  get lastHeld(): number {
    return this.#heldSeq;
  }

  /** Whether every notice held up to place `upTo` (`lastHeld`) has been told or dropped. */
  settled(upTo: number): boolean {
    const queue = this.#queue;
    while (queue.length > 0 && queue[0]!.released) queue.shift();
    for (const held of queue) if (!held.released && held.seq <= upTo) return false;
    return true;
  }

  /** A write of the items `keys` begins: notices naming them are held until it ends (`end`). */
  begin(keys: readonly string[]): WriteTicket {
    const ticket: WriteTicket = { mark: this.#heard, keys, held: [], ended: false };
    this.#writing.push(ticket);
    return ticket;
  }

  /**
   * A notice naming `key` at `revision` (empty when it names none) was heard: `'hold'` while a write of
   * that item is in flight (`end` gives it back), `'echo'` for the echo of a write told already, else
   * `'tell'` (it is remembered). `seq`: its place among the notices held, when it was held before.
   */
  heard(key: string, revision: string, seq = 0): 'hold' | 'echo' | 'tell' {
    if (revision !== '' && this.#awaited.delete(`${key}\n${revision}`)) return 'echo';
    let held: HeldNotice | undefined;
    for (const ticket of this.#writing) {
      if (!ticket.keys.includes(key)) continue;
      held ??= { key, revision, waiting: 0, at: Date.now(), seq: 0, released: false };
      held.waiting++;
      ticket.held.push(held);
    }
    if (held !== undefined) {
      held.seq = seq || ++this.#heldSeq;
      this.#queue.push(held);
      return 'hold';
    }
    this.#remember(key);
    return 'tell';
  }

  /**
   * Lets go of the notices held since before `before` (epoch ms), whose writes are slow (waiting for a
   * lock, say): returns the keys to tell now, echoes left out. The writes they waited for then hand
   * nothing of those items on. So a slow write never holds the feed's lease for long.
   */
  releaseHeld(before: number): string[] {
    const release: string[] = [];
    for (const held of this.#queue) {
      if (held.released || held.at >= before) continue;
      held.released = true;
      if (held.revision === '' || !this.#awaited.delete(`${held.key}\n${held.revision}`)) {
        this.#remember(held.key);
        release.push(held.key);
      }
    }
    return release;
  }

  /** A notice told: remembered with its count, so that a write in flight hands nothing of its item on. */
  #remember(key: string): void {
    this.#heardAt.delete(key);
    this.#heardAt.set(key, ++this.#heard);
    if (this.#heardAt.size > MOST) {
      for (const [old, at] of this.#heardAt) {
        if (this.#heardAt.size <= MOST * 0.9) break;
        this.#heardAt.delete(old);
        this.#floor = at;
      }
    }
  }

  /**
   * The write of `ticket` ended: committed, leaving (or reading) `records` by item key, or failed
   * (none). Awaits the records' echoes, and returns those of `handOn` still current (no notice naming
   * the item heard since it began but echoes, nor any forgotten), and the keys of the notices it held
   * that are now to be told, after it (echoes left out).
   */
  end(ticket: WriteTicket, records?: ReadonlyMap<string, StoredItem>, handOn?: string): { current?: Map<string, StoredItem>; release: string[] } {
    if (ticket.ended) return { release: [] };
    ticket.ended = true;
    const at = this.#writing.indexOf(ticket);
    if (at >= 0) this.#writing.splice(at, 1);
    let current: Map<string, StoredItem> | undefined;
    if (records !== undefined) {
      for (const [key, record] of records) this.#awaited.add(`${key}\n${record.revision}`);
      for (const [key, record] of records) {
        if (handOn !== undefined && key !== handOn) continue;
        if (ticket.mark < this.#floor || (this.#heardAt.get(key) ?? 0) > ticket.mark) continue;
        if (ticket.held.some((h) => h.key === key && !h.released && !this.#awaited.has(`${key}\n${h.revision}`))) continue;
        (current ??= new Map()).set(key, record);
      }
      this.#trimAwaited();
    }
    const release: string[] = [];
    for (const held of ticket.held) {
      if (held.released || --held.waiting > 0) continue;
      held.released = true;
      // Held again, in its place, when a write of its item began since.
      if (this.heard(held.key, held.revision, held.seq) === 'tell') release.push(held.key);
    }
    return { current, release };
  }

  /** Forgets everything (the feed listens anew): no write begun before is current when told. */
  clear(): void {
    this.#awaited.clear();
    this.#heardAt.clear();
    for (const ticket of this.#writing) ticket.held.length = 0;
    this.#queue.length = 0;
    this.#floor = ++this.#heard;
  }

  #trimAwaited(): void {
    if (this.#awaited.size <= MOST) return;
    let excess = this.#awaited.size - MOST * 0.9;
    for (const old of this.#awaited.keys()) {
      if (excess-- <= 0) break;
      this.#awaited.delete(old);
    }
  }
}
