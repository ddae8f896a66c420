// JSON:API relationship writes on PostgreSQL are one transaction: a reader never sees a list half
// changed, and a database that ends the session half-way leaves the list as it was.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { startPostgresProxy, type PostgresProxy } from './support/pg-proxy.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

const atomic = suite('JSON:API relationship writes on PostgreSQL');
const it = POSTGRES_SKIP ? atomic.skip : atomic;
noteSkip();

const BASE = 'http://api.test';
const TOKEN = 'rel-token';
const MEMBERS = Array.from({ length: 100 }, (_, i) => `m${i}`);
let proxy: PostgresProxy;
let direct: PostgresPlayerStore;
let proxied: PostgresPlayerStore;

atomic.before(async () => {
  if (POSTGRES_SKIP) return;
  direct = await freshPostgresStore('rel');
  await direct.putPlayer({ playerId: 'alice', alias: 'alice' });
  for (const id of MEMBERS) await direct.putPlayer({ playerId: id, alias: id });
  proxy = await startPostgresProxy(TEST_DATABASE_URL!);
  proxied = new PostgresPlayerStore({ connectionString: proxy.url, schema: direct.schema, poolConfig: { max: 4 } });
});

atomic.after(async () => {
  await proxied?.close();
  await proxy?.close();
  await dropTestSchemas();
});

const linkage = (ids: readonly string[]) => JSON.stringify({ data: ids.map((id) => ({ type: 'players', id })) });
const total = async () => (await direct.listFriends('alice', { offset: 0, limit: 1 }))!.total;

it('should never show a reader a list half changed by one 100-member POST or DELETE', async () => {
  const service = createPlayerService({ baseUrl: BASE, store: proxied, authenticate: bearerTokens([TOKEN]) });
  const write = (method: string) =>
    service.fetch(new Request(`${BASE}/player/alice/relationships/friends`, { method, body: linkage(MEMBERS), headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/vnd.api+json' } }));
  for (const [method, after] of [['POST', 100], ['DELETE', 0], ['POST', 100], ['DELETE', 0]] as const) {
    const before = await total();
    const seen = new Set<number>();
    let writing = true;
    const reader = (async () => {
      while (writing) seen.add(await total());
    })();
    const res = await write(method);
    writing = false;
    await reader;
    assert.is(res.status, 204);
    assert.is(await total(), after);
    for (const t of seen) assert.ok(t === before || t === after, `${method}: a reader saw ${t} friends (before ${before}, after ${after})`);
  }
});

it('should leave the list as it was when the database ends the session half-way (503, nothing added)', async () => {
  const service = createPlayerService({ baseUrl: BASE, store: proxied, authenticate: bearerTokens([TOKEN]) });
  let interrupted = 0;
  for (let round = 0; round < 12; round++) {
    const before = await total();
    const ids = before === 0 ? MEMBERS : MEMBERS;
    const method = before === 0 ? 'POST' : 'DELETE';
    const pending = service.fetch(new Request(`${BASE}/player/alice/relationships/friends`, { method, body: linkage(ids), headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/vnd.api+json' } }));
    // End every session at the next answer, some way into the write.
    await new Promise((r) => setTimeout(r, round % 4));
    const ended = proxy.terminateAll();
    const res = await pending;
    await ended;
    const now = await total();
    if (res.status === 503) {
      interrupted++;
      assert.is(now, before, `a 503 ${method} changed the list: ${before} -> ${now}`);
    } else {
      assert.is(res.status, 204);
      assert.is(now, method === 'POST' ? 100 : 0);
    }
  }
  assert.ok(interrupted > 0, 'no write was interrupted: the test proved nothing');
});

atomic.run();
