// The rate limit behind a real proxy and under hostile clients: keys come from what the trusted proxy
// wrote, are parsed addresses of bounded size, a 429 costs no count, memory stays bounded.
import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, MemoryPlayerStore, MemoryRateLimitCounter, seedDemoData, type RateLimitCounter } from '../../src/index.js';
import { answererOf } from '../../src/core/service/answerer.js';
import { startAdapterServers, type AdapterServer } from '../support/adapter-servers.js';
import { startNginx, which, type RunningProxy } from '../support/proxies.js';

const hostile = suite('trustProxy and the rate limit under hostile clients');
const NGINX = which('nginx');
if (!NGINX) console.log('note: the nginx part of the trustProxy test skipped: nginx is not installed (.ci/run installs it)');

/** Waits out the last seconds of a fixed window, so that a test's requests fall in one window. */
async function awayFromWindowEdge(windowSeconds: number): Promise<void> {
  const left = windowSeconds * 1000 - (Date.now() % (windowSeconds * 1000));
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** A GET from a chosen loopback address (127.0.0.0/8 is all local on Linux): another client. */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

let server: AdapterServer | undefined;
let nginx: RunningProxy | undefined;

hostile.before(async () => {
  if (!NGINX) return;
  [server] = await startAdapterServers(['node'], { trustProxy: true, rateLimit: { limit: 5, windowSeconds: 60 } });
  nginx = await startNginx(new URL(server!.origin).host);
});
hostile.after(async () => {
  await nginx?.stop();
  await server?.close();
});

const viaNginx = NGINX ? hostile : hostile.skip;

viaNginx('behind the documented nginx block, rotating Forwarded or X-Forwarded-For buys no quota, and naming a victim does not spend its quota', async () => {
  await awayFromWindowEdge(60);
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    // Distinct URLs: nginx's cache answers none of them, each reaches the service. From 127.0.0.3 (the
    // probe that waited for nginx to listen was counted for 127.0.0.1).
    const headers = { Forwarded: `for=198.51.100.${i}`, 'X-Forwarded-For': `127.0.0.9, 203.0.113.${i}` };
    statuses.push(await getFrom('127.0.0.3', `${nginx!.origin}/player/alice?attempt=${i}`, headers));
  }
  assert.equal(statuses.slice(0, 5), [200, 200, 200, 200, 200]);
  assert.ok(statuses.slice(5).every((s) => s === 429), `after the quota every request is 429: ${statuses.join(' ')}`);
  // The attacker named 127.0.0.9 in every request: that client's quota is untouched.
  for (let i = 0; i < 5; i++) assert.is(await getFrom('127.0.0.9', `${nginx!.origin}/player/bob?victim=${i}`), 200, `victim request ${i + 1}`);
  assert.is(await getFrom('127.0.0.9', `${nginx!.origin}/player/bob?victim=6`), 429, 'and its own sixth is limited');
});

hostile('should key on a parsed address of bounded size: a 10 KB for= or garbage costs one shared bucket, IPv4-mapped hex forms are IPv4', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const counter = new MemoryRateLimitCounter();
  const keys: string[] = [];
  const recording: RateLimitCounter = { increment: (key, window) => (keys.push(key), counter.increment(key, window)) };
  const service = createPlayerService({ baseUrl: 'http://x.test', store, trustProxy: { fields: 'forwarded' }, rateLimit: { limit: 1000, counter: recording } });
  const answer = answererOf(service)!;
  const from = (forwarded: string) => answer({ method: 'GET', url: 'http://x.test/player/alice', headers: new Headers({ forwarded }), clientAddress: '10.0.0.1' }, () => new Request('http://x.test/player/alice'));
  await from(`for="${'x'.repeat(10_000)}"`);
  await from('for=_obfuscated');
  await from('for="[::ffff:c000:201]"');
  await from('for="[::ffff:192.0.2.2]:8080"');
  await from('for="[2001:db8:a:b:1::1]"');
  await from('for="[2001:db8:a:b:2::2]"');
  assert.equal(keys, ['address:unknown', 'address:unknown', 'address:192.0.2.1', 'address:192.0.2.2', 'address:2001:db8:a:b::/64', 'address:2001:db8:a:b::/64']);
  for (const key of keys) assert.ok(key.length < 40);
});

hostile('should hold a bounded number of clients in the memory counter, and count 429s without counting them', async () => {
  const counter = new MemoryRateLimitCounter(1000);
  for (let i = 0; i < 20_000; i++) counter.increment(`address:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, 1);
  assert.ok(counter.size <= 1001, `${counter.size} keys held`);
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  let increments = 0;
  const inner = new MemoryRateLimitCounter();
  const counting: RateLimitCounter = { increment: (key, window) => (increments++, inner.increment(key, window)) };
  const service = createPlayerService({ baseUrl: 'http://x.test', store, rateLimit: { limit: 3, windowSeconds: 60, counter: counting } });
  const answer = answererOf(service)!;
  await awayFromWindowEdge(60);
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) {
    const a = await answer({ method: 'GET', url: 'http://x.test/player/alice', headers: new Headers(), clientAddress: '10.9.9.9' }, () => new Request('http://x.test/player/alice'));
    statuses.push(a.status);
  }
  assert.equal(statuses.filter((s) => s === 429).length, 47);
  assert.is(increments, 4, 'the counter is asked until the first 429, then not again in the window');
});

hostile('should count a bare OPTIONS with Access-Control-Request-Method but no Origin: it is no CORS preflight', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: 'http://x.test', store, cors: { origins: ['https://game.example'] }, rateLimit: { limit: 2, windowSeconds: 60 } });
  const answer = answererOf(service)!;
  await awayFromWindowEdge(60);
  const options = (headers: Record<string, string>) =>
    answer({ method: 'OPTIONS', url: 'http://x.test/player/alice', headers: new Headers(headers), clientAddress: '10.1.1.1' }, () => new Request('http://x.test/player/alice', { method: 'OPTIONS' }));
  const bare = { 'access-control-request-method': 'PATCH' };
  const statuses = [await options(bare), await options(bare), await options(bare)].map((a) => a.status);
  assert.equal(statuses, [204, 204, 429]);
  const preflight = await options({ ...bare, origin: 'https://game.example' });
  assert.is(preflight.status, 204, 'a real preflight is still never limited');
});

hostile.run();
