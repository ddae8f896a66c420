import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService, MemoryPlayerStore, MemoryRateLimitCounter, seedDemoData, type RateLimitCounter } from '../src/index.js';
import { answererOf } from '../src/core/service/answerer.js';
import { addressBucket } from '../src/core/http/ip-address.js';
import { addressKey, countRequest, rateLimitOptionFromEnv, resolveRateLimit, type RateVerdict } from '../src/core/service/rate-limit.js';
import { PostgresRateLimitCounter } from '../src/stores/postgres/rate-limit-counter.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';
import { RawConnection, type RawAnswer } from './support/raw-http.js';
import { startInstance, type Instance } from './support/instances.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, testPool, TEST_DATABASE_URL } from './support/postgres.js';

/** Waits out the last seconds of a fixed window, so that a test's requests fall in one window. */
async function awayFromWindowEdge(windowSeconds: number): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < 4000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const remaining = (a: RawAnswer | Response) => {
  const value = a instanceof Response ? a.headers.get('ratelimit') : a.headers.ratelimit;
  return Number(/;r=(\d+)/.exec(value ?? '')?.[1]);
};

// Every Node adapter over one keep-alive connection each: the count, the fields, the 429.
const overHttp = suite('rate limit over HTTP (node, express, fastify)');
let servers: AdapterServer[] = [];
overHttp.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify'], { rateLimit: { limit: 3, windowSeconds: 60 } });
});
overHttp.after(() => Promise.all(servers.map((s) => s.close())).then(() => undefined));

overHttp('counts a client by its address: RateLimit fields on each answer, then 429 problem with Retry-After, on the same connection', async () => {
  await awayFromWindowEdge(60);
  for (const { origin, adapter } of servers) {
    const c = await RawConnection.open(origin);
    const get = (target: string) => c.request({ method: 'GET', target, headers: [['Accept', 'application/hal+json']] });
    const answers = [await get('/player/alice'), await get('/player/alice'), await get('/player/bob')];
    assert.equal(answers.map((a) => a.status), [200, 200, 200], adapter);
    assert.equal(answers.map(remaining), [2, 1, 0], `${adapter}: the quota left, answer by answer (the repeated URL counts: a kept answer too)`);
    for (const a of answers) {
      assert.is(a.headers['ratelimit-policy'], '"default";q=3;w=60', adapter);
      assert.match(a.headers.ratelimit!, /^"default";r=\d+;t=\d+$/);
    }
    const over = await get('/player/alice');
    assert.is(over.status, 429, adapter);
    assert.is(over.headers['content-type'], 'application/problem+json');
    const problem = JSON.parse(over.body.toString());
    assert.is(problem.status, 429);
    assert.is(problem.type, 'tag:player-hypermedia,2026:rate-limited');
    const retry = Number(over.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);
    assert.is(over.headers.ratelimit, `"default";r=0;t=${retry}`);
    assert.is(over.headers['cache-control'], 'no-store');
    // The connection stays usable: the next request on it is answered (429 again), not left hanging.
    assert.is((await get('/player/bob')).status, 429, `${adapter}: keep-alive after a 429`);
    // Health probes are not counted: a load balancer keeps seeing the instance.
    assert.is((await get('/healthz')).status, 200);
    c.close();
  }
});

overHttp('a principal has a quota of its own; invalid credentials are counted by address', async () => {
  const [server] = await startAdapterServers(['node'], { rateLimit: { limit: 2, windowSeconds: 60 } });
  try {
    await awayFromWindowEdge(60);
    const { origin } = server!;
    const anonymous = () => fetch(`${origin}/player/alice`);
    const withToken = (token: string) => fetch(`${origin}/player/alice`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal([(await anonymous()).status, (await anonymous()).status, (await anonymous()).status], [200, 200, 429]);
    const first = await withToken(WRITE_TOKEN);
    assert.is(first.status, 200, 'the address is spent, the principal is not');
    assert.is(remaining(first), 1);
    assert.is((await withToken(WRITE_TOKEN)).status, 200);
    const over = await withToken(WRITE_TOKEN);
    assert.is(over.status, 429);
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    // A bad token is counted by the address, which is spent: random tokens do not buy fresh quotas.
    assert.is((await withToken('not-a-token')).status, 429);
  } finally {
    await server!.close();
  }
  const [fresh] = await startAdapterServers(['node'], { rateLimit: { limit: 2, windowSeconds: 60 } });
  try {
    const refused = await fetch(`${fresh!.origin}/player/alice`, { headers: { authorization: 'Bearer wrong' } });
    assert.is(refused.status, 401, 'invalid credentials within the quota: 401 as ever');
    assert.is(remaining(refused), 1, 'and counted');
  } finally {
    await fresh!.close();
  }
});

overHttp('behind a trusted proxy the last X-Forwarded-For hop is the client; untrusted, the field is ignored', async () => {
  const [trusting, untrusting] = [
    ...(await startAdapterServers(['node'], { trustProxy: true, rateLimit: { limit: 1, windowSeconds: 60 } })),
    ...(await startAdapterServers(['node'], { rateLimit: { limit: 1, windowSeconds: 60 } })),
  ];
  try {
    await awayFromWindowEdge(60);
    const via = (origin: string, xff: string) => fetch(`${origin}/player/alice`, { headers: { 'x-forwarded-for': xff } });
    assert.is((await via(trusting!.origin, '203.0.113.9')).status, 200);
    assert.is((await via(trusting!.origin, '198.51.100.1, 203.0.113.9')).status, 429, 'a spoofed first hop does not buy a quota');
    assert.is((await via(trusting!.origin, '203.0.113.10')).status, 200, 'another client');
    const rfc = await startAdapterServers(['node'], { trustProxy: { fields: 'forwarded' }, rateLimit: { limit: 1, windowSeconds: 60 } });
    try {
      assert.is((await fetch(`${rfc[0]!.origin}/player/alice`, { headers: { forwarded: 'for=192.0.2.1, for="[2001:db8::1]:4711"' } })).status, 200);
      assert.is((await fetch(`${rfc[0]!.origin}/player/alice`, { headers: { forwarded: 'for="[2001:db8::2]"' } })).status, 429, 'one IPv6 /64, one client');
    } finally {
      await rfc[0]!.close();
    }
    assert.is((await via(untrusting!.origin, '203.0.113.9')).status, 200);
    assert.is((await via(untrusting!.origin, '203.0.113.10')).status, 429, 'without trustProxy every request of the socket address shares one count');
  } finally {
    await Promise.all([trusting!.close(), untrusting!.close()]);
  }
});

overHttp('CORS preflights are not counted, and a page can read a 429 and its fields', async () => {
  const [server] = await startAdapterServers(['node'], { cors: { origins: ['https://game.example'] }, rateLimit: { limit: 1, windowSeconds: 60 } });
  try {
    await awayFromWindowEdge(60);
    const preflight = () =>
      fetch(`${server!.origin}/player/alice`, { method: 'OPTIONS', headers: { origin: 'https://game.example', 'access-control-request-method': 'PATCH' } });
    assert.is((await preflight()).status, 204);
    assert.is((await preflight()).status, 204);
    const read = () => fetch(`${server!.origin}/player/alice`, { headers: { origin: 'https://game.example' } });
    assert.is((await read()).status, 200);
    const over = await read();
    assert.is(over.status, 429);
    assert.is(over.headers.get('access-control-allow-origin'), 'https://game.example');
    for (const field of ['Retry-After', 'RateLimit', 'RateLimit-Policy']) assert.match(over.headers.get('access-control-expose-headers')!, field);
    assert.is((await preflight()).status, 204, 'a preflight after the limit still passes');
  } finally {
    await server!.close();
  }
});

overHttp.run();

// The parts, without a server.
const parts = suite('rate limit parts');

parts('addresses as buckets: IPv6 by /64, IPv4-mapped as IPv4, ports and brackets dropped', () => {
  assert.is(addressBucket('192.0.2.1'), '192.0.2.1');
  assert.is(addressBucket('192.0.2.1:8080'), '192.0.2.1');
  assert.is(addressBucket('::ffff:192.0.2.1'), '192.0.2.1');
  assert.is(addressBucket('2001:db8::7'), '2001:db8:0:0::/64');
  assert.is(addressBucket('[2001:DB8:0:0:ffff::1]:4711'), '2001:db8:0:0::/64');
  assert.is(addressBucket('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.is(addressBucket('::1'), '0:0:0:0::/64');
  assert.is(addressBucket('_hidden'), undefined, 'an obfuscated node (RFC 7239 section 6.3) is no address');
  const head = (headers: Record<string, string>, clientAddress?: string) => ({ method: 'GET', url: 'http://x.test/', headers: new Headers(headers), clientAddress });
  assert.is(addressKey(head({}, '10.0.0.1'), false, undefined), 'address:10.0.0.1');
  assert.is(addressKey(head({ 'x-forwarded-for': '1.2.3.4' }, '10.0.0.1'), false, undefined), 'address:10.0.0.1');
  assert.is(addressKey(head({ 'x-forwarded-for': '1.2.3.4' }, '10.0.0.1'), { fields: 'x-forwarded', hops: 1 }, undefined), 'address:1.2.3.4');
  assert.is(addressKey(head({ forwarded: 'for="oops' }, '10.0.0.1'), { fields: 'forwarded', hops: 1 }, undefined), 'address:10.0.0.1', 'an unreadable Forwarded falls back');
  assert.is(addressKey(head({ 'cf-connecting-ip': '5.6.7.8' }), false, (h) => h.headers.get('cf-connecting-ip')), 'address:5.6.7.8');
  assert.is(addressKey(head({}), false, undefined), 'address:unknown', 'nothing tells the address: one shared bucket');
});

parts('the memory counter starts again in a new window and forgets the old one', () => {
  const counter = new MemoryRateLimitCounter();
  assert.equal([counter.increment('a', 7), counter.increment('a', 7), counter.increment('b', 7)], [1, 2, 1]);
  assert.is(counter.increment('a', 8), 1);
  assert.is(counter.increment('b', 7), 1, 'a late count joins the current window');
});

parts('the verdict: remaining quota, reset seconds within the window, Retry-After only when over', async () => {
  const policy = resolveRateLimit({ limit: 2, windowSeconds: 10 })!;
  const t0 = 1_000_000_000_000 + 3_500; // 3.5 s into a 10 s window
  const first = countRequest(policy, 'k', t0) as RateVerdict;
  assert.equal(first, { limited: false, reset: 7, fields: [['ratelimit-policy', '"default";q=2;w=10'], ['ratelimit', '"default";r=1;t=7']] });
  countRequest(policy, 'k', t0);
  const third = countRequest(policy, 'k', t0) as RateVerdict;
  assert.ok(third.limited);
  assert.equal(third.fields.at(-1), ['retry-after', '7']);
  const failing: RateLimitCounter = { increment: () => Promise.reject(new Error('database away')) };
  assert.is(await countRequest(resolveRateLimit({ limit: 1, counter: failing })!, 'k', t0), undefined, 'a failing counter lets requests through');
  const throwing: RateLimitCounter = {
    increment: () => {
      throw new Error('broken');
    },
  };
  assert.is(countRequest(resolveRateLimit({ limit: 1, counter: throwing })!, 'k', t0), undefined);
});

parts('a failing counter: the request is answered, without RateLimit fields', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: 'http://x.test', store, rateLimit: { limit: 1, counter: { increment: () => Promise.reject(new Error('away')) } } });
  for (let i = 0; i < 3; i++) {
    const res = await service.fetch(new Request('http://x.test/player/alice'));
    assert.is(res.status, 200);
    assert.is(res.headers.get('ratelimit'), null);
  }
});

parts('the client address survives the stages that rewrite a head (a method in lower case, coded preconditions)', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: 'http://x.test', store, authenticate: bearerTokens(['t']), compression: {}, rateLimit: { limit: 1 } });
  const answer = answererOf(service)!;
  const from = (clientAddress: string, method: string, headers: Record<string, string> = {}) =>
    answer({ method, url: 'http://x.test/player/alice', headers: new Headers(headers), clientAddress }, () => new Request('http://x.test/player/alice'));
  assert.is((await from('10.0.0.1', 'get')).status, 200);
  assert.is((await from('10.0.0.1', 'get')).status, 429);
  assert.is((await from('10.0.0.2', 'get')).status, 200, 'another address, another count (not one "unknown" bucket)');
  // A bad token is counted by address after compression rewrote the preconditions of the head.
  const coded = { authorization: 'Bearer wrong', 'accept-encoding': 'gzip', 'if-none-match': '"abc-gzip"' };
  assert.is((await from('10.0.0.3', 'GET', coded)).status, 401);
  assert.is((await from('10.0.0.3', 'GET', coded)).status, 429);
  assert.is((await from('10.0.0.4', 'GET', coded)).status, 401);
});

parts('bad options are a TypeError; RATE_LIMIT reads requests per minute', () => {
  for (const bad of [{ limit: 0 }, { limit: 1.5 }, { limit: 10, windowSeconds: 0 }, { limit: 10, counter: {} as RateLimitCounter }, { limit: 10, clientAddress: 'x' as never }]) {
    assert.throws(() => createPlayerService({ baseUrl: 'http://x.test', rateLimit: bad }), TypeError, JSON.stringify(bad));
  }
  assert.is(rateLimitOptionFromEnv({}, {}), undefined);
  assert.is(rateLimitOptionFromEnv({ RATE_LIMIT: ' ' }, {}), undefined);
  assert.equal(rateLimitOptionFromEnv({ RATE_LIMIT: '600' }, {}), { limit: 600, windowSeconds: 60 });
  const shared = new MemoryRateLimitCounter();
  assert.is(rateLimitOptionFromEnv({ RATE_LIMIT: '5' }, { rateLimitCounter: () => shared })!.counter, shared, "the store's shared counter");
  for (const bad of ['0', '-1', '1e3', 'ten', '2.5']) assert.throws(() => rateLimitOptionFromEnv({ RATE_LIMIT: bad }, {}), TypeError, bad);
});

parts.run();

// Two example server processes on one PostgreSQL database share each client's count.
const shared = suite('rate limit shared by two instances on PostgreSQL');
const it = POSTGRES_SKIP ? shared.skip : shared;
noteSkip();
let a: Instance;
let b: Instance;
let schema = '';

shared.before(async () => {
  if (POSTGRES_SKIP) return;
  const store = await freshPostgresStore('ratelimit');
  schema = store.schema;
  await seedDemoData(store);
  const env = { DATABASE_URL: TEST_DATABASE_URL!, DATABASE_SCHEMA: schema, RATE_LIMIT: '4', LOG_LEVEL: 'silent' };
  [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
});
shared.after(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await dropTestSchemas();
});

it('should answer 429 after the limit counted over both instances (RATE_LIMIT=4: two requests on each, then neither)', async () => {
  await awayFromWindowEdge(60);
  const statuses: number[] = [];
  for (const instance of [a, b, a, b]) {
    const res = await fetch(`${instance.origin}/player/alice`);
    statuses.push(res.status);
    assert.is(res.headers.get('ratelimit-policy'), '"default";q=4;w=60');
  }
  assert.equal(statuses, [200, 200, 200, 200]);
  const [fromA, fromB] = [await fetch(`${a.origin}/player/alice`), await fetch(`${b.origin}/player/bob`)];
  assert.is(fromA.status, 429);
  assert.is(fromB.status, 429, 'the other instance knows the count too');
  assert.ok(Number(fromB.headers.get('retry-after')) >= 1);
  // Each instance counted up to its first 429, and no further: its later 429s write nothing.
  for (let i = 0; i < 10; i++) assert.is((await fetch(`${[a, b][i % 2]!.origin}/player/alice`)).status, 429);
  const rows = await testPool!.query(`SELECT key, count FROM "${schema}".rate_limit_counts`);
  const hashed = createHash('sha256').update('60s address:127.0.0.1').digest('base64url');
  assert.equal(rows.rows.map((r) => [r.key, r.count]), [[hashed, 6]], 'one row per client, its key hashed');
});

it('should count exactly under concurrent increments, start again in a new window, and never count back', async () => {
  const counter = new PostgresRateLimitCounter(testPool!, schema);
  // Windows of now, as the instances above count in: each counter deletes the rows of windows older than
  // the one before its own (not awaited), so a row of a window long past could go while this counts.
  const now = Math.floor(Date.now() / 60_000);
  const counts = await Promise.all(Array.from({ length: 20 }, () => counter.increment('c', now, 60)));
  assert.equal([...counts].sort((x, y) => x - y), Array.from({ length: 20 }, (_, i) => i + 1), 'no count lost or repeated');
  assert.is(await counter.increment('c', now + 1, 60), 1, 'a new window starts at 1');
  assert.is(await counter.increment('c', now, 60), 2, "a late instance's count joins the current window");
  assert.is(await counter.increment('c', now + 1, 10), 1, 'another window length is another count');
});

it('should count a key of any length (a long principal id) in a row of fixed size: the limit never fails open', async () => {
  const counter = new PostgresRateLimitCounter(testPool!, schema);
  const long = `principal:${'p'.repeat(20_000)}`;
  const now = Math.floor(Date.now() / 60_000);
  assert.equal([await counter.increment(long, now, 60), await counter.increment(long, now, 60)], [1, 2]);
  const { rows } = await testPool!.query(`SELECT max(length(key)) AS longest FROM "${schema}".rate_limit_counts`);
  assert.ok(rows[0].longest <= 43, `key of ${rows[0].longest} characters`);
});

shared.run();
