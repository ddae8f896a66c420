// Real nginx and Varnish in front of the service, configured as docs/caching.md says (the blocks are read
// from that page): reads are served by the cache, a change shows within max-age (no stale copies the
// service did not allow), expired entries are revalidated with a 304, credentialed reads pass through.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { nodeContentCodings, toNodeListener } from '../src/adapters/node.js';
import { startNginx, startVarnish, which, type RunningProxy } from './support/proxies.js';

/** The max-age of players and pages here: short, so that the test sees entries expire. */
const HOLD = 2;
const TOKEN = 'shared-cache-token';

interface Hit {
  method: string;
  url: string;
  ifNoneMatch: string | undefined;
  status?: number;
}

const caches: { name: string; start: (upstream: string) => Promise<RunningProxy>; program: string }[] = [
  { name: 'nginx', start: (u) => startNginx(u), program: 'nginx' },
  { name: 'Varnish', start: (u) => startVarnish(u), program: 'varnishd' },
];

for (const cache of caches) {
  const test = suite(`${cache.name} in front of the service, configured as docs/caching.md says`);
  const missing = which(cache.program) === undefined;
  if (missing) console.log(`note: ${cache.name} tests skipped: ${cache.program} is not installed (.ci/run installs Debian's package)`);
  const it = missing ? test.skip : test;
  let server: Server;
  let proxy: RunningProxy;
  let store: MemoryPlayerStore;
  const hits: Hit[] = [];

  test.before(async () => {
    if (missing) return;
    store = new MemoryPlayerStore();
    await seedDemoData(store);
    const service = createPlayerService({
      baseUrl: 'http://api.test',
      store,
      authenticate: bearerTokens([TOKEN]),
      cache: { player: { maxAge: HOLD }, friends: { maxAge: HOLD } },
      compression: { codings: nodeContentCodings() },
    });
    const listener = toNodeListener(service);
    server = createServer((req, res) => {
      const hit: Hit = { method: req.method!, url: req.url!, ifNoneMatch: req.headers['if-none-match'] };
      hits.push(hit);
      res.on('finish', () => (hit.status = res.statusCode));
      listener(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    proxy = await cache.start(`127.0.0.1:${port}`);
  });
  test.after(async () => {
    await proxy?.stop();
    if (server) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const through = (path: string, headers: Record<string, string> = {}) => fetch(proxy.origin + path, { headers: { accept: 'application/json', ...headers } });
  const originHits = (path: string) => hits.filter((h) => h.url === path).length;
  const sleepUntil = (t: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, t - Date.now())));

  it('serves repeated reads from the cache, one entry per Accept, and passes credentialed reads on', async () => {
    const first = await through('/player/bob');
    assert.is(first.status, 200, proxy.output());
    assert.is((await first.json()).alias, 'bobby');
    for (let i = 0; i < 3; i++) assert.is((await through('/player/bob')).status, 200);
    assert.is(originHits('/player/bob'), 1, `${cache.name} served the repeats (origin saw ${originHits('/player/bob')})`);
    const hal = await through('/player/bob', { accept: 'application/hal+json' });
    assert.is(hal.headers.get('content-type'), 'application/hal+json');
    assert.ok((await hal.json())._links, 'a HAL request gets HAL, not the stored JSON (Vary: Accept)');
    assert.is(originHits('/player/bob'), 2);
    await through('/player/bob', { authorization: `Bearer ${TOKEN}` });
    await through('/player/bob', { authorization: `Bearer ${TOKEN}` });
    assert.is(originHits('/player/bob'), 4, 'a request with credentials reaches the service every time');
    const refused = await through('/player/bob', { authorization: 'Bearer revoked' });
    assert.is(refused.status, 401, 'never answered from the anonymous entry');
  });

  it('shows a change made elsewhere within max-age of the read that filled the entry, with no stale copy after', async () => {
    const filled = Date.now();
    assert.is((await (await through('/player/alice')).json()).alias, 'alice');
    assert.is((await (await through('/player/alice')).json()).alias, 'alice', 'fresh: from the cache');
    // Another instance writes (here: the shared store directly); this cache is not told.
    await store.putPlayer({ playerId: 'alice', alias: 'alice-renamed', displayName: 'Alice Liddell' });
    // The entry was fresh for HOLD seconds from when it was stored (whole seconds for both caches).
    await sleepUntil(filled + HOLD * 1000 + 1100);
    const after = await through('/player/alice');
    assert.is((await after.json()).alias, 'alice-renamed', `the first read after max-age shows the change (${cache.name} must not serve the expired copy while it refetches)`);
    const page = await through('/player/alice/friends');
    assert.is(page.status, 200);
  });

  it('revalidates an expired entry with If-None-Match and keeps serving it after the 304', async () => {
    const path = '/player/alice/friends?page=2';
    const filled = Date.now();
    const first = await through(path);
    const body = await first.text();
    await sleepUntil(filled + HOLD * 1000 + 1100);
    const again = await through(path);
    assert.is(again.status, 200);
    assert.is(await again.text(), body);
    // A plain JSON page's links are only in its Link field: the 304 that freshened the entry must not
    // have replaced it with a partial one (RFC 9111 section 4.3.4).
    for (const rel of ['self', 'first', 'prev', 'next', 'last']) {
      assert.match(again.headers.get('link') ?? '', `rel="${rel}"`, `${cache.name} kept the whole Link field after the 304 (${rel})`);
    }
    assert.is(again.headers.get('link'), first.headers.get('link'));
    const conditional = hits.filter((h) => h.url === path && h.ifNoneMatch !== undefined);
    assert.ok(conditional.length >= 1, `${cache.name} revalidated with If-None-Match: ${JSON.stringify(hits.filter((h) => h.url === path))}`);
    assert.is(conditional.at(-1)!.status, 304);
    const before = originHits(path);
    await through(path);
    assert.is(originHits(path), before, 'renewed by the 304: fresh again');
  });

  test.run();
}
