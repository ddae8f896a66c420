import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import express from 'express';
import type { Server } from 'node:http';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toExpressHandler } from '../src/adapters/express.js';
import { assertServedUnderPrefix, echo, originOf } from './support/echo.js';

const adapter = suite('player-hypermedia/express mounted under a prefix');
let server: Server;
let origin: string;

adapter.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const app = express();
  app.get('/health', (_req, res) => void res.send('ok'));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = originOf(server);
  app.use('/games/api', toExpressHandler(createPlayerService({ baseUrl: `${origin}/games/api`, store })));
  app.use('/echo', toExpressHandler(echo));
  app.use('/parsed', express.json(), toExpressHandler(echo));
  app.use('/form', express.urlencoded(), toExpressHandler(echo));
  const parsedStore = new MemoryPlayerStore();
  await seedDemoData(parsedStore);
  const parsedService = createPlayerService({ baseUrl: `${origin}/json-first`, store: parsedStore, authenticate: async () => ({ id: 'admin' }) });
  app.use('/json-first', express.json(), toExpressHandler(parsedService));
  app.use('/raw', express.raw({ type: '*/*' }), toExpressHandler(echo));
});

adapter.after(() => {
  server.closeAllConnections();
  server.close();
});

adapter('should serve the API under the prefix with links carrying it, beside other routes', () => assertServedUnderPrefix(origin));

adapter('should pass the original URL, method and streamed body to the service', async () => {
  const res = await fetch(`${origin}/echo/some/path?q=1`, { method: 'PATCH', body: '[{"op":"test"}]', headers: { 'Content-Type': 'application/json-patch+json' } });
  assert.equal(await res.json(), { method: 'PATCH', url: `${origin}/echo/some/path?q=1`, type: 'application/json-patch+json', body: '[{"op":"test"}]' });
  assert.is(res.headers.get('x-echo'), 'yes');
});

adapter('should pass on a body express.raw() already read', async () => {
  const res = await fetch(`${origin}/raw/x`, { method: 'POST', body: 'name=Bo', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  assert.is((await res.json()).body, 'name=Bo');
});

adapter('should pass on a JSON body express.json() parsed, as JSON text', async () => {
  const res = await fetch(`${origin}/parsed/x`, { method: 'POST', body: '{ "a" : 1 }', headers: { 'Content-Type': 'application/json' } });
  assert.is((await res.json()).body, '{"a":1}');
});

adapter('should serve writes behind express.json(), and answer an invalid player in problem+json, not an HTML page', async () => {
  const put = await fetch(`${origin}/json-first/player/zoe`, { method: 'PUT', body: '{"alias":"zoe"}', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' } });
  assert.is(put.status, 201);
  const invalid = await fetch(`${origin}/json-first/player/zoe`, { method: 'PUT', body: '{"alias":""}', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' } });
  assert.is(invalid.status, 422);
  assert.is(invalid.headers.get('content-type'), 'application/problem+json');
});

adapter('should answer a form body another parser consumed with a 500 in problem+json naming the fix', async () => {
  const original = console.error;
  console.error = () => undefined;
  try {
    const res = await fetch(`${origin}/form/x`, { method: 'POST', body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assert.is(res.status, 500);
    assert.is(res.headers.get('content-type'), 'application/problem+json');
    assert.match((await res.json()).detail, /mount the API before it/);
  } finally {
    console.error = original;
  }
});

adapter('should answer 304 and HEAD without a body', async () => {
  const first = await fetch(`${origin}/games/api/player/alice`);
  const again = await fetch(`${origin}/games/api/player/alice`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
  assert.is(again.status, 304);
  assert.is(await again.text(), '');
  const head = await fetch(`${origin}/games/api/player/alice`, { method: 'HEAD' });
  assert.is(head.headers.get('content-length'), first.headers.get('content-length'));
});

adapter.run();
