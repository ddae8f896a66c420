import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Fastify, { type FastifyInstance } from 'fastify';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { playerApiPlugin } from '../src/adapters/fastify.js';
import { assertServedUnderPrefix, echo } from './support/echo.js';

const adapter = suite('player-hypermedia/fastify registered under a prefix');
let app: FastifyInstance;
let origin: string;

adapter.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  app = Fastify();
  const base = { url: '' };
  app.get('/health', async () => 'ok');
  app.post('/json', async (request) => request.body);
  await app.register(playerApiPlugin, { prefix: '/games/api', service: { fetch: (r) => createPlayerService({ baseUrl: base.url, store }).fetch(r) } });
  await app.register(playerApiPlugin, { prefix: '/echo', service: echo });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
  base.url = `${origin}/games/api`;
});

adapter.after(() => app.close());

adapter('should serve the API under the prefix with links carrying it, beside other routes', () => assertServedUnderPrefix(origin));

adapter('should hand the raw body of any content type to the service', async () => {
  for (const [type, body] of [
    ['application/json', '{"name":"Bo"}'],
    ['application/x-www-form-urlencoded', 'name=Bo&alternateName=bo'],
    ['image/png', '\x89PNG'],
    ['application/merge-patch+json', '{"alias":"x"}'],
  ] as const) {
    const res = await fetch(`${origin}/echo/a/b?c=d`, { method: 'POST', body, headers: { 'Content-Type': type } });
    assert.equal(await res.json(), { method: 'POST', url: `${origin}/echo/a/b?c=d`, type, body }, type);
  }
  const none = await fetch(`${origin}/echo/x`, { method: 'DELETE' });
  assert.is((await none.json()).method, 'DELETE');
});

adapter('should keep the application\'s own JSON parser outside the plugin', async () => {
  const res = await fetch(`${origin}/json`, { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
  assert.equal(await res.json(), { a: 1 });
});

adapter('should answer 304, HEAD and OPTIONS as the service does', async () => {
  const first = await fetch(`${origin}/games/api/player/alice`);
  const again = await fetch(`${origin}/games/api/player/alice`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
  assert.is(again.status, 304);
  const head = await fetch(`${origin}/games/api/player/alice`, { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), first.headers.get('content-length'));
  assert.is(head.headers.get('etag'), first.headers.get('etag'));
  const options = await fetch(`${origin}/games/api/player/alice`, { method: 'OPTIONS' });
  assert.is(options.status, 204);
  assert.ok(options.headers.get('allow'));
});

adapter.run();
