import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';

const node = suite('player-hypermedia/node over a real server');
let server: Server;
let origin: string;

node.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens(['node-token']) })));
});

node.after(() => {
  server.closeAllConnections();
  server.close();
});

node('should serve a player, a page, a 304 and an error over HTTP', async () => {
  const res = await fetch(`${origin}/player/alice`);
  assert.is(res.status, 200);
  assert.is((await res.json()).profilePhotoUrl, `${origin}/player/alice/avatar.png`);
  assert.ok(res.headers.get('content-length'));
  const page = await fetch(`${origin}/player/alice/friends?page=2`);
  assert.is((await page.json()).length, 10);
  assert.match(page.headers.get('link')!, 'rel="next"');
  const cached = await fetch(`${origin}/player/alice`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
  assert.is(cached.status, 304);
  const missing = await fetch(`${origin}/player/nobody`);
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('content-type'), 'application/problem+json');
});

node('should answer HEAD without a body and with the length of GET', async () => {
  const head = await fetch(`${origin}/player/alice`, { method: 'HEAD' });
  const get = await fetch(`${origin}/player/alice`);
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), get.headers.get('content-length'));
});

node('should pass a request body through as a stream', async () => {
  // No write route yet answers 2xx here; a POST on the player is 405, after the body was offered.
  const res = await fetch(`${origin}/player/alice`, { method: 'POST', body: '{"x":1}', headers: { 'Content-Type': 'application/json' } });
  assert.is(res.status, 405);
});

node('should answer 413 to a large streamed body without reading it all, and keep serving', async () => {
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  const limit = 64 * 1024 * 1024;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= limit) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const init = { method: 'POST', body, duplex: 'half', headers: { Authorization: 'Bearer node-token', 'Content-Type': 'application/json' } };
  const res = await fetch(`${origin}/player/alice/friends`, init as RequestInit);
  assert.is(res.status, 413);
  assert.is((await res.json()).status, 413);
  assert.ok(sent < limit / 4, `the client sent ${sent} bytes before the answer`);
  const created = await fetch(`${origin}/player/alice/friends`, { method: 'POST', body: '{"alternateName":"after"}', headers: init.headers });
  assert.is(created.status, 201);
  assert.is(created.headers.get('location'), `${origin}/player/${(await created.json()).playerId}`);
});

node.run();
