import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seedDemoData } from '../src/index.js';
import { startInstance, type Instance } from './support/instances.js';
import { freshPostgresStore, dropTestSchemas, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

const multi = suite('two service instances on one PostgreSQL database');
const it = POSTGRES_SKIP ? multi.skip : multi;
noteSkip();

const TOKEN = 'multi-instance-token';
const BASE = 'http://api.test';
let a: Instance;
let b: Instance;

multi.before(async () => {
  if (POSTGRES_SKIP) return;
  const store = await freshPostgresStore('multi');
  await seedDemoData(store);
  // Behind one load balancer both instances build links from the same public base URL.
  const env = { DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: store.schema, BASE_URL: BASE, API_TOKEN: TOKEN };
  [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
});

multi.after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dropTestSchemas();
});

/** A request to an instance, with the path of the public URL. */
function call(instance: Instance, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(instance.origin + path, init);
}

/**
 * Polls `read` until `holds` accepts its answer, for at most the store's staleness bound (2 s by
 * default) and a margin for a loaded machine: an instance sees another's write when its change notice
 * arrives, and never later than the bound (docs/scaling.md), not at once.
 */
async function seenWithinBound<T>(read: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 2_000 + 1_000;
  for (;;) {
    const value = await read();
    if (holds(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const write = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
});

it('should read through one instance what was written through the other', async () => {
  const created = await call(a, '/player/zed', write('PUT', { alias: 'zed', displayName: 'Zed Zero' }));
  assert.is(created.status, 201);
  const read = await call(b, '/player/zed', { headers: { Accept: 'application/json' } });
  assert.is(read.status, 200);
  assert.equal(await read.json(), { playerId: 'zed', alias: 'zed', displayName: 'Zed Zero', profilePhotoUrl: `${BASE}/player/zed/avatar.png` });
  assert.ok((await call(b, '/player/zed', write('PUT', { alias: 'zedd' }))).ok);
  const alias = async () => (await (await call(a, '/player/zed', { headers: { Accept: 'application/json' } })).json()).alias;
  assert.is(await seenWithinBound(alias, (value) => value === 'zedd'), 'zedd');
  assert.is((await call(b, '/player/zed', { method: 'DELETE', headers: { Authorization: `Bearer ${TOKEN}` } })).status, 204);
  const status = async () => (await call(a, '/player/zed')).status;
  assert.is(await seenWithinBound(status, (value) => value === 404), 404);
});

it('should give the same ETag from both instances, and revalidate across them', async () => {
  for (const accept of ['application/json', 'application/hal+json']) {
    for (const path of ['/player/alice', '/player/alice/friends?page=2', '/player/alice/friends/search?search=ada&page=1']) {
      const [fromA, fromB] = await Promise.all([call(a, path, { headers: { Accept: accept } }), call(b, path, { headers: { Accept: accept } })]);
      assert.is(fromA.status, 200, path);
      const etag = fromA.headers.get('etag');
      assert.ok(etag, path);
      assert.is(fromB.headers.get('etag'), etag, `${accept} ${path}`);
      assert.is(fromB.headers.get('last-modified'), fromA.headers.get('last-modified'));
      assert.is(await fromB.text(), await fromA.text());
      const revalidated = await call(b, path, { headers: { Accept: accept, 'If-None-Match': etag! } });
      assert.is(revalidated.status, 304, path);
    }
  }
});

it('should let exactly one of 20 racing If-Match writes win across both instances', async () => {
  const current = await call(a, '/player/bob', { headers: { Accept: 'application/json' } });
  const etag = current.headers.get('etag')!;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(i % 2 ? b : a, '/player/bob', write('PUT', { alias: `racer${i}` }, { 'If-Match': etag }))),
  );
  const statuses = results.map((r) => r.status);
  const winners = results.filter((r) => r.ok);
  assert.is(winners.length, 1, `statuses ${statuses.join(' ')}`);
  assert.is(statuses.filter((s) => s === 412).length, 19);
  const winner = await winners[0]!.json();
  for (const instance of [a, b]) {
    const read = async () => {
      const now = await call(instance, '/player/bob', { headers: { Accept: 'application/json' } });
      return { alias: (await now.json()).alias, etag: now.headers.get('etag') };
    };
    const now = await seenWithinBound(read, (value) => value.alias === winner.alias);
    assert.is(now.alias, winner.alias);
    assert.is(now.etag, winners[0]!.headers.get('etag'));
  }
});

it('should add nothing when an Idempotency-Key retry lands on the other instance', async () => {
  const total = async () => Number((await call(a, '/player/alice/friends?page=1')).headers.get('total-count'));
  const before = await total();
  const body = { name: 'Retry Rita', alternateName: 'rita' };
  const first = await call(a, '/player/alice/friends', write('POST', body, { 'Idempotency-Key': 'retry-across-1' }));
  assert.is(first.status, 201);
  const retry = await call(b, '/player/alice/friends', write('POST', body, { 'Idempotency-Key': 'retry-across-1' }));
  assert.is(retry.status, 201);
  assert.is(retry.headers.get('location'), first.headers.get('location'));
  assert.is(retry.headers.get('idempotent-replayed'), 'true');
  assert.is(await total(), before + 1);
  // Both at once, one on each instance: still one friend.
  const racing = await Promise.all([a, b, a, b].map((i) => call(i, '/player/alice/friends', write('POST', { name: 'Race Ray', alternateName: 'ray' }, { 'Idempotency-Key': 'retry-across-2' }))));
  assert.equal(racing.map((r) => r.status), [201, 201, 201, 201]);
  assert.is(new Set(racing.map((r) => r.headers.get('location'))).size, 1);
  // The winner may have been the other instance: seen here when its notice arrives.
  assert.is(await seenWithinBound(total, (value) => value === before + 2), before + 2);
  const other = await call(b, '/player/alice/friends', write('POST', { name: 'Someone Else', alternateName: 'else' }, { 'Idempotency-Key': 'retry-across-1' }));
  assert.is(other.status, 422);
  assert.is(await total(), before + 2);
});

multi.run();
