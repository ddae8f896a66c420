import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BASE } from './support/service.js';
import { writableService } from './support/writes.js';

const friendIds = async (call: (p: string) => Promise<Response>, owner: string) => {
  const res = await call(`/player/${owner}/friends?page=1`);
  const total = Number(res.headers.get('total-count'));
  const last = Math.max(1, Math.ceil(total / 10));
  const ids: string[] = [];
  for (let p = 1; p <= last; p++) ids.push(...(await (await call(`/player/${owner}/friends?page=${p}`)).json()).map((x: { playerId: string }) => x.playerId));
  return ids;
};

const post = suite('POST /player/{id}/friends');

post('should create a new friend from the friend payload with 201, Location, ETag and its representation', async () => {
  const { send, call } = await writableService();
  const res = await send('POST', '/player/bob/friends', { name: 'Zoe Zed', alternateName: 'zoe', image: 'https://cdn.test/zoe.png' });
  assert.is(res.status, 201);
  const body = await res.json();
  assert.match(body.playerId, /^[A-Za-z0-9._~-]{1,64}$/);
  assert.is(res.headers.get('location'), `${BASE}/player/${body.playerId}`);
  assert.equal(body, { playerId: body.playerId, alias: 'zoe', displayName: 'Zoe Zed', profilePhotoUrl: `${BASE}/player/${body.playerId}/avatar.png` });
  const get = await call(`/player/${body.playerId}`);
  assert.is(res.headers.get('etag'), get.headers.get('etag'));
  assert.ok((await friendIds(call, 'bob')).includes(body.playerId));
});

post('should create a new friend from the plain names too, each with its own random id', async () => {
  const { send } = await writableService();
  const a = await (await send('POST', '/player/bob/friends', { alias: 'same', displayName: 'Same' })).json();
  const b = await (await send('POST', '/player/bob/friends', { alias: 'same', displayName: 'Same' })).json();
  assert.is.not(a.playerId, b.playerId);
});

post('should add an existing player by playerId, @id or URL', async () => {
  const { send, call } = await writableService();
  assert.ok(!(await friendIds(call, 'bob')).includes('alice'));
  const byId = await send('POST', '/player/bob/friends', { playerId: 'alice' });
  assert.is(byId.status, 201);
  assert.is(byId.headers.get('location'), `${BASE}/player/alice`);
  assert.is((await byId.json()).displayName, 'Alice Liddell');
  assert.is((await send('POST', '/player/bob/friends', { '@id': `${BASE}/player/brook-02` })).status, 201);
  assert.is((await send('POST', '/player/bob/friends', { playerId: `${BASE}/player/cyril-03` })).status, 201);
  assert.is((await send('POST', '/player/bob/friends', { '@id': '/player/dana-04' })).status, 201);
  const ids = await friendIds(call, 'bob');
  for (const id of ['alice', 'brook-02', 'cyril-03', 'dana-04']) assert.ok(ids.includes(id), id);
});

post('should answer 409 for a player already on the list, and 422 for references that cannot be added', async () => {
  const { send } = await writableService();
  assert.is((await send('POST', '/player/bob/friends', { playerId: 'ada-01' })).status, 409);
  assert.is((await send('POST', '/player/bob/friends', { playerId: 'nobody' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { '@id': 'https://elsewhere.test/player/alice' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { playerId: 'bob' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { playerId: 'alice', alias: 'renamed' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { playerId: 7 })).status, 400);
});

post('should answer 422 for an invalid new player and 404 for an unknown owner, adding nothing', async () => {
  const { send, call } = await writableService();
  const before = await friendIds(call, 'bob');
  assert.is((await send('POST', '/player/bob/friends', { name: 'No alias' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'x', image: 'not a url' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'x', profilePhotoUrl: 'https://x.test/a.png' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'x', extra: true })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 42 })).status, 400);
  assert.is((await send('POST', '/player/nobody/friends', { alternateName: 'x' })).status, 404);
  assert.equal(await friendIds(call, 'bob'), before);
});

post('should need credentials', async () => {
  const { call } = await writableService();
  const res = await call('/player/bob/friends', { method: 'POST', body: '{"alternateName":"x"}', headers: { 'Content-Type': 'application/json' } });
  assert.is(res.status, 401);
  assert.ok(res.headers.get('www-authenticate'));
});

post.run();

const idem = suite('Idempotency-Key');

idem('should answer a retry with the first result and add nothing twice', async () => {
  const { send, call } = await writableService();
  const before = (await friendIds(call, 'bob')).length;
  const body = { name: 'Once Only', alternateName: 'once' };
  const first = await send('POST', '/player/bob/friends', body, { 'Idempotency-Key': 'k-123' });
  const again = await send('POST', '/player/bob/friends', body, { 'Idempotency-Key': 'k-123' });
  assert.is(first.status, 201);
  assert.is(again.status, 201);
  assert.is(again.headers.get('location'), first.headers.get('location'));
  assert.equal(await again.json(), await first.json());
  assert.is(again.headers.get('idempotent-replayed'), 'true');
  assert.is((await friendIds(call, 'bob')).length, before + 1);
});

idem('should replay concurrent retries once', async () => {
  const { send, call } = await writableService();
  const before = (await friendIds(call, 'bob')).length;
  const results = await Promise.all(Array.from({ length: 5 }, () => send('POST', '/player/bob/friends', { alternateName: 'dup' }, { 'Idempotency-Key': '"k-c"' })));
  assert.equal(results.map((r) => r.status), [201, 201, 201, 201, 201]);
  assert.is(new Set(results.map((r) => r.headers.get('location'))).size, 1);
  assert.is((await friendIds(call, 'bob')).length, before + 1);
});

idem('should replay a retry even though its If-Match is stale by now', async () => {
  const { send, call } = await writableService();
  const etag = (await call('/player/bob')).headers.get('etag')!;
  const headers = { 'Idempotency-Key': 'k-ifm', 'If-Match': etag };
  const first = await send('POST', '/player/bob/friends', { playerId: 'alice' }, headers);
  const again = await send('POST', '/player/bob/friends', { playerId: 'alice' }, headers);
  assert.is(first.status, 201);
  assert.is(again.status, 201);
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'other' }, { 'If-Match': etag })).status, 412);
});

idem('should answer 422 for the same key with another body, adding nothing', async () => {
  const { send, call } = await writableService();
  await send('POST', '/player/bob/friends', { alternateName: 'a' }, { 'Idempotency-Key': 'k-x' });
  const count = (await friendIds(call, 'bob')).length;
  const res = await send('POST', '/player/bob/friends', { alternateName: 'b' }, { 'Idempotency-Key': 'k-x' });
  assert.is(res.status, 422);
  assert.is((await friendIds(call, 'bob')).length, count);
  assert.is((await send('POST', '/player/alice/friends', { alternateName: 'b' }, { 'Idempotency-Key': 'k-x' })).status, 201);
});

idem('should answer 400 for a malformed key', async () => {
  const { send } = await writableService();
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'a' }, { 'Idempotency-Key': 'x'.repeat(256) })).status, 400);
});

idem.run();

const del = suite('DELETE /player/{id}/friends/{friendId}');

del('should take the player off the list, keeping the player', async () => {
  const { send, call } = await writableService();
  const res = await send('DELETE', '/player/bob/friends/ada-01');
  assert.is(res.status, 204);
  assert.ok(!(await friendIds(call, 'bob')).includes('ada-01'));
  assert.is((await call('/player/ada-01')).status, 200);
  assert.ok((await friendIds(call, 'alice')).includes('ada-01'));
});

del('should answer 404 for a player that is not a friend or an unknown owner', async () => {
  const { send } = await writableService();
  assert.is((await send('DELETE', '/player/bob/friends/alice')).status, 404);
  assert.is((await send('DELETE', '/player/bob/friends/nobody')).status, 404);
  assert.is((await send('DELETE', '/player/nobody/friends/ada-01')).status, 404);
  assert.is((await send('DELETE', '/player/bob/friends/a%20b')).status, 400);
});

del('should need credentials', async () => {
  const { call } = await writableService();
  assert.is((await call('/player/bob/friends/ada-01', { method: 'DELETE' })).status, 401);
});

del.run();
