// The change notices a store tells its watchers (see Store.watch): what changed, the records it left, leases.
import type { StoredItem } from '../core/model/documents.js';

/**
 * A store's promise about time, for a store whose notices travel (a database's change feed): every
 * change committed before `trustUntil - staleness` has been told, so what was kept may be trusted
 * until `trustUntil` (epoch ms, `Date.now()`'s clock). Once a store has told a lease, kept answers
 * are not used past its `trustUntil` until the next lease: a feed lost without a sign (a connection
 * black-holed by a NAT) stops being trusted on its own. A store that tells no lease is trusted while
 * it tells changes (an in-process store hears every write).
 *
 * @example
 * const lease: ChangeLease = { trustUntil: Date.now() + 2000 };
 */
export interface ChangeLease {
  readonly trustUntil: number;
}

/**
 * What a store's change notice names: the keys of the items whose state changed (`<type>/<id>`, see
 * `itemKey`), `'all'` (anything may have changed; the store tells again from now on), `'unknown'` (the
 * store can no longer tell, e.g. its change feed from the database is down: keep nothing until its
 * next `'all'`), or a lease (see `ChangeLease`: until when what was told is known to be complete).
 *
 * @example
 * const changed: Changes = ['player/alice', 'player/bob'];
 */
export type Changes = readonly string[] | 'all' | 'unknown' | ChangeLease;

/**
 * Records a store may tell beside a change notice (`records`, by item key, see `itemKey`): each the
 * item's state as of that notice, what a read of it would return until a later notice names it. A store
 * tells them with the notice of a write it made itself (the records the write left, or read in its
 * transaction), so that whoever keeps records for reads (the answer memo) need not read them again.
 * `lists` says what the write did to those items' lists, when the store knows: `'unchanged'` (it changed
 * fields only, a put), or one member appended to one list (`ListAppend`, the others unchanged); the
 * members of those lists read before are then still their members, up to the old end of the one appended to.
 *
 * @example
 * const current: CurrentRecords = { records: new Map([['player/alice', stored]]), lists: 'unchanged' };
 */
export interface CurrentRecords {
  readonly records: ReadonlyMap<string, StoredItem>;
  readonly lists?: 'unchanged' | ListAppend;
}

/**
 * One member appended at the end of the list of `relation` of the item `owner` (its key), which has
 * `total` members after it.
 *
 * @example
 * const append: ListAppend = { owner: 'player/alice', relation: 'friends', total: 51 };
 */
export interface ListAppend {
  readonly owner: string;
  readonly relation: string;
  readonly total: number;
}

/**
 * What `Store.watch` calls with each change notice, and the records current as of it when the store
 * knows them (`CurrentRecords`). It may carry `wantsRecords`: while it answers false (the listener
 * keeps nothing a record would serve), a store may skip the work of handing records on.
 *
 * @example
 * const listener: ChangeListener = Object.assign((changed: Changes, current?: CurrentRecords) => memo.forget(changed, current), { wantsRecords: () => memo.keepsReads });
 */
export type ChangeListener = ((changed: Changes, current?: CurrentRecords) => void) & { wantsRecords?: () => boolean };
