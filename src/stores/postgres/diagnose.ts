// Why a compare-and-set write of the PostgreSQL store matched no row: the same StoreError the memory store gives.
import type { ResourceType } from '../../core/model/api.js';
import { StoreError, type Expectation } from '../contract.js';
import type { Queryable } from './transaction.js';

/**
 * Reads the item's revision and throws the StoreError that explains why a conditional write did
 * not apply: `revision-mismatch` when the expectation fails, `not-found` when the item is missing.
 * Returns only when the item exists as expected (the write failed for another reason).
 *
 * @example
 * await diagnose(pool, sql.revisionOf, player, 'alice', { revision: '41' }); // throws revision-mismatch if it is now 42
 */
export async function diagnose(c: Queryable, revisionOf: string, type: ResourceType, id: string, expect: Expectation): Promise<void> {
  const { rows } = await c.query<{ revision: string }>(revisionOf, [type.name, id]);
  const current = rows[0]?.revision;
  if (expect.exists === true && current === undefined) throw new StoreError('revision-mismatch', `${type.name} "${id}" does not exist`);
  if (expect.exists === false && current !== undefined) throw new StoreError('revision-mismatch', `${type.name} "${id}" already exists`);
  if (expect.revision !== undefined && current !== expect.revision) throw new StoreError('revision-mismatch', `${type.name} "${id}" has changed`);
  if (current === undefined) throw StoreError.exposed('not-found', `no ${type.name} "${id}"`);
}

/**
 * The StoreError of a list append that the database aborted (abort_write): the new member's id is
 * taken, the member is missing or already listed, or the idempotency key was saved meanwhile.
 *
 * @example
 * appendFailure(error, friends, 'alice', 'bob'); // StoreError('conflict', '"bob" is already in the friends of "alice"')
 */
export function appendFailure(error: unknown, relationName: string, targetName: string, ownerId: string, memberId: string): unknown {
  const message = error instanceof Error && (error as { code?: string }).code === 'P0001' ? error.message : '';
  switch (/^player-hypermedia: (\w+)$/.exec(message)?.[1]) {
    case 'taken':
      return StoreError.exposed('conflict', `${targetName} "${memberId}" already exists`);
    case 'missing':
      return StoreError.exposed('not-found', `no ${targetName} "${memberId}"`);
    case 'listed':
      return StoreError.exposed('conflict', `"${memberId}" is already in the ${relationName} of "${ownerId}"`);
    case 'key':
      return StoreError.exposed('conflict', 'idempotency key taken');
    default:
      return error;
  }
}
