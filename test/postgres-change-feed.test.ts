// The PostgreSQL store's change feed (LISTEN/NOTIFY): what one instance writes, another hears, and the
// answers it keeps are forgotten; a lost feed connection makes listeners keep nothing until it is back.
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService } from '../src/index.js';
import type { Changes } from '../src/stores/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { statementChannel } from '../src/stores/postgres/channels.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

const feed = suite('PostgreSQL change feed');
const it = POSTGRES_SKIP ? feed.skip : feed;
noteSkip();

const TOKEN = 'feed-token';
const BASE = 'http://api.test';
const pools: pg.Pool[] = [];
const stores: PostgresPlayerStore[] = [];

/** A second store on the same schema, on a pool of its own whose queries are counted. */
function instanceStore(schema: string): { store: PostgresPlayerStore; queries: () => number } {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  pools.push(pool);
  let count = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    count++;
    return query(...args);
  };
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true });
  stores.push(store);
  return { store, queries: () => count };
}

async function until(condition: () => boolean | Promise<boolean>, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Two instances on one new schema: a writer and a reader service, each on a store of its own; `put`
 * writes the player `id` on the writer with a JSON body.
 */
async function twoInstances(id: string) {
  const schema = (await freshPostgresStore('feed')).schema;
  const a = instanceStore(schema);
  const b = instanceStore(schema);
  const writer = createPlayerService({ baseUrl: BASE, store: a.store, authenticate: bearerTokens([TOKEN]) });
  const reader = createPlayerService({ baseUrl: BASE, store: b.store, authenticate: bearerTokens([TOKEN]) });
  const put = (alias: string) =>
    writer.fetch(new Request(`${BASE}/player/${id}`, { method: 'PUT', body: JSON.stringify({ alias }), headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' } }));
  return { b, reader, put };
}

feed.after(async () => {
  for (const store of stores) await store.close();
  for (const pool of pools) await pool.end();
  await dropTestSchemas();
});

it('should tell a listener on one instance what another instance committed', async () => {
  const schema = (await freshPostgresStore('feed')).schema;
  const a = instanceStore(schema).store;
  const b = instanceStore(schema).store;
  const heard: Changes[] = [];
  const stop = b.watch((changed) => heard.push(changed))!;
  await until(() => heard.includes('all'));
  assert.is(heard[0], 'unknown', 'nothing is kept before the feed listens');
  await a.putPlayer({ playerId: 'zoe', alias: 'zoe' });
  await a.createFriend('zoe', { playerId: 'yan', alias: 'yan' });
  await until(() => heard.flat().includes('player/yan'));
  assert.ok(heard.some((c) => Array.isArray(c) && c.includes('player/zoe')));
  stop();
});

it('should keep answers on the reading instance until the other instance changes the player', async () => {
  const { b, reader, put } = await twoInstances('ada');
  const read = async () => ((await (await reader.fetch(new Request(`${BASE}/player/ada`, { headers: { Accept: 'application/json' } }))).json()) as { alias: string }).alias;
  assert.is((await put('first')).status, 201);
  await until(async () => (await read()) === 'first');
  // The feed listens: repeated reads are answered from kept answers, without a query.
  await new Promise((r) => setTimeout(r, 100));
  await read();
  const before = b.queries();
  for (let i = 0; i < 20; i++) assert.is(await read(), 'first');
  assert.is(b.queries(), before, 'repeated reads are kept answers');
  assert.is((await put('second')).status, 200);
  await until(async () => (await read()) === 'second', 1000);
});

it('should answer another format and a write from the player record kept on one instance, and forget it when the other writes', async () => {
  const { b, reader, put } = await twoInstances('ida');
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const read = (accept: string) => reader.fetch(new Request(`${BASE}/player/ida`, { headers: { Accept: accept } }));
  const patch = (etag: string, alias: string) =>
    reader.fetch(new Request(`${BASE}/player/ida`, { method: 'PATCH', body: JSON.stringify([{ op: 'replace', path: '/alias', value: alias }]), headers: { ...auth, 'Content-Type': 'application/json-patch+json', 'If-Match': etag } }));
  assert.is((await put('first')).status, 201);
  await until(async () => ((await (await read('application/json')).json()) as { alias: string }).alias === 'first');
  await new Promise((r) => setTimeout(r, 100));
  const json = await read('application/json');
  const before = b.queries();
  const hal = await read('application/hal+json');
  assert.is(((await hal.json()) as { alternateName: string }).alternateName, 'first');
  assert.is(b.queries(), before, 'the other format from the kept record: no query');
  // A write on the reading instance starts from the kept record: one query, the compare-and-set.
  const patched = await patch(json.headers.get('etag')!, 'second');
  assert.is(patched.status, 200);
  assert.is(b.queries(), before + 1, 'only the conditional UPDATE');
  // The other instance writes: the reader hears it and reads again; a PATCH with the new ETag succeeds.
  const rewritten = await put('third');
  assert.is(rewritten.status, 200);
  await until(async () => ((await (await read('application/hal+json')).json()) as { alternateName: string }).alternateName === 'third', 1000);
  assert.is((await patch(rewritten.headers.get('etag')!, 'fourth')).status, 200);
  assert.is((await patch(rewritten.headers.get('etag')!, 'lost')).status, 412, 'an old ETag: the store says no');
  assert.is((await b.store.getPlayer('ida'))!.alias, 'fourth');
});

it('should keep nothing while the feed is down and listen again afterwards', async () => {
  const schema = (await freshPostgresStore('feed')).schema;
  const b = instanceStore(schema).store;
  const heard: Changes[] = [];
  b.watch((changed) => heard.push(changed));
  await until(() => heard.includes('all'));
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN ' || $1 || '%' AND pid <> pg_backend_pid()", [statementChannel(schema)]);
  await admin.end();
  await until(() => heard.includes('unknown', 1));
  const lost = heard.lastIndexOf('unknown');
  await until(() => heard.indexOf('all', lost) > lost, 5000);
  const a = instanceStore(schema).store;
  await a.putPlayer({ playerId: 'after', alias: 'after' });
  await until(() => heard.flat().includes('player/after'));
});

it('should end its pool when the store is closed while the feed is still opening its session', async () => {
  const schema = (await freshPostgresStore('closing')).schema;
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true });
  // A listener that stays: the feed starts opening its session, and is closed before the LISTEN is answered.
  store.watch(() => undefined);
  await store.close();
  const ended = pool.end().then(() => 'ended');
  const waited = await Promise.race([ended, new Promise((r) => setTimeout(() => r('still waiting'), 3000))]);
  assert.is(waited, 'ended', 'no connection of the feed was left checked out of the pool');
});

feed.run();
