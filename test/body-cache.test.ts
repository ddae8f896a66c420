import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Agent, createServer, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlayerService, defaultRepresentations, MemoryPlayerStore, seedDemoData, type Representation } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { BodyCache, renderedBody } from '../src/core/caches/body-cache.js';
import { SPARSE_STRIDE } from '../src/core/caches/answer-kinds.js';
import { demoService } from './support/service.js';

const cache = suite('BodyCache: rendered bodies by target and strong ETag');

/** The plain JSON format, counting its renders. */
function counted(): { representation: Representation; renders: () => number } {
  const json = defaultRepresentations.find((r) => r.name === 'json')!;
  let n = 0;
  const representation: Representation = {
    ...json,
    render: (resource, plan) => {
      n++;
      return json.render(resource, plan);
    },
  };
  return { representation, renders: () => n };
}

cache('should be off with bodyCacheBytes 0: every computed answer is rendered', async () => {
  const { representation, renders } = counted();
  const { call } = await demoService({ representations: [representation], memoizeAnswers: false, bodyCacheBytes: 0 });
  await (await call('/player/alice')).arrayBuffer();
  await (await call('/player/alice')).arrayBuffer();
  assert.is(renders(), 2);
});

cache('should render a body once per strong ETag and again after a change', async () => {
  const { representation, renders } = counted();
  // The answer memo off, so that every request reaches the route and its renderer.
  const { call, store } = await demoService({ representations: [representation], memoizeAnswers: false });
  const first = new Uint8Array(await (await call('/player/alice')).arrayBuffer());
  const second = new Uint8Array(await (await call('/player/alice')).arrayBuffer());
  assert.is(renders(), 1);
  assert.equal(second, first);
  const headRes = await call('/player/alice', { method: 'HEAD' });
  assert.is(headRes.headers.get('content-length'), String(first.byteLength));
  assert.is(renders(), 1);
  await store.putPlayer({ playerId: 'alice', alias: 'ali-2' });
  assert.is((await (await call('/player/alice')).json()).alias, 'ali-2');
  assert.is(renders(), 2);
});

cache('should keep one copy of a body: in the answer memo for anonymous reads, here for credentialed ones', async () => {
  const { representation, renders } = counted();
  const { call, service } = await demoService({ representations: [representation], authenticate: (r) => (r.headers.get('authorization') === 'Bearer t' ? { id: 'me' } : null) });
  const bodies = service.config.bodyCache!;
  await (await call('/player/alice')).arrayBuffer();
  await (await call('/player/alice')).arrayBuffer();
  assert.is(renders(), 1, 'the second read answered by the memo');
  assert.is(bodies.size, 0, 'an anonymous body kept by the memo only');
  const auth = { headers: { Authorization: 'Bearer t' } };
  await (await call('/player/bob', auth)).arrayBuffer();
  await (await call('/player/bob', auth)).arrayBuffer();
  assert.is(renders(), 2, 'the memo keeps no credentialed answer: the body cache gives the second body');
  assert.is(bodies.size, 1);
});

cache('should render every time when turned off', async () => {
  const { representation, renders } = counted();
  const { call } = await demoService({ representations: [representation], memoizeAnswers: false, bodyCacheBytes: 0 });
  await call('/player/alice');
  await call('/player/alice');
  assert.is(renders(), 2);
});

cache('should keep bodies within its byte budget, oldest first, and skip large ones', () => {
  // Each entry counts its body, its key and 520 bytes of its own objects: four fit in 3,000.
  const c = new BodyCache(3000);
  const body = (n: number) => renderedBody('x'.repeat(n), 'application/json');
  c.set('/a "1"', body(200));
  c.set('/b "1"', body(200));
  c.set('/c "1"', body(200));
  c.set('/d "1"', body(200));
  c.set('/e "1"', body(200));
  assert.ok(c.size < 5);
  assert.is(c.get('/a "1"'), undefined);
  assert.ok(c.get('/e "1"'));
  c.set('/big "1"', body(300));
  assert.is(c.get('/big "1"'), undefined);
});

cache('should keep one body in SPARSE_STRIDE of a kind whose dropped bodies went unused, and every body again once they are used', () => {
  // A crawler of distinct URLs: about six bodies fit, each asked for once.
  const c = new BodyCache(3000);
  const body = renderedBody('x'.repeat(50), 'application/json');
  let n = 0;
  const crawl = (count: number, kind: string): number => {
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const key = `/crawled/${n++} "1"`;
      c.set(key, body, kind);
      if (c.get(key)) kept++;
    }
    return kept;
  };
  // Dense until 256 bodies have been dropped unused (each asked for once, by the check above: fewer than
  // the two lookups a kept body must answer on average), sparse from then on.
  const first = crawl(300, '/crawled/{n}');
  assert.ok(first >= 256 && first < 300, `kept ${first} of 300`);
  const sparse = crawl(SPARSE_STRIDE * 10, '/crawled/{n}');
  assert.ok(sparse >= 9 && sparse <= 11, `kept ${sparse} of ${SPARSE_STRIDE * 10}`);
  // Another kind is judged on its own record.
  assert.is(crawl(20, '/other/{n}'), 20);
  // Bodies asked for again (each read thrice) make the kind dense again at the end of a window.
  const reused = (count: number): number => {
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const key = `/crawled/${n++} "1"`;
      c.set(key, body, '/crawled/{n}');
      if (c.get(key) && c.get(key) && c.get(key)) kept++;
    }
    return kept;
  };
  reused(SPARSE_STRIDE * 600);
  assert.is(reused(100), 100);
});

cache('should judge each route on its own: a crawl of distinct URLs of one route leaves the others kept densely', async () => {
  const { representation, renders } = counted();
  // The answer memo off, so that every GET reaches the body cache; room for a few bodies.
  const { call } = await demoService({ representations: [representation], memoizeAnswers: false, bodyCacheBytes: 16384 });
  for (let i = 0; i < 300; i++) await (await call(`/player/alice?crawl=${i}`)).arrayBuffer();
  const before = renders();
  await (await call('/player/alice?again=1')).arrayBuffer();
  await (await call('/player/alice?again=1')).arrayBuffer();
  // The crawled route is kept sparsely now: the repeated URL was rendered twice.
  assert.is(renders() - before, 2);
  await (await call('/player/alice/friends?again=1')).arrayBuffer();
  await (await call('/player/alice/friends?again=1')).arrayBuffer();
  assert.is(renders() - before, 3);
});

cache('should keep sparsely over a real keep-alive socket, with the default memo and credentialed reads', async () => {
  const { representation, renders } = counted();
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let connections = 0;
  server.on('connection', () => connections++);
  // The defaults but a small body cache: the memo keeps no credentialed answer, so these reach the body cache.
  const service = createPlayerService({ baseUrl: origin, store, representations: [representation], bodyCacheBytes: 16384, authenticate: (r) => (r.headers.get('authorization') === 'Bearer t' ? { id: 'me' } : null) });
  server.on('request', toNodeListener(service));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      httpGet(`${origin}${path}`, { agent, headers: { authorization: 'Bearer t' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });
  try {
    for (let i = 0; i < 300; i++) assert.is(await get(`/player/alice?crawl=${i}`), 200);
    const before = renders();
    await get('/player/alice?again=1');
    await get('/player/alice?again=1');
    assert.is(renders() - before, 2, 'the crawled route keeps one body in SPARSE_STRIDE');
    await get('/player/alice/friends?again=1');
    await get('/player/alice/friends?again=1');
    assert.is(renders() - before, 3, 'another route keeps its bodies');
    assert.is(connections, 1, 'every request over one kept-alive connection');
  } finally {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

cache('should reject two representations with one name (the name is part of every ETag)', async () => {
  const json = defaultRepresentations.find((r) => r.name === 'json')!;
  let error: unknown;
  try {
    await demoService({ representations: [json, { ...json, mediaType: 'application/x-other+json' }] });
  } catch (e) {
    error = e;
  }
  assert.instance(error, TypeError);
  assert.match((error as Error).message, 'named "json"');
});

cache.run();
