import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, MemoryPlayerStore, StoreError } from '../src/index.js';
import { startAdapterServers, type AdapterServer } from './support/adapter-servers.js';

// /healthz and /readyz: outside the API (no negotiation, no versioning, not stored), over real servers.
const health = suite('health probes');
let servers: AdapterServer[] = [];

health.before(async () => {
  servers = await startAdapterServers(['node', 'express']);
});
health.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

health('should answer /healthz and /readyz with application/health+json, never stored, whatever Accept says', async () => {
  for (const s of servers) {
    for (const path of ['/healthz', '/readyz', '/readyz?verbose=1']) {
      const res = await fetch(s.origin + path, { headers: { Accept: 'application/vnd.api+json', 'Api-Version': '99' } });
      assert.is(res.status, 200, `${s.adapter} ${path}`);
      assert.is(res.headers.get('content-type'), 'application/health+json');
      assert.is(res.headers.get('cache-control'), 'no-store');
      assert.is(res.headers.get('api-version'), null, 'outside the versioning');
      assert.is((await res.json()).status, 'pass');
    }
    const head = await fetch(`${s.origin}/healthz`, { method: 'HEAD' });
    assert.is(head.status, 200);
    assert.is(head.headers.get('content-length'), '17');
    assert.is((await fetch(`${s.origin}/healthz`, { method: 'POST' })).status, 404, 'other methods fall through to the API');
  }
});

health('should say 503 fail with Retry-After while the store does not answer, and pass again after', async () => {
  let down = true;
  class FlakyStore extends MemoryPlayerStore {
    override async ping(): Promise<void> {
      if (down) throw new StoreError('unavailable', 'the PostgreSQL database is unreachable');
    }
  }
  const service = createPlayerService({ baseUrl: 'https://api.example.test/games', store: new FlakyStore() });
  const probe = (path: string) => service.fetch(new Request(`https://api.example.test${path}`));
  const failing = await probe('/games/readyz');
  assert.is(failing.status, 503);
  assert.is(failing.headers.get('retry-after'), '5');
  const body = await failing.json();
  assert.is(body.status, 'fail');
  assert.match(body.output, /unreachable/);
  assert.is((await probe('/games/healthz')).status, 200, 'the process itself is fine');
  down = false;
  assert.is((await probe('/games/readyz')).status, 200);
  assert.is((await probe('/readyz')).status, 404, 'under the base path only');
});

health('should check the store at most once a second under a flood of /readyz probes while it answers', async () => {
  let pings = 0;
  class CountingStore extends MemoryPlayerStore {
    override async ping(): Promise<void> {
      pings++;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const service = createPlayerService({ baseUrl: 'https://api.example.test', store: new CountingStore() });
  const probe = () => service.fetch(new Request('https://api.example.test/readyz'));
  const flood = await Promise.all(Array.from({ length: 200 }, probe));
  for (const res of flood) assert.is(res.status, 200);
  for (let i = 0; i < 100; i++) assert.is((await probe()).status, 200);
  assert.is(pings, 1, 'one check answered every probe of the flood');
  await new Promise((r) => setTimeout(r, 1050));
  await probe();
  assert.is(pings, 2, 'checked again after a second');
});

health("should warn (200) in /readyz while the store's change notices are not known to be live, and keep nothing then", async () => {
  let tell: (changed: import('../src/stores/index.js').Changes) => void = () => undefined;
  class LeasingStore extends MemoryPlayerStore {
    override watch(listener: typeof tell) {
      tell = listener;
      return () => undefined;
    }
  }
  const service = createPlayerService({ baseUrl: 'https://api.example.test', store: new LeasingStore(), memoizeAnswers: true });
  await (service.config.store as MemoryPlayerStore).putPlayer({ playerId: 'lee', alias: 'lee' });
  const ready = async () => (await (await service.fetch(new Request('https://api.example.test/readyz'))).json()) as { status: string; checks: Record<string, { status: string }[]> };
  assert.is((await ready()).checks['changes:live']![0]!.status, 'pass', 'no lease told: an in-process store is trusted');
  tell({ trustUntil: Date.now() + 60_000 });
  const get = () => service.fetch(new Request('https://api.example.test/player/lee'));
  await get();
  const hits = service.config.answerMemo!.stats.hits;
  await get();
  assert.is(service.config.answerMemo!.stats.hits, hits + 1, 'kept while the lease holds');
  tell({ trustUntil: Date.now() - 1 });
  const report = await ready();
  assert.is(report.status, 'warn');
  assert.is(report.checks['changes:live']![0]!.status, 'warn');
  await get();
  assert.is(service.config.answerMemo!.stats.hits, hits + 1, 'not used once the lease lapsed');
  tell({ trustUntil: Date.now() + 60_000 });
  assert.is((await ready()).status, 'pass');
});

health('should be off with health: false', async () => {
  const service = createPlayerService({ baseUrl: 'https://api.example.test', health: false });
  assert.is((await service.fetch(new Request('https://api.example.test/healthz'))).status, 404);
});

health.run();
