import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { STORE_BUSY } from '../src/core/service/errors.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// Many writers on the same rows, over real keep-alive connections: no 500, no 503 while the database
// is up (except a saturated pool, which says so), no 412 without a precondition, invariants intact.
const contention = suite('PostgreSQL under contention');
const it = POSTGRES_SKIP ? contention.skip : contention;
noteSkip();
const AUTH = { authorization: `Bearer ${WRITE_TOKEN}` };

let store: PostgresPlayerStore;
let server: AdapterServer;
let http: HttpPool;

contention.before(async () => {
  if (POSTGRES_SKIP) return;
  store = await freshPostgresStore('contention');
  server = (await startAdapterServers(['node'], { store, metrics: true }))[0]!;
  http = new HttpPool(server!.origin, { connections: 50, pipelining: 1 });
});
contention.after(async () => {
  if (POSTGRES_SKIP) return;
  await http.close();
  await server.close();
  await dropTestSchemas();
});

async function request(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { ...AUTH, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await http.request({ method: method as 'GET', path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.statusCode, text: await res.body.text() };
}

/**
 * Every list's count is kept on its row, and its live positions and gaps together fill 1..list_end
 * exactly once (so pages count ranks right); no list names a deleted item.
 */
async function assertListsIntact(): Promise<void> {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  try {
    const schema = (await pool.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'contention_${process.pid}_%'`)).rows[0]!.nspname;
    const s = `"${schema}"`;
    const broken = await pool.query(`WITH slots AS (
        SELECT list, position, 'live' AS kind FROM ${s}.members UNION ALL SELECT list, position, 'gap' FROM ${s}.member_gaps)
      SELECT l.list, l.count, l.list_end, count(sl.*) FILTER (WHERE sl.kind = 'live') AS live, count(sl.*) AS slots,
        count(DISTINCT sl.position) AS distinct_slots, coalesce(max(sl.position), 0) AS top, coalesce(min(sl.position), 1) AS bottom
      FROM ${s}.lists l LEFT JOIN slots sl ON sl.list = l.list GROUP BY l.list
      HAVING l.count <> count(sl.*) FILTER (WHERE sl.kind = 'live') OR count(sl.*) <> l.list_end
        OR count(DISTINCT sl.position) <> count(sl.*) OR coalesce(max(sl.position), 0) <> l.list_end OR coalesce(min(sl.position), 1) < 1`);
    assert.equal(broken.rows, [], 'every list counted, its positions and gaps filling 1..list_end once');
    const dangling = await pool.query(`SELECT m.* FROM ${s}.members m LEFT JOIN ${s}.items i ON i.item = m.member WHERE i.item IS NULL`);
    assert.equal(dangling.rows, []);
  } finally {
    await pool.end();
  }
}

it('should delete 40 players on the same lists at once without a deadlock reaching a client', async () => {
  const victims = Array.from({ length: 40 }, (_, i) => `v${i}`);
  const owners = ['o1', 'o2', 'o3', 'o4', 'o5'];
  for (const id of [...victims, ...owners, 'k1', 'k2']) await store.putPlayer({ playerId: id, alias: id });
  // Every owner lists every victim, in a different order, between players who stay.
  for (const [n, owner] of owners.entries()) {
    await store.addFriend(owner, 'k1');
    for (let i = 0; i < victims.length; i++) await store.addFriend(owner, victims[(i * (n + 1) * 7) % victims.length] ?? victims[i]!).catch(() => undefined);
    for (const v of victims) await store.addFriend(owner, v).catch(() => undefined);
    await store.addFriend(owner, 'k2');
  }
  // Victims list each other too, so deletes lock each other's rows.
  for (let i = 0; i < victims.length; i++) await store.addFriend(victims[i]!, victims[(i + 1) % victims.length]!);
  const started = Date.now();
  const answers = await Promise.all(victims.map((v) => request('DELETE', `/player/${v}`)));
  assert.equal(answers.map((a) => a.status), victims.map(() => 204), JSON.stringify(answers.filter((a) => a.status !== 204)));
  assert.ok(Date.now() - started < 30_000, 'within 30 s');
  for (const owner of owners) {
    const page = await store.listFriends(owner, { offset: 0, limit: 100 });
    assert.equal(page?.items.map((p) => p.playerId), ['k1', 'k2'], owner);
    assert.is(page?.total, 2);
  }
  await assertListsIntact();
});

it('should never answer 412 to 50 concurrent PUTs of one player that sent no precondition', async () => {
  await store.putPlayer({ playerId: 'hot', alias: 'start' });
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => request('PUT', '/player/hot', { alias: `writer${i}` })));
  assert.equal([...new Set(answers.map((a) => a.status))], [200], JSON.stringify(answers.filter((a) => a.status !== 200).slice(0, 3)));
  const final = (await store.getPlayer('hot'))!;
  assert.ok(answers.some((a) => JSON.parse(a.text).alias === final.alias), 'the last write is one of the 50');
});

it('should still answer 412 to a PUT whose If-Match lost the race', async () => {
  const etag = (await http.request({ method: 'GET', path: '/player/hot', headers: { accept: 'application/json' } })).headers.etag as string;
  const answers = await Promise.all(
    Array.from({ length: 10 }, async (_, i) => {
      const res = await http.request({ method: 'PUT', path: '/player/hot', headers: { ...AUTH, 'content-type': 'application/json', 'if-match': etag }, body: JSON.stringify({ alias: `cas${i}` }) });
      await res.body.dump();
      return res.statusCode;
    }),
  );
  assert.equal(answers.filter((s) => s === 200).length, 1);
  assert.equal(answers.filter((s) => s === 412).length, 9);
});

it('should answer pages past int4 positions with 404, on lists and searches', async () => {
  for (const path of ['/player/o1/friends?page=214748365', '/player/o1/friends/search?search=k&page=214748365', '/player/o1/friends?page=9007199254740991']) {
    const { status } = await request('GET', path);
    assert.ok(status === 404 || status === 400, `${path}: ${status}`);
    assert.is((await request('GET', path.replace(/page=\d+/, 'page=214748365'))).status, 404, path);
  }
});

it('should report the pool in /metrics', async () => {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  assert.match(text, 'player_hypermedia_store_pool_connections{state="max"} 8');
  assert.match(text, /player_hypermedia_store_pool_waiting \d+/);
});

it('should answer a saturated pool with 503 store-busy and Retry-After, not "unreachable"', async () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, connectionTimeoutMillis: 200 });
  const schema = (await pool.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'contention_${process.pid}_%'`)).rows[0]!.nspname;
  const busyStore = new PostgresPlayerStore({ pool, schema, watchChanges: false });
  const [busy] = await startAdapterServers(['node'], { store: busyStore });
  const held = await pool.connect();
  try {
    const res = await fetch(`${busy!.origin}/player/k1`, { headers: { accept: 'application/json' } });
    assert.is(res.status, 503);
    assert.is(res.headers.get('retry-after'), '1');
    assert.is((await res.json()).type, STORE_BUSY);
  } finally {
    held.release();
    await busy!.close();
    await pool.end();
  }
});

contention.run();
