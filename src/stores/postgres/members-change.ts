// Several members added to or removed from one list in one transaction (JSON:API relationship writes).
import type { PoolClient } from 'pg';
import type { Relation } from '../../core/model/api.js';
import type { StoredItem } from '../../core/model/documents.js';
import { StoreError, type Expectation, type MembersChange } from '../contract.js';
import { quoteIdentifier } from './migrations.js';
import { revisionParam, toStoredItem, type ItemRow } from './rows.js';
import { itemColumns, type Statements } from './statements.js';
import { diagnose } from './diagnose.js';
import { Rollback } from './transaction.js';

/**
 * The statements of a change of several members, for one schema.
 *
 * @example
 * const sql = membersChangeStatements('public');
 */
export function membersChangeStatements(schema: string) {
  const s = quoteIdentifier(schema);
  const item = itemColumns('p');
  return {
    /** $1 owner type, $2 owner id: its row locked, with its key. */
    lockOwner: `SELECT ${item}, p.item::text AS item FROM ${s}.items p WHERE p.type = $1 AND p.id = $2 FOR UPDATE`,
    /** $1 owner key, $2 relation: its list (made when missing), with the next position. */
    list: `INSERT INTO ${s}.lists AS l (owner, relation) VALUES ($1::bigint, $2) ON CONFLICT (owner, relation) DO UPDATE SET count = l.count
      RETURNING l.list::text AS list, l.list_end::text AS list_end`,
    /** $1 type, $2 ids: those that exist, with their keys. */
    existing: `SELECT id, item::text AS item FROM ${s}.items WHERE type = $1 AND id = ANY($2::text[])`,
    /** $1 list, $2 member keys: those already on it. */
    listed: `SELECT member::text AS member FROM ${s}.members WHERE list = $1::bigint AND member = ANY($2::bigint[])`,
    /** $1 list, $2 member keys in order, $3 the list's end: appended at the end, in order; the list counted up. */
    append: `WITH added AS (INSERT INTO ${s}.members (list, member, position)
        SELECT $1::bigint, w.member, $3::bigint + w.n FROM unnest($2::bigint[]) WITH ORDINALITY AS w(member, n) RETURNING 1)
      UPDATE ${s}.lists SET count = count + (SELECT count(*) FROM added)::int, list_end = list_end + (SELECT count(*) FROM added) WHERE list = $1::bigint`,
    /** $1 list, $2 member type, $3 ids: removed, each position left as a gap, the list counted down; the ids removed and the list's gaps now. */
    remove: `WITH gone AS (DELETE FROM ${s}.members m USING ${s}.items i WHERE m.list = $1::bigint AND m.member = i.item AND i.type = $2 AND i.id = ANY($3::text[]) RETURNING m.list, m.position, i.id),
      gapped AS (INSERT INTO ${s}.member_gaps (list, position) SELECT list, position FROM gone),
      counted AS (UPDATE ${s}.lists SET count = count - (SELECT count(*) FROM gone)::int WHERE list = $1::bigint)
      SELECT id, (SELECT count(*) FROM ${s}.member_gaps g WHERE g.list = $1::bigint)::int + (SELECT count(*) FROM gone)::int AS gaps FROM gone`,
    /** $1 owner key: a new revision. */
    touchOwner: `UPDATE ${s}.items p SET revision = nextval('${s}.revision_seq'), modified_at = clock_timestamp() WHERE p.item = $1::bigint RETURNING ${item}`,
  };
}

/** The statements of one schema. */
export type MembersChangeStatements = ReturnType<typeof membersChangeStatements>;

/**
 * Adds or removes several members of one list inside the transaction of `c`: the owner's row is
 * locked first (the lock order of every list write), the expectation checked on it, every member to
 * add checked to exist (else not-found naming the missing ones, nothing written), then the members not
 * listed yet are appended in the order given (or those listed are removed, leaving gaps), and the
 * owner gets a new revision once. A change that changes nothing writes nothing and keeps the revision.
 *
 * @example
 * await withTransaction(pool, (c) => changeMembersIn(c, sql, friends, 'alice', { add: ['bob'] }, {}));
 */
export async function changeMembersIn(
  c: PoolClient,
  sql: MembersChangeStatements,
  relation: Relation,
  ownerId: string,
  change: MembersChange,
  expect: Expectation,
): Promise<{ owner: StoredItem; changed: string[]; list: string; gaps: number }> {
  const ownerType = relation.owner;
  const target = relation.target;
  const locked = (await c.query<ItemRow & { item: string }>(sql.lockOwner, [ownerType.name, ownerId])).rows[0];
  const named = `${ownerType.name} "${ownerId}"`;
  if (expect.exists === true && !locked) throw new StoreError('revision-mismatch', `${named} does not exist`);
  if (expect.exists === false && locked) throw new StoreError('revision-mismatch', `${named} already exists`);
  if (!locked) throw StoreError.exposed('not-found', `no ${named}`);
  if (expect.revision !== undefined && revisionParam(expect.revision) !== locked.revision) throw new StoreError('revision-mismatch', `${named} has changed`);
  const owner = toStoredItem(ownerType, locked);
  const ids = [...new Set('add' in change ? change.add : change.remove)];
  if (ids.length === 0) return { owner, changed: [], list: '', gaps: 0 };
  const { list, list_end } = (await c.query<{ list: string; list_end: string }>(sql.list, [locked.item, relation.name])).rows[0]!;
  if ('add' in change) {
    const found = new Map((await c.query<{ id: string; item: string }>(sql.existing, [target.name, ids])).rows.map((r) => [r.id, r.item]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw StoreError.exposed('not-found', `no ${target.name} ${missing.map((id) => `"${id}"`).join(', ')}`);
    const listed = new Set((await c.query<{ member: string }>(sql.listed, [list, ids.map((id) => found.get(id))])).rows.map((r) => r.member));
    const changed = ids.filter((id) => !listed.has(found.get(id)!));
    if (changed.length === 0) return { owner, changed, list, gaps: 0 };
    await c.query(sql.append, [list, changed.map((id) => found.get(id)), list_end]);
    const touched = (await c.query<ItemRow>(sql.touchOwner, [locked.item])).rows[0]!;
    return { owner: toStoredItem(ownerType, touched), changed, list, gaps: 0 };
  }
  const gone = (await c.query<{ id: string; gaps: number }>(sql.remove, [list, target.name, ids])).rows;
  if (gone.length === 0) return { owner, changed: [], list, gaps: 0 };
  const removed = new Set(gone.map((r) => r.id));
  const touched = (await c.query<ItemRow>(sql.touchOwner, [locked.item])).rows[0]!;
  return { owner: toStoredItem(ownerType, touched), changed: ids.filter((id) => removed.has(id)), list, gaps: gone[0]!.gaps };
}

/**
 * Removes `memberId` from the list in transaction `c`: a compare-and-set of its owner (when it is
 * listed), then the unlink (its position left as a gap). The owner after it, the list and its gaps;
 * undefined when the member is not listed (the owner as expected, else StoreError from `diagnose`).
 *
 * @example
 * const removed = await removeMemberIn(c, sql, friends, 'alice', 'bob', {});
 */
export async function removeMemberIn(
  c: PoolClient,
  sql: Pick<Statements, 'touchOwnerIfMember' | 'unlink' | 'revisionOf'>,
  relation: Relation,
  ownerId: string,
  memberId: string,
  expect: Expectation,
): Promise<{ owner: StoredItem; list: string; gaps: number } | undefined> {
  const ownerType = relation.owner;
  const owner = await c.query<ItemRow & { list: string }>(sql.touchOwnerIfMember, [ownerType.name, ownerId, revisionParam(expect.revision), relation.name, relation.target.name, memberId]);
  if (!owner.rows[0]) {
    await diagnose(c, sql.revisionOf, ownerType, ownerId, expect);
    return undefined; // the owner is as expected: the member is not on its list
  }
  const list = owner.rows[0].list;
  const gone = await c.query<{ gaps: number }>(sql.unlink, [list, relation.target.name, memberId]);
  if (!gone.rows[0]) throw new Rollback(undefined);
  return { owner: toStoredItem(ownerType, owner.rows[0]), list, gaps: gone.rows[0].gaps };
}
