// A deleted list's members and idempotency keys go with it (migration 11: a trigger on lists, no foreign
// key from them to lists), through every way a list is deleted: its owner deleted through the store, and
// a list row deleted by hand; other lists keep theirs. And a schema made before migration 11 keeps its rows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { quoteIdentifier } from '../src/stores/postgres/migrations.js';
import type { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { beforeListCascade, dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, testPool } from './support/postgres.js';

const cascade = suite("PostgreSQL: a list's rows deleted with it");
const it = POSTGRES_SKIP ? cascade.skip : cascade;
noteSkip();

cascade.after(async () => {
  if (!POSTGRES_SKIP) await dropTestSchemas();
});

/** The rows of `members` and `member_keys` of each owner's lists, by owner id. */
async function rowsByOwner(store: PostgresPlayerStore): Promise<Record<string, { members: number; keys: number }>> {
  const s = quoteIdentifier(store.schema);
  const count = async (table: string) =>
    (await testPool!.query<{ id: string; n: number }>(`SELECT coalesce(o.id, '(no list)') AS id, count(*)::int AS n FROM ${s}.${table} t
      LEFT JOIN ${s}.lists l ON l.list = t.list LEFT JOIN ${s}.items o ON o.item = l.owner GROUP BY 1`)).rows;
  const out: Record<string, { members: number; keys: number }> = {};
  for (const { id, n } of await count('members')) (out[id] ??= { members: 0, keys: 0 }).members = n;
  for (const { id, n } of await count('member_keys')) (out[id] ??= { members: 0, keys: 0 }).keys = n;
  return out;
}

/** alice with three friends (two by Idempotency-Key), bob with one, all made through the store. */
async function withLists(): Promise<PostgresPlayerStore> {
  const store = await freshPostgresStore('cascade');
  for (const id of ['alice', 'bob', 'cy', 'dee']) await store.putPlayer({ playerId: id, alias: id });
  await store.addFriend('alice', 'cy', { idempotencyKey: 'k-1', fingerprint: 'fp' });
  await store.createFriend('alice', { playerId: 'eve', alias: 'eve' }, { idempotencyKey: 'k-2', fingerprint: 'fp' });
  await store.addFriend('alice', 'dee');
  await store.addFriend('bob', 'alice', { idempotencyKey: 'k-3', fingerprint: 'fp' });
  return store;
}

it("should delete an owner's list with its members and keys, and leave the lists of others", async () => {
  const store = await withLists();
  assert.equal(await rowsByOwner(store), { alice: { members: 3, keys: 2 }, bob: { members: 1, keys: 1 } });
  await store.deletePlayer('alice');
  // bob's list lost alice (a removal leaves a gap) and its key to her (the key's member is gone).
  assert.equal(await rowsByOwner(store), {});
  assert.is((await store.listFriends('bob', { offset: 0, limit: 10 }))!.total, 0);
  await store.addFriend('bob', 'cy', { idempotencyKey: 'k-3', fingerprint: 'fp' });
  assert.equal(await rowsByOwner(store), { bob: { members: 1, keys: 1 } }, 'the key is free again, and bob lists cy');
});

it('should delete the rows of a list deleted by any statement, one list or several', async () => {
  const store = await withLists();
  const s = quoteIdentifier(store.schema);
  await testPool!.query(`DELETE FROM ${s}.lists WHERE owner = (SELECT item FROM ${s}.items WHERE id = 'bob')`);
  assert.equal(await rowsByOwner(store), { alice: { members: 3, keys: 2 } });
  await store.addFriend('cy', 'dee');
  await testPool!.query(`DELETE FROM ${s}.lists`);
  assert.equal(await rowsByOwner(store), {});
});

it('should keep every row of a schema migrated from 10 to 11, and then delete them with their list', async () => {
  const store = await withLists();
  const s = quoteIdentifier(store.schema);
  // Back to migration 10 as it made the tables (the foreign keys with their cascade), then migrated again.
  await testPool!.query(`${beforeListCascade(s)}; DELETE FROM ${s}.schema_migrations WHERE version = 11`);
  assert.equal(await store.migrate(), [11]);
  assert.equal(await rowsByOwner(store), { alice: { members: 3, keys: 2 }, bob: { members: 1, keys: 1 } });
  const constraints = (await testPool!.query<{ name: string }>(`SELECT conname AS name FROM pg_constraint WHERE conrelid IN ('${s}.members'::regclass, '${s}.member_keys'::regclass) AND contype = 'f' ORDER BY 1`)).rows.map((r) => r.name);
  assert.equal(constraints, ['member_keys_member_fkey', 'members_member_fkey'], 'the keys to items stay');
  await store.deletePlayer('bob');
  assert.equal(await rowsByOwner(store), { alice: { members: 3, keys: 2 } });
});

cascade.run();
