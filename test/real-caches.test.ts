// The service judged the way real caches judge it: http-cache-semantics, and undici's cache interceptor
// in front of the real node:http server.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import CachePolicy from 'http-cache-semantics';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, cacheStores, interceptors, request, type Dispatcher } from 'undici';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, StoreError, type PlayerServiceOptions } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { BASE, demoService } from './support/service.js';
import type { ResourceType } from '../src/core/model/api.js';

const HAL = 'application/hal+json';
const auth = { authenticate: bearerTokens(['s3cret']) };

/** A CachePolicy whose clock the test sets. */
class ClockedPolicy extends CachePolicy {
  static time = Date.now();
  now(): number {
    return ClockedPolicy.time;
  }
}

const asRequest = (path: string, headers: Record<string, string> = {}) => ({
  url: BASE + path,
  method: 'GET',
  headers: Object.fromEntries(Object.entries({ host: new URL(BASE).host, ...headers }).map(([k, v]) => [k.toLowerCase(), v])),
});
const asResponse = (res: Response) => ({ status: res.status, headers: Object.fromEntries(res.headers) });

const semantics = suite('http-cache-semantics (CachePolicy) on the service responses');

semantics('should store a player, reuse it within max-age, and revalidate it after with a 304', async () => {
  const { call } = await demoService();
  ClockedPolicy.time = Date.now();
  const req = asRequest('/player/alice');
  const res = await call('/player/alice');
  const policy = new ClockedPolicy(req, asResponse(res), { shared: true });
  assert.ok(policy.storable());
  assert.ok(policy.satisfiesWithoutRevalidation(req));
  assert.ok(policy.timeToLive() > 58_000 && policy.timeToLive() <= 60_000);
  ClockedPolicy.time += 61_000;
  assert.not.ok(policy.satisfiesWithoutRevalidation(req));
  const revalidation = policy.revalidationHeaders(req);
  assert.is(revalidation['if-none-match'], res.headers.get('etag'));
  const answer = await call('/player/alice', { headers: revalidation as Record<string, string> });
  assert.is(answer.status, 304);
  const { policy: renewed, modified, matches } = policy.revalidatedPolicy(req, asResponse(answer));
  assert.ok(matches);
  assert.not.ok(modified);
  assert.ok(renewed.satisfiesWithoutRevalidation(req));
});

semantics('should see a changed page as modified on revalidation', async () => {
  const { call, store } = await demoService();
  const req = asRequest('/player/alice/friends?page=2');
  const policy = new CachePolicy(req, asResponse(await call('/player/alice/friends?page=2')), { shared: true });
  await store.putPlayer({ playerId: 'lena-12', alias: 'lena-the-great' });
  const answer = await call('/player/alice/friends?page=2', { headers: policy.revalidationHeaders(req) as Record<string, string> });
  assert.is(answer.status, 200);
  assert.ok(policy.revalidatedPolicy(req, asResponse(answer)).modified);
});

semantics('should not serve one format to a request for another (Vary: Accept)', async () => {
  const { call } = await demoService();
  const policy = new CachePolicy(asRequest('/player/alice'), asResponse(await call('/player/alice')), { shared: true });
  assert.ok(policy.satisfiesWithoutRevalidation(asRequest('/player/alice')));
  assert.not.ok(policy.satisfiesWithoutRevalidation(asRequest('/player/alice', { Accept: HAL })));
  assert.not.ok(policy.satisfiesWithoutRevalidation(asRequest('/player/alice', { Authorization: 'Bearer s3cret' })));
});

semantics('should let a shared cache store a credentialed response only to revalidate it, passing Authorization on', async () => {
  const { call } = await demoService(auth);
  const req = asRequest('/player/alice', { Authorization: 'Bearer s3cret' });
  const res = await call('/player/alice', { headers: { Authorization: 'Bearer s3cret' } });
  const policy = new CachePolicy(req, asResponse(res), { shared: true });
  assert.ok(policy.storable());
  assert.not.ok(policy.satisfiesWithoutRevalidation(req));
  const headers = policy.revalidationHeaders(req) as Record<string, string>;
  assert.is(headers.authorization, 'Bearer s3cret');
  assert.is((await call('/player/alice', { headers })).status, 304);
  // The same revalidation with revoked credentials: 401, which the cache must not turn into a reuse.
  const revoked = policy.revalidationHeaders(asRequest('/player/alice', { Authorization: 'Bearer revoked' })) as Record<string, string>;
  const denied = await call('/player/alice', { headers: revoked });
  assert.is(denied.status, 401);
  assert.ok(policy.revalidatedPolicy(req, asResponse(denied)).modified);
  assert.not.ok(new CachePolicy(req, asResponse(denied), { shared: true }).storable());
});

semantics('should keep credentialed responses out of shared caches when cache.authorized is private', async () => {
  const { call } = await demoService({ ...auth, cache: { authorized: 'private' } });
  const req = asRequest('/player/alice', { Authorization: 'Bearer s3cret' });
  const res = asResponse(await call('/player/alice', { headers: { Authorization: 'Bearer s3cret' } }));
  assert.not.ok(new CachePolicy(req, res, { shared: true }).storable());
  const own = new CachePolicy(req, res, { shared: false });
  assert.ok(own.storable());
  assert.ok(own.satisfiesWithoutRevalidation(req));
});

semantics('should let a cache serve a stale copy while the store is unreachable, with stale-if-error', async () => {
  class FlakyStore extends MemoryPlayerStore {
    down = false;
    override async get(type: ResourceType, id: string) {
      if (this.down) throw new StoreError('unavailable', 'database unreachable');
      return super.get(type, id);
    }
  }
  const store = new FlakyStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: BASE, store, cache: { player: { staleIfError: 3600 } } });
  const call = (headers: Record<string, string> = {}) => service.fetch(new Request(`${BASE}/player/alice`, { headers }));
  ClockedPolicy.time = Date.now();
  const req = asRequest('/player/alice');
  const policy = new ClockedPolicy(req, asResponse(await call()), { shared: true });
  ClockedPolicy.time += 120_000;
  store.down = true;
  const failed = await call(policy.revalidationHeaders(req) as Record<string, string>);
  assert.is(failed.status, 503);
  assert.is(failed.headers.get('cache-control'), 'no-store');
  assert.ok(failed.headers.get('retry-after'));
  const { modified } = policy.revalidatedPolicy(req, asResponse(failed));
  assert.not.ok(modified);
});

semantics('should never store an error', async () => {
  const { call } = await demoService(auth);
  for (const [path, headers] of [['/player/nobody', {}], ['/player/alice', { Accept: 'text/csv' }], ['/player/alice', { Authorization: 'Bearer x' }]] as const) {
    const policy = new CachePolicy(asRequest(path, headers), asResponse(await call(path, { headers })), { shared: false });
    assert.not.ok(policy.storable(), path);
  }
});

semantics.run();

const undici = suite('undici interceptors.cache() in front of the node:http server');
let server: Server;
let origin = '';
let hits: string[] = [];
let store: MemoryPlayerStore;
let agent: Dispatcher;

undici.before(async () => {
  store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options: PlayerServiceOptions = { baseUrl: origin, store, ...auth, cache: { search: { maxAge: 2 } } };
  const listener = toNodeListener(createPlayerService(options));
  server.on('request', (req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers['if-none-match'] ? 'conditional' : 'plain'}`);
    listener(req, res);
  });
});

undici.before.each(() => {
  hits = [];
  agent = new Agent().compose(interceptors.cache({ store: new cacheStores.MemoryCacheStore(), methods: ['GET', 'HEAD'] }));
});

undici.after.each(async () => {
  await agent.close();
});

undici.after(async () => {
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await request(origin + path, { dispatcher: agent, headers });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
};

undici('should answer a repeat GET within max-age without reaching the origin', async () => {
  const first = await get('/player/alice');
  assert.is(first.status, 200);
  const again = await get('/player/alice');
  assert.is(again.status, 200);
  assert.is(again.body, first.body);
  assert.equal(hits, ['GET /player/alice plain']);
});

undici('should revalidate after max-age, get a 304, and serve the cached body', async () => {
  const path = '/player/alice/friends/search?search=a';
  const first = await get(path);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const again = await get(path);
  assert.is(again.status, 200);
  assert.is(again.body, first.body);
  assert.equal(hits, [`GET ${path} plain`, `GET ${path} conditional`]);
});

undici('should not serve a format from another format\'s entry (Vary: Accept)', async () => {
  const json = await get('/player/alice', { accept: 'application/json' });
  const hal = await get('/player/alice', { accept: HAL });
  assert.is(hal.headers['content-type'], HAL);
  assert.ok(JSON.parse(hal.body)._links);
  assert.is((await get('/player/alice', { accept: 'application/json' })).body, json.body);
  assert.is((await get('/player/alice', { accept: HAL })).body, hal.body);
  assert.is(hits.length, 2);
});

undici('should revalidate every credentialed request with the origin, and pass its 401 on', async () => {
  const path = '/player/bob';
  const first = await get(path, { authorization: 'Bearer s3cret' });
  assert.is(first.headers['cache-control'], 'public, max-age=0');
  const again = await get(path, { authorization: 'Bearer s3cret' });
  assert.is(again.status, 200);
  assert.is(again.body, first.body);
  assert.equal(hits, [`GET ${path} plain`, `GET ${path} conditional`]);
  const revoked = await get(path, { authorization: 'Bearer revoked' });
  assert.is(revoked.status, 401);
  assert.is.not(revoked.body, first.body);
  // Anonymous readers get their own entry, never the credentialed one (Vary: Authorization).
  await get(path);
  await get(path);
  assert.is(hits.length, 4);
});

undici('should drop the cached player when a write goes through the cache, and agree on the new ETag', async () => {
  const path = '/player/ivo-09';
  const before = await get(path);
  assert.is((await get(path)).body, before.body);
  const res = await request(origin + path, {
    dispatcher: agent,
    method: 'PUT',
    headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json', 'if-match': before.headers.etag as string },
    body: JSON.stringify({ playerId: 'ivo-09', alias: 'ivo-renamed' }),
  });
  assert.is(res.statusCode, 200);
  const written = res.headers.etag as string;
  await res.body.text();
  // RFC 9111 section 4.4: a cache invalidates the target of an unsafe request that succeeded.
  const after = await get(path);
  assert.match(after.body, 'ivo-renamed');
  assert.is(after.headers.etag, written);
  assert.equal(hits, [`GET ${path} plain`, `PUT ${path} plain`, `GET ${path} plain`]);
});

undici('should never store errors', async () => {
  await get('/player/nobody');
  await get('/player/nobody');
  await get('/player/alice', { accept: 'text/csv' });
  await get('/player/alice', { accept: 'text/csv' });
  assert.is(hits.length, 4);
});

undici.run();
