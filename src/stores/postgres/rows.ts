// Query parameters and result rows of the PostgreSQL store: revisions, LIKE patterns, friend slices.
import type { PlayerSlice } from '../contract.js';
import { toStoredPlayer, type PlayerRow } from './statements.js';

/** A revision as the bigint parameter of a compare-and-set: one that cannot be a revision never matches. */
export function revisionParam(revision: string | undefined): string | null {
  if (revision === undefined) return null;
  return /^[1-9][0-9]{0,17}$/.test(revision) ? revision : '0';
}

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so the text matches literally, then wraps it in `%`. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A row of a friends slice: the player's columns (null when the list is empty), the list's total and the owner's columns. */
export interface SliceRow extends PlayerRow {
  total: number;
  owner_id: string;
  owner_alias: string;
  owner_display_name: string | null;
  owner_image: string | null;
  owner_revision: string;
  owner_modified_ms: number;
}

/** A slice from its rows, with its owner; undefined when the owner does not exist (no row at all). */
export function toSlice(rows: SliceRow[], countLimit = Infinity): PlayerSlice | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const items = rows.filter((r) => r.player_id !== null).map(toStoredPlayer);
  const owner = toStoredPlayer({
    player_id: first.owner_id,
    alias: first.owner_alias,
    display_name: first.owner_display_name,
    image: first.owner_image,
    revision: first.owner_revision,
    modified_ms: first.owner_modified_ms,
  });
  const total = Number(first.total);
  // Past countLimit the statement read one match more than it counts: there are more than countLimit.
  return total > countLimit ? { items, total: countLimit, totalIsLowerBound: true, owner } : { items, total, owner };
}
