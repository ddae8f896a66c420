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

/**
 * The StoreError of a one-statement friend-list append that called abort_write (migration 4): the
 * new player's id was taken, the friend is missing or already listed, or the idempotency key was
 * saved meanwhile (the caller then replays). Any other error is returned as it is.
 *
 * @example
 * throw appendFailure(error, 'alice', 'bob');
 */
export function appendFailure(error: unknown, ownerId: string, friendId: string): unknown {
  const message = error instanceof Error && (error as { code?: string }).code === 'P0001' ? error.message : '';
  switch (/^player-hypermedia: (\w+)$/.exec(message)?.[1]) {
    case 'taken':
      return new StoreError('conflict', `player "${friendId}" already exists`);
    case 'missing':
      return new StoreError('not-found', `no player "${friendId}"`);
    case 'listed':
      return new StoreError('conflict', `"${friendId}" is already a friend of "${ownerId}"`);
    case 'key':
      return new StoreError('conflict', 'idempotency key taken');
    default:
      return error;
  }
}
