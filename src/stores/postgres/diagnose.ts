// Why a compare-and-set write of the PostgreSQL store matched no row: the same StoreError the memory store gives.
import { StoreError, type Expectation } from '../contract.js';
import type { Queryable } from './transaction.js';

/**
 * Throws what the memory store would for `expect` on `playerId` (revision-mismatch), else not-found
 * for a missing player; returns when the player is as expected. `revisionOf` is the statement reading
 * a player's revision (`$1` its id).
 *
 * @example
 * if (!updated.rows[0]) await diagnose(client, sql.revisionOf, 'alice', { revision: '41' });
 */
export async function diagnose(c: Queryable, revisionOf: string, playerId: string, expect: Expectation): Promise<void> {
  const { rows } = await c.query<{ revision: string }>(revisionOf, [playerId]);
  const current = rows[0]?.revision;
  if (expect.exists === true && current === undefined) throw new StoreError('revision-mismatch', `player "${playerId}" does not exist`);
  if (expect.exists === false && current !== undefined) throw new StoreError('revision-mismatch', `player "${playerId}" already exists`);
  if (expect.revision !== undefined && current !== expect.revision) throw new StoreError('revision-mismatch', `player "${playerId}" has changed`);
  if (current === undefined) throw new StoreError('not-found', `no player "${playerId}"`);
}
