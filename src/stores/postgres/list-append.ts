// Appending a member to a list (a new item, or an existing one): the Idempotency-Key replay, then one statement
// that updates the owner (the compare-and-set), creates or reads the member, links it and saves the key.
import type { Pool, QueryResult } from 'pg';
import type { Relation, ResourceType } from '../../core/model/api.js';
import type { StoredItem } from '../../core/model/documents.js';
import { StoreError, itemKey, type MemberWrite, type WriteOptions } from '../contract.js';
import { appendFailure, diagnose } from './diagnose.js';
import { toStoredItem } from './rows.js';
import type { AppendedRow } from './appends-together.js';
import { revisionParam } from './rows.js';

/**
 * The statements of an append: a new member made and linked, or an existing one linked.
 *
 * @example
 * const statement: AppendStatement = 'linkExisting';
 */
export type AppendStatement = 'createAndLink' | 'linkExisting';

/**
 * What an append needs of its store: the pool (to diagnose a failure), the revision query, its prepared
 * statements, the append statement (which may go with others: Together), and its reads.
 *
 * @example
 * const context: AppendContext = { pool, revisionOf: sql.revisionOf, prepared: (k, v) => run(k, v), append: (k, v) => appends[k].send(v), get: (t, id) => store.get(t, id) };
 */
export interface AppendContext {
  pool: Pool;
  revisionOf: string;
  prepared<R extends object>(key: 'findKey', values: unknown[]): Promise<QueryResult<R>>;
  append(statement: AppendStatement, values: unknown[]): Promise<AppendedRow | undefined>;
  get(type: ResourceType, id: string): Promise<StoredItem | undefined>;
}

/**
 * Appends `memberId` to the list (with `values`, the new member's data, for createAndLink): a request
 * whose Idempotency-Key was seen answers as the first one did (`replayed`, nothing changed); a racing
 * request with the same key that won makes this one its replay too. `changed` lists the items a
 * successful append changed (the owner and the member), for the store to tell its watchers, and
 * `total` the list's members after it.
 *
 * @example
 * const { write, changed } = await appendMember(context, friends, 'alice', 'bob', {}, 'linkExisting', []);
 */
export async function appendMember(
  c: AppendContext,
  relation: Relation,
  ownerId: string,
  memberId: string,
  options: WriteOptions,
  statement: AppendStatement,
  values: unknown[],
): Promise<{ write: MemberWrite; changed?: string[]; total?: number }> {
  const replay = await replayOf(c, relation, ownerId, options);
  if (replay) return { write: replay };
  const expect = options.expect ?? {};
  const { owner: ownerType, target } = relation;
  try {
    if (expect.exists === false) await diagnose(c.pool, c.revisionOf, ownerType, ownerId, expect);
    const params = [ownerType.name, ownerId, revisionParam(expect.revision), relation.name, target.name, memberId, options.idempotencyKey ?? null, options.fingerprint ?? '', ...values];
    const row = await c.append(statement, params).catch((error: unknown) => {
      throw appendFailure(error, relation.name, target.name, ownerId, memberId);
    });
    if (!row) {
      await diagnose(c.pool, c.revisionOf, ownerType, ownerId, expect);
      throw new StoreError('revision-mismatch', `${ownerType.name} "${ownerId}" has changed`);
    }
    const write: MemberWrite = { owner: toStoredItem(ownerType, row.owner), member: toStoredItem(target, row.member), replayed: false };
    return { write, changed: [itemKey(ownerType.name, ownerId), itemKey(target.name, memberId)], total: row.total };
  } catch (error) {
    // A racing request with the same key won: answer as its replay (or its mismatch).
    const again = error instanceof StoreError && error.code !== 'unavailable' ? await replayOf(c, relation, ownerId, options) : undefined;
    if (again) return { write: again };
    throw error;
  }
}

/** The answer of the first request with this Idempotency-Key, or undefined when there is none (or no key). */
async function replayOf(c: AppendContext, relation: Relation, ownerId: string, options: WriteOptions): Promise<MemberWrite | undefined> {
  if (options.idempotencyKey === undefined) return undefined;
  const { rows } = await c.prepared<{ fingerprint: string; member: string }>('findKey', [relation.owner.name, ownerId, relation.name, options.idempotencyKey]);
  if (!rows[0]) return undefined;
  if (rows[0].fingerprint !== (options.fingerprint ?? '')) {
    throw StoreError.exposed('idempotency-mismatch', 'this Idempotency-Key was used with a different request');
  }
  const [owner, member] = await Promise.all([c.get(relation.owner, ownerId), c.get(relation.target, rows[0].member)]);
  if (!owner || !member) throw StoreError.exposed('not-found', 'an item of the first request no longer exists');
  return { owner, member, replayed: true };
}
