// A deleted list's members and idempotency keys go with it (migration 11: a trigger on lists, no foreign
// key from them to lists), through every way a list is deleted: its owner deleted through the store, and
// a list row deleted by hand, appends racing their owner's delete; other lists keep theirs. And a schema made
// before migration 11 keeps its rows.
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

it('should leave no member or key of a deleted list when appends race their owner\'s delete', async () => {
  const store = await withLists();
  const s = quoteIdentifier(store.schema);
  // Three: the holder, the appends' lane and three deletes' transactions stay within the pool's 8 connections.
  const owners = Array.from({ length: 3 }, (_, i) => `racer-${i}`);
  for (const id of owners) await store.putPlayer({ playerId: id, alias: id });
  // The owners' rows held by another transaction: the appends queue on them, then the deletes behind the
  // appends; let go, the appends commit first and each delete then removes what they listed.
  const holder = await testPool!.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${s}.items WHERE type = 'player' AND id = ANY($1) FOR UPDATE`, [owners]);
    const waiting = async (n: number) => {
      for (let tries = 0; tries < 500; tries++) {
        // Asked on the holder's own session (the pool's other connections may all be waiting), whose
        // transaction would otherwise read the activity it first read (a snapshot of the statistics).
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await holder.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position($1 in query) > 0`, [store.schema]);
        if (rows[0]!.n >= n) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`fewer than ${n} statements waited on the held rows`);
    };
    const appends = owners.map((owner, i) => store.createFriend(owner, { playerId: `new-${i}`, alias: `n${i}` }, { idempotencyKey: `k-${i}`, fingerprint: 'fp' }));
    await waiting(1);
    const deletes = owners.map((owner) => store.deletePlayer(owner));
    await waiting(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await holder.query('COMMIT');
    const outcomes = await Promise.allSettled([...appends, ...deletes]);
    assert.ok(outcomes.slice(0, owners.length).some((o) => o.status === 'fulfilled'), 'some append went before its owner\'s delete');
  } finally {
    holder.release();
  }
  for (const owner of owners) assert.is(await store.getPlayer(owner), undefined, `${owner} deleted`);
  const rows = await rowsByOwner(store);
  assert.is(rows['(no list)'], undefined, 'no row of a list that is gone');
  assert.equal(Object.keys(rows).sort(), ['alice', 'bob']);
});

cascade.run();
