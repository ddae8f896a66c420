// Several friends added to or removed from one list in one transaction (JSON:API relationship writes).
import type { PoolClient } from 'pg';
import { StoreError, type Expectation, type FriendsChange } from '../contract.js';
import type { StoredPlayer } from '../../player/player.js';
import { quoteIdentifier } from './migrations.js';
import { toStoredPlayer, type PlayerRow } from './statements.js';
import { revisionParam } from './rows.js';

/**
 * The statements of a list change for one schema. The owner's row is locked first, as every write
 * that changes a list does (lock order: owner, then the players its rows reference).
 *
 * @example
 * const sql = friendsChangeStatements('public');
 */
export function friendsChangeStatements(schema: string) {
  const s = quoteIdentifier(schema);
  const player = `p.player_id, p.alias, p.display_name, p.image, p.revision::text AS revision,
    floor(extract(epoch FROM p.modified_at) * 1000)::float8 AS modified_ms`;
  return {
    /** $1 owner: its row locked, with its revision and the next position of its list. */
    lockOwner: `SELECT ${player}, p.list_end FROM ${s}.players p WHERE p.player_id = $1 FOR UPDATE`,
    /** $1 ids: those that are players. */
    existing: `SELECT player_id FROM ${s}.players WHERE player_id = ANY($1::text[])`,
    /** $1 owner, $2 ids: those already on its list. */
    listed: `SELECT friend FROM ${s}.friendships WHERE owner = $1 AND friend = ANY($2::text[])`,
    /** $1 owner, $2 ids in order, $3 the list's end: appended at the end, in order. */
    append: `INSERT INTO ${s}.friendships (owner, friend, position)
      SELECT $1, w.friend, $3::bigint + w.n FROM unnest($2::text[]) WITH ORDINALITY AS w(friend, n)`,
    /** $1 owner, $2 ids: removed, each position left as a gap; the list's gaps now. */
    remove: `WITH gone AS (DELETE FROM ${s}.friendships WHERE owner = $1 AND friend = ANY($2::text[]) RETURNING owner, position, friend),
      gapped AS (INSERT INTO ${s}.list_gaps (owner, position) SELECT owner, position FROM gone)
      SELECT friend, (SELECT count(*) FROM ${s}.list_gaps g WHERE g.owner = $1)::int + (SELECT count(*) FROM gone)::int AS gaps FROM gone`,
    /** $1 owner, $2 count added (negative: removed): the owner's count, end and revision. */
    touchOwner: `UPDATE ${s}.players p SET friend_count = p.friend_count + $2::int, list_end = p.list_end + GREATEST($2::int, 0),
      revision = nextval('${s}.revision_seq'), modified_at = clock_timestamp()
      WHERE p.player_id = $1 RETURNING ${player}`,
  };
}

/** The statements of one schema. */
export type FriendsChangeStatements = ReturnType<typeof friendsChangeStatements>;

/**
 * Applies a FriendsChange inside the caller's transaction: the owner locked and checked against
 * `expect`, the players to add checked to exist, the ones already listed (or not listed, to remove)
 * skipped, the rest appended or removed, the owner touched once. Throws StoreError (the caller rolls
 * back). Returns the owner after the change, the ids changed, and the list's gaps after a removal.
 *
 * @example
 * const result = await changeFriendsIn(client, sql, 'alice', { add: ['bob'] }, {});
 */
export async function changeFriendsIn(
  c: PoolClient,
  sql: FriendsChangeStatements,
  ownerId: string,
  change: FriendsChange,
  expect: Expectation,
): Promise<{ owner: StoredPlayer; changed: string[]; gaps: number }> {
  const locked = (await c.query<PlayerRow & { list_end: string }>(sql.lockOwner, [ownerId])).rows[0];
  if (expect.exists === true && !locked) throw new StoreError('revision-mismatch', `player "${ownerId}" does not exist`);
  if (expect.exists === false && locked) throw new StoreError('revision-mismatch', `player "${ownerId}" already exists`);
  if (!locked) throw new StoreError('not-found', `no player "${ownerId}"`);
  if (expect.revision !== undefined && revisionParam(expect.revision) !== locked.revision) throw new StoreError('revision-mismatch', `player "${ownerId}" has changed`);
  const owner = toStoredPlayer(locked);
  const ids = [...new Set('add' in change ? change.add : change.remove)];
  if (ids.length === 0) return { owner, changed: [], gaps: 0 };
  if ('add' in change) {
    const found = new Set((await c.query<{ player_id: string }>(sql.existing, [ids])).rows.map((r) => r.player_id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw new StoreError('not-found', `no player ${missing.map((id) => `"${id}"`).join(', ')}`);
    const listed = new Set((await c.query<{ friend: string }>(sql.listed, [ownerId, ids])).rows.map((r) => r.friend));
    const changed = ids.filter((id) => !listed.has(id));
    if (changed.length === 0) return { owner, changed, gaps: 0 };
    await c.query(sql.append, [ownerId, changed, locked.list_end]);
    const touched = (await c.query<PlayerRow>(sql.touchOwner, [ownerId, changed.length])).rows[0]!;
    return { owner: toStoredPlayer(touched), changed, gaps: 0 };
  }
  const gone = (await c.query<{ friend: string; gaps: number }>(sql.remove, [ownerId, ids])).rows;
  if (gone.length === 0) return { owner, changed: [], gaps: 0 };
  const removed = new Set(gone.map((r) => r.friend));
  const touched = (await c.query<PlayerRow>(sql.touchOwner, [ownerId, -gone.length])).rows[0]!;
  return { owner: toStoredPlayer(touched), changed: ids.filter((id) => removed.has(id)), gaps: gone[0]!.gaps };
}
