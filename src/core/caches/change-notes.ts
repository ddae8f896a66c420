// ChangeNotes: what the answer memo knows of the store's change notices, to tell what it kept from stale.
import type { ChangeLease, Changes } from '../../stores/contract.js';
import type { Dependencies } from '../respond/selected.js';

/** What a noted change costs (an id and its notice count in a map), counted in the memo's budget. */
export const CHANGE_BYTES = 64;

/**
 * The store's change notices as the memo reads them: a count of notices (`epoch`), the notice after
 * which each item last changed (by key), a floor before which changes are no longer told apart by item,
 * whether the store can tell changes at all (`blind` after `'unknown'` until `'all'`), and until when its
 * last lease vouches for them. Something read after notice `since` still holds while no item it shows was
 * noted after `since` and `since` is not below the floor.
 *
 * @example
 * const notes = new ChangeNotes(4 * 1024 * 1024);
 * const since = notes.epoch;
 * notes.tell(['player/alice'], true);
 * notes.holds('player/alice', since); // false
 */
export class ChangeNotes {
  #epoch = 0;
  readonly #changedAt = new Map<string, number>();
  #floor = 0;
  #blind = false;
  #trustUntil = Infinity;
  readonly #maxBytes: number;

  /** @param maxBytes the most bytes its notes may take; past it, a floor replaces them. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** The current notice count: what is read after it is recorded with it. */
  get epoch(): number {
    return this.#epoch;
  }

  /** True after an `'unknown'` notice until the next `'all'`: the store cannot tell changes. */
  get blind(): boolean {
    return this.#blind;
  }

  /** Until when (epoch ms) the last lease vouches for the notices; Infinity before any lease. */
  get trustUntil(): number {
    return this.#trustUntil;
  }

  /** The bytes its notes take. */
  get bytes(): number {
    return this.#changedAt.size * CHANGE_BYTES;
  }

  /**
   * Takes a notice. A lease only moves `trustUntil`; `'all'` and `'unknown'` raise the floor (and
   * `'unknown'` makes it blind, `'all'` sees again). Item keys are noted one by one when `byItem`
   * (something kept could be shown stale by them), else the floor is raised, which keeps out whatever
   * was being read. Returns true when everything kept before must go (`'all'`, `'unknown'`).
   */
  tell(changed: Changes, byItem: boolean): boolean {
    if (typeof changed === 'object' && !Array.isArray(changed)) {
      this.#trustUntil = (changed as ChangeLease).trustUntil;
      return false;
    }
    const epoch = ++this.#epoch;
    const everything = changed === 'all' || changed === 'unknown';
    if (changed === 'unknown') this.#blind = true;
    else if (changed === 'all') this.#blind = false;
    if (everything || !byItem || this.#changedAt.size * CHANGE_BYTES > this.#maxBytes) {
      this.#floor = epoch;
      if (this.#changedAt.size > 0) this.#changedAt.clear();
      if (everything || !byItem) return everything;
    }
    for (const id of changed as readonly string[]) this.#changedAt.set(id, epoch);
    return false;
  }

  /** Whether the item `key` read after notice `since` is unchanged as far as the notices tell. */
  holds(key: string, since: number): boolean {
    return !this.#blind && since >= this.#floor && (this.#changedAt.get(key) ?? 0) <= since;
  }

  /** Whether any item of `shows` (or any at all, for `'all'`) changed after notice `since`. */
  changedSince(shows: Dependencies, since: number): boolean {
    if (since < this.#floor) return true;
    if (shows === 'all') return this.#epoch > since;
    for (const id of shows) if ((this.#changedAt.get(id) ?? 0) > since) return true;
    return false;
  }
}
