// Query parameters and result rows of the PostgreSQL store: revisions, LIKE patterns, slices of lists.
import type { Relation } from '../../core/model/api.js';
import type { Slice } from '../contract.js';
import { toStoredItem, type ItemRow } from './statements.js';

/** A revision as the bigint parameter of a compare-and-set: one that cannot be a revision never matches. */
export function revisionParam(revision: string | undefined): string | null {
  if (revision === undefined) return null;
  return /^[1-9][0-9]{0,17}$/.test(revision) ? revision : '0';
}

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so the text matches literally, then wraps it in `%`. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A row of a slice: the member's columns (null when the list is empty), the list's total and the owner's columns. */
export interface SliceRow extends ItemRow {
  total: number;
  owner_id: string;
  /** The owner's data as jsonb text, parsed once (from the first row). */
  owner_data: string;
  owner_revision: string;
  owner_modified_ms: number;
}

/**
 * A slice of `relation`'s list from its rows, with its owner; undefined when the owner does not exist
 * (no row at all).
 *
 * @example
 * const slice = toSlice(friends, rows);
 */
export function toSlice(relation: Relation, rows: SliceRow[], countLimit = Infinity): Slice | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const target = relation.target;
  const items = rows.filter((r) => r.id !== null).map((r) => toStoredItem(target, r));
  const owner = toStoredItem(relation.owner, { id: first.owner_id, data: JSON.parse(first.owner_data) as Record<string, unknown>, revision: first.owner_revision, modified_ms: first.owner_modified_ms });
  const total = Number(first.total);
  // Past countLimit the statement read one match more than it counts: there are more than countLimit.
  return total > countLimit ? { items, total: countLimit, totalIsLowerBound: true, owner } : { items, total, owner };
}
