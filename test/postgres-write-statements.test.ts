import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { countStatements, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// How many statements a write costs on PostgreSQL, counted at node-postgres: a PATCH of an item this
// instance read or wrote last starts its compare-and-set from that record (one statement), else it reads
// the item first (two). docs/decisions.md, "Kept answers and records".
const writes = suite('PostgreSQL: the statements of a write');
const it = POSTGRES_SKIP ? writes.skip : writes;
noteSkip();

const BASE = 'https://api.example.com';
const AUTH = { Authorization: 'Bearer t' };

it('should PATCH in one statement after a read or a write of this instance, and read first otherwise', async () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  const schema = `write_statements_${process.pid}`;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  // A wide staleness bound: on a loaded machine a write may take longer than a quarter of the default
  // 2 s, and its echo, held no longer than that, would be told (a fourth notice of bob); or a heartbeat
  // may be late and the feed listen again ('unknown', then 'all'). Both are right, and not what this
  // test counts.
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true, changeFeed: { heartbeatMs: 1000, maxStalenessMs: 60_000 } });
  await store.migrate();
  // Another instance on the same database: its writes reach this one through NOTIFY only.
  const other = new PostgresPlayerStore({ pool, schema, watchChanges: false });
  const { statements, restore } = countStatements(schema);
  const patch = (id: string, etag: string, alias: string) =>
    service.fetch(new Request(`${BASE}/player/${id}`, {
      method: 'PATCH',
      headers: { ...AUTH, 'Content-Type': 'application/json-patch+json', 'If-Match': etag, Accept: 'application/json' },
      body: JSON.stringify([{ op: 'replace', path: '/alias', value: alias }]),
    }));
  const counted = async <T>(work: () => Promise<T>): Promise<[T, string[]]> => {
    statements.length = 0;
    const result = await work();
    return [result, [...statements]];
  };
  // Notices of alice heard so far: this instance's own, told at once as each write commits; their
  // NOTIFY's echo is recognised by its revision and not told again (docs/decisions.md, "PostgreSQL"),
  // so no notice lands mid-test (while the memo keeps nothing, a notice of any item raises its floor,
  // and a read in flight under a raised floor is not kept: docs/decisions.md, "Kept answers and records").
  const notices = new Map<string, number>();
  let listening = false;
  const unwatch = store.watch((changed) => {
    if (changed === 'all') listening = true; // LISTEN took effect: every later commit is heard
    if (Array.isArray(changed)) for (const key of changed) notices.set(key, (notices.get(key) ?? 0) + 1);
  });
  const service = createPlayerService({ baseUrl: BASE, store, authenticate: bearerTokens(['t']) });
  const echoed = async (id: string, count: number) => {
    const heard = () => notices.get(`player/${id}`) ?? 0;
    for (let waited = 0; heard() < count && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.is(heard(), count, `the change feed echoed the writes of ${id}`);
  };
  try {
    for (let waited = 0; !listening && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(listening, 'the change feed listens');
    await other.putPlayer({ playerId: 'alice', alias: 'a' });
    await echoed('alice', 1);
    await other.putPlayer({ playerId: 'bob', alias: 'b' });
    // Heard before the PATCH: a notice landing while its read is in flight would have the memo keep
    // nothing of that read, so the PATCH would not await its own echo and bob would be told four times.
    await echoed('bob', 1);
    // Nothing of bob on this instance's service yet: the PATCH reads, then writes.
    const bobTag = `"${(await store.getPlayer('bob'))!.revision}-x"`;
    const [first, cold] = await counted(() => patch('bob', bobTag, 'b1'));
    assert.is(first.status, 200);
    assert.equal(cold, ['getItem', 'updateItem'], 'a PATCH of an item this instance has not seen reads it first');
    // A write that follows its own write starts from the record it left.
    const [second, warm] = await counted(() => patch('bob', first.headers.get('etag')!, 'b2'));
    assert.is(second.status, 200);
    assert.equal(warm, ['updateItem'], 'after a write of this instance: one statement');
    assert.is((await store.getPlayer('bob'))!.alias, 'b2');
    // A read, then a PATCH: the record read is the guess. Bob's three writes, each told once (the
    // other instance's by NOTIFY).
    await echoed('bob', 3);
    const [read, reading] = await counted(() => service.fetch(new Request(`${BASE}/player/alice`, { headers: { Accept: 'application/json' } })));
    assert.equal(reading, ['getItem']);
    const [third, afterRead] = await counted(() => patch('alice', read.headers.get('etag')!, 'a1'));
    assert.is(third.status, 200);
    assert.equal(afterRead, ['updateItem'], 'after a read: one statement');
    // Another writer between: the guess is refuted by the store, the PATCH reads and still applies (or 412s on a stale tag).
    await other.putPlayer({ playerId: 'bob', alias: 'elsewhere' });
    const [stale, refuted] = await counted(() => patch('bob', second.headers.get('etag')!, 'lost'));
    assert.is(stale.status, 412, 'the client’s ETag is older than the store');
    assert.ok(refuted.includes('updateItem') && refuted.filter((s) => s === 'updateItem').length === 1, refuted.join(' '));
    assert.is((await store.getPlayer('bob'))!.alias, 'elsewhere', 'nothing lost');
    // The record a write of this instance left is handed on as current: a read of it in another format,
    // or a write of it without a read of this instance, asks the store nothing more.
    const [hal, none] = await counted(() => service.fetch(new Request(`${BASE}/player/alice`, { headers: { Accept: 'application/hal+json' } })));
    assert.is(((await hal.json()) as { alternateName: string }).alternateName, 'a1');
    assert.equal(none, [], 'the record the PATCH left, kept as current');
    await store.putPlayer({ playerId: 'carol', alias: 'c' });
    const [read2, none2] = await counted(() => service.fetch(new Request(`${BASE}/player/carol`, { headers: { Accept: 'application/json' } })));
    assert.is(read2.status, 200);
    assert.equal(none2, [], 'the record a put of this store left, kept as current');
  } finally {
    restore();
    unwatch?.();
    await store.close();
    await other.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
});

writes.run();
