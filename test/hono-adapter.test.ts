import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Hono } from 'hono';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toHonoHandler } from '../src/adapters/hono.js';
import { echo } from './support/echo.js';

const adapter = suite('player-hypermedia/hono mounted under a prefix');
const BASE = 'https://games.example.test';

async function app() {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const hono = new Hono();
  hono.get('/health', (c) => c.text('ok'));
  hono.all('/games/api/*', toHonoHandler(createPlayerService({ baseUrl: `${BASE}/games/api`, store })));
  hono.all('/echo/*', toHonoHandler(echo));
  return hono;
}

adapter('should serve the API under the prefix with links carrying it, beside other routes', async () => {
  const hono = await app();
  const res = await hono.request(`${BASE}/games/api/player/alice`);
  assert.is(res.status, 200);
  assert.is((await res.json()).profilePhotoUrl, `${BASE}/games/api/player/alice/avatar.png`);
  const page = await hono.request(`${BASE}/games/api/player/alice/friends`);
  assert.match(page.headers.get('link')!, `<${BASE}/games/api/player/alice/friends?page=2>; rel="next"`);
  assert.is(await (await hono.request('/health')).text(), 'ok');
});

adapter('should pass the original request, body included', async () => {
  const hono = await app();
  const res = await hono.request(`${BASE}/echo/x?y=1`, { method: 'PUT', body: 'abc', headers: { 'Content-Type': 'text/plain' } });
  assert.equal(await res.json(), { method: 'PUT', url: `${BASE}/echo/x?y=1`, type: 'text/plain', body: 'abc' });
});

adapter('should answer 304 and 404 problems unchanged', async () => {
  const hono = await app();
  const first = await hono.request(`${BASE}/games/api/player/alice`);
  const again = await hono.request(`${BASE}/games/api/player/alice`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
  assert.is(again.status, 304);
  const missing = await hono.request(`${BASE}/games/api/player/nobody`);
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('content-type'), 'application/problem+json');
});

adapter.run();
