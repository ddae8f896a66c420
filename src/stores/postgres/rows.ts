// Query parameters and result rows of the PostgreSQL store: revisions, LIKE patterns, slices of lists.
import type { Relation } from '../../core/model/api.js';
import type { Slice } from '../contract.js';
import { toStoredItem } from './statements.js';

/** A revision as the bigint parameter of a compare-and-set: one that cannot be a revision never matches. */
export function revisionParam(revision: string | undefined): string | null {
  if (revision === undefined) return null;
  return /^[1-9][0-9]{0,17}$/.test(revision) ? revision : '0';
}

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so the text matches literally, then wraps it in `%`. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The one row of a slice: the list's total, the owner's columns and the members (see `membersArray`). */
export interface SliceRow {
  total: number;
  owner_id: string;
  /** The owner's data as jsonb text. */
  owner_data: string;
  owner_revision: string;
  owner_modified_ms: number;
  /** `[id, data, revision, modified_ms]` of each member in list order; null for none. */
  members: [string, Record<string, unknown>, string, number][] | null;
}

/**
 * A slice of `relation`'s list from its row, with its owner; undefined when the owner does not exist
 * (no row).
 *
 * @example
 * const slice = toSlice(friends, rows);
 */
export function toSlice(relation: Relation, rows: SliceRow[], countLimit = Infinity): Slice | undefined {
  const row = rows[0];
  if (row === undefined) return undefined;
  const target = relation.target;
  const items = (row.members ?? []).map(([id, data, revision, modified_ms]) => toStoredItem(target, { id, data, revision, modified_ms }));
  const owner = toStoredItem(relation.owner, { id: row.owner_id, data: JSON.parse(row.owner_data) as Record<string, unknown>, revision: row.owner_revision, modified_ms: row.owner_modified_ms });
  const total = Number(row.total);
  // Past countLimit the statement read one match more than it counts: there are more than countLimit.
  return total > countLimit ? { items, total: countLimit, totalIsLowerBound: true, owner } : { items, total, owner };
}
