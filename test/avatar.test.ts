import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PNG } from 'pngjs';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { identiconPng } from '../src/player/avatar/identicon.js';
import { toNodeListener } from '../src/adapters/node.js';
import { BASE, demoService } from './support/service.js';

const AUTH = { Authorization: 'Bearer s3cret' };
const IMAGE = 'https://cdn.example.test/pic.png';

function pngBytes(width = 4, height = 4): Uint8Array {
  const image = new PNG({ width, height });
  image.data.fill(200);
  return new Uint8Array(PNG.sync.write(image));
}

async function avatarService(options: { maxAvatarBytes?: number } = {}) {
  const demo = await demoService({ authenticate: bearerTokens(['s3cret']), ...options });
  await demo.store.putPlayer({ playerId: 'pic', alias: 'pic', image: IMAGE });
  const upload = (id: string, body: RequestInit["body"], headers: Record<string, string> = {}) =>
    demo.call(`/player/${id}/avatar.png`, { method: 'PUT', body, headers: { 'Content-Type': 'image/png', ...AUTH, ...headers } });
  return { ...demo, upload };
}

const read = suite('GET /player/{id}/avatar.png');

read('should serve a deterministic identicon with an ETag, the avatar policy and Last-Modified', async () => {
  const { call } = await avatarService();
  const res = await call('/player/alice/avatar.png');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'image/png');
  assert.is(res.headers.get('cache-control'), 'public, max-age=86400');
  assert.ok(res.headers.get('last-modified'));
  const bytes = new Uint8Array(await res.arrayBuffer());
  assert.equal([...bytes], [...(await identiconPng('alice'))]);
  assert.is(PNG.sync.read(Buffer.from(bytes)).width, 64);
  const again = await call('/player/alice/avatar.png');
  assert.is(again.headers.get('etag'), res.headers.get('etag'));
});

read('should answer 304 to a revalidation, and HEAD with the length and no body', async () => {
  const { call } = await avatarService();
  const res = await call('/player/bob/avatar.png');
  const etag = res.headers.get('etag')!;
  const cached = await call('/player/bob/avatar.png', { headers: { 'If-None-Match': etag } });
  assert.is(cached.status, 304);
  assert.is(cached.headers.get('etag'), etag);
  assert.is(cached.headers.get('cache-control'), 'public, max-age=86400');
  assert.is(await cached.text(), '');
  const head = await call('/player/bob/avatar.png', { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), String((await res.arrayBuffer()).byteLength));
  assert.is(await head.text(), '');
});

read('should redirect (302) to the image URL given at creation', async () => {
  const { call } = await avatarService();
  const res = await call('/player/pic/avatar.png', { redirect: 'manual' });
  assert.is(res.status, 302);
  assert.is(res.headers.get('location'), IMAGE);
  assert.is(res.headers.get('cache-control'), 'public, max-age=60');
});

read('should serve the uploaded PNG over the image URL and the identicon', async () => {
  const { call, upload } = await avatarService();
  const png = pngBytes();
  assert.is((await upload('pic', png)).status, 201);
  const res = await call('/player/pic/avatar.png', { redirect: 'manual' });
  assert.is(res.status, 200);
  assert.equal([...new Uint8Array(await res.arrayBuffer())], [...png]);
  const cached = await call('/player/pic/avatar.png', { headers: { 'If-None-Match': res.headers.get('etag')! } });
  assert.is(cached.status, 304);
});

read('should answer 404 for an unknown player and 400 for a bad id', async () => {
  const { call } = await avatarService();
  assert.is((await call('/player/nobody/avatar.png')).status, 404);
  assert.is((await call('/player/a%20b/avatar.png')).status, 400);
});

read.run();

const write = suite('PUT /player/{id}/avatar.png');

write('should store a PNG: 201 with Location and ETag, then 200 with a new ETag', async () => {
  const { call, upload } = await avatarService();
  const first = await upload('alice', pngBytes());
  assert.is(first.status, 201);
  assert.is(first.headers.get('location'), `${BASE}/player/alice/avatar.png`);
  const etag = first.headers.get('etag')!;
  assert.is((await call('/player/alice/avatar.png')).headers.get('etag'), etag);
  const second = await upload('alice', pngBytes(8, 8));
  assert.is(second.status, 200);
  assert.is.not(second.headers.get('etag'), etag);
  assert.is(PNG.sync.read(Buffer.from(await (await call('/player/alice/avatar.png')).arrayBuffer())).width, 8);
});

write('should need credentials', async () => {
  const { call } = await avatarService();
  const res = await call('/player/alice/avatar.png', { method: 'PUT', body: pngBytes(), headers: { 'Content-Type': 'image/png' } });
  assert.is(res.status, 401);
  assert.ok(res.headers.get('www-authenticate'));
});

write('should answer 415 for another Content-Type, 400 for bytes that are not a PNG', async () => {
  const { upload, call } = await avatarService();
  const wrongType = await upload('alice', pngBytes(), { 'Content-Type': 'image/jpeg' });
  assert.is(wrongType.status, 415);
  assert.is(wrongType.headers.get('accept'), 'image/png');
  const notPng = await upload('alice', new TextEncoder().encode('GIF89a not a png at all, really not'));
  assert.is(notPng.status, 400);
  assert.match((await notPng.json()).detail, 'signature');
  const badCrc = pngBytes();
  badCrc[20] = badCrc[20]! ^ 1;
  assert.is((await upload('alice', badCrc)).status, 400);
  assert.is((await upload('alice', new Uint8Array())).status, 400);
  // Nothing was stored by the failed requests.
  assert.match((await call('/player/alice/avatar.png')).headers.get('etag')!, 'identicon');
});

write('should answer 413 past maxAvatarBytes, from Content-Length or while streaming', async () => {
  const { upload, call } = await avatarService({ maxAvatarBytes: 100 });
  const big = new Uint8Array(200);
  big.set(pngBytes().subarray(0, 33));
  assert.is((await upload('alice', big)).status, 413);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      if (pulled > 1000) return controller.close();
      controller.enqueue(new Uint8Array(64));
    },
  });
  const res = await call('/player/alice/avatar.png', {
    method: 'PUT',
    body: stream,
    headers: { 'Content-Type': 'image/png', ...AUTH },
    duplex: 'half',
  } as RequestInit);
  assert.is(res.status, 413);
  assert.ok(pulled < 10, `read ${pulled} chunks`);
  const defaults = await avatarService();
  assert.is((await defaults.upload('alice', new Uint8Array(1024 * 1024 + 1))).status, 413);
});

write('should make If-Match a compare-and-set on the avatar revision', async () => {
  const { upload, call } = await avatarService();
  const identicon = (await call('/player/alice/avatar.png')).headers.get('etag')!;
  const first = await upload('alice', pngBytes(), { 'If-Match': identicon });
  assert.is(first.status, 201);
  // The identicon's tag is stale now.
  assert.is((await upload('alice', pngBytes(), { 'If-Match': identicon })).status, 412);
  const etag = first.headers.get('etag')!;
  assert.is((await upload('alice', pngBytes(2, 2), { 'If-Match': etag })).status, 200);
  assert.is((await upload('alice', pngBytes(3, 3), { 'If-Match': etag })).status, 412);
  assert.is(PNG.sync.read(Buffer.from(await (await call('/player/alice/avatar.png')).arrayBuffer())).width, 2);
  assert.is((await upload('bob', pngBytes(), { 'If-None-Match': '*' })).status, 201);
  assert.is((await upload('bob', pngBytes(), { 'If-None-Match': '*' })).status, 412);
});

write('should answer 404 for an unknown player and store nothing', async () => {
  const { upload } = await avatarService();
  assert.is((await upload('nobody', pngBytes())).status, 404);
});

write.run();

const http = suite('avatars over a real node:http server');

http('should upload, serve, revalidate and redirect avatars over HTTP', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  await store.putPlayer({ playerId: 'pic', alias: 'pic', image: IMAGE });
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens(['s3cret']) })));
  try {
    const identicon = await fetch(`${origin}/player/alice/avatar.png`);
    assert.is(identicon.status, 200);
    assert.is(PNG.sync.read(Buffer.from(await identicon.arrayBuffer())).height, 64);
    const put = await fetch(`${origin}/player/alice/avatar.png`, { method: 'PUT', body: pngBytes(5, 5), headers: { 'Content-Type': 'image/png', ...AUTH } });
    assert.is(put.status, 201);
    const served = await fetch(`${origin}/player/alice/avatar.png`);
    assert.is(served.headers.get('etag'), put.headers.get('etag'));
    assert.is(PNG.sync.read(Buffer.from(await served.arrayBuffer())).width, 5);
    assert.is((await fetch(`${origin}/player/alice/avatar.png`, { headers: { 'If-None-Match': put.headers.get('etag')! } })).status, 304);
    const redirect = await fetch(`${origin}/player/pic/avatar.png`, { redirect: 'manual' });
    assert.is(redirect.status, 302);
    assert.is(redirect.headers.get('location'), IMAGE);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

http.run();

const everywhere = suite('profilePhotoUrl in every representation');

everywhere('should be {baseUrl}/player/{playerId}/avatar.png in every registered format', async () => {
  const { service, call } = await avatarService();
  assert.ok(service.config.representations.length >= 1);
  // Every avatar URL a body holds, in any syntax (JSON string, HTML attribute...).
  const avatars = (text: string) => [...text.matchAll(/https?:\/\/[^"'<>\s]*?\/avatar\.png/g)].map((m) => m[0]);
  for (const { mediaType } of service.config.representations) {
    const player = await call('/player/alice', { headers: { Accept: mediaType } });
    assert.is(player.status, 200, mediaType);
    const found = avatars(await player.text());
    assert.ok(found.includes(`${BASE}/player/alice/avatar.png`), mediaType);
    const page = avatars(await (await call('/player/alice/friends', { headers: { Accept: mediaType } })).text());
    for (const url of page) assert.match(url, new RegExp(`^${BASE}/player/[A-Za-z0-9._~-]+/avatar\\.png$`), mediaType);
    const versioned = avatars(await (await call('/api/v1/player/bob', { headers: { Accept: mediaType } })).text());
    assert.ok(versioned.includes(`${BASE}/api/v1/player/bob/avatar.png`), mediaType);
    for (const url of versioned) assert.ok(url.startsWith(`${BASE}/api/v1/player/`), `${mediaType}: ${url}`);
  }
});

everywhere.run();
