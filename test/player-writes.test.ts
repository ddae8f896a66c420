import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BASE } from './support/service.js';
import { AUTH, writableService } from './support/writes.js';

const put = suite('PUT /player/{id}');

put('should create a player at the URL with 201, Location and its representation', async () => {
  const { send, call } = await writableService();
  const res = await send('PUT', '/player/zoe', { alias: 'zoe', displayName: 'Zoe Zed' });
  assert.is(res.status, 201);
  assert.is(res.headers.get('location'), `${BASE}/player/zoe`);
  assert.equal(await res.json(), { playerId: 'zoe', alias: 'zoe', displayName: 'Zoe Zed', profilePhotoUrl: `${BASE}/player/zoe/avatar.png` });
  const get = await call('/player/zoe');
  assert.is(get.status, 200);
  assert.is(res.headers.get('etag'), get.headers.get('etag'));
  assert.is(res.headers.get('last-modified'), get.headers.get('last-modified'));
});

put('should replace an existing player with 200 and the ETag a GET then answers', async () => {
  const { send, call } = await writableService();
  const before = await call('/player/bob');
  const res = await send('PUT', '/player/bob', { playerId: 'bob', alias: 'builder' });
  assert.is(res.status, 200);
  assert.is(res.headers.get('location'), null);
  assert.equal(await res.json(), { playerId: 'bob', alias: 'builder', profilePhotoUrl: `${BASE}/player/bob/avatar.png` });
  assert.is.not(res.headers.get('etag'), before.headers.get('etag'));
  const after = await call('/player/bob');
  assert.is(after.headers.get('etag'), res.headers.get('etag'));
  assert.is((await after.json()).displayName, undefined);
});

put('should answer in the negotiated format with that format\'s ETag', async () => {
  const { send, call } = await writableService();
  const res = await send('PUT', '/player/bob', { alias: 'bobby' }, { Accept: 'application/json' });
  assert.is(res.headers.get('content-type'), 'application/json');
  assert.is(res.headers.get('etag'), (await call('/player/bob', { headers: { Accept: 'application/json' } })).headers.get('etag'));
  assert.is((await send('PUT', '/player/zoe', { alias: 'zoe' }, { Accept: 'text/csv' })).status, 406);
  assert.is((await call('/player/zoe')).status, 404);
});

put('should accept the plain JSON of a GET back, profilePhotoUrl included', async () => {
  const { send, call } = await writableService();
  const doc = await (await call('/player/alice')).json();
  const res = await send('PUT', '/player/alice', { ...doc, displayName: 'Alice L.' });
  assert.is(res.status, 200);
  assert.is((await res.json()).displayName, 'Alice L.');
});

put('should answer 422 when the body names another playerId', async () => {
  const { send, call } = await writableService();
  const res = await send('PUT', '/player/bob', { playerId: 'robert', alias: 'bobby' });
  assert.is(res.status, 422);
  assert.equal((await res.json()).errors, [{ pointer: '/playerId', detail: 'must be "bob"' }]);
  assert.is((await call('/player/robert')).status, 404);
});

put('should answer 422 for a profilePhotoUrl other than the server\'s', async () => {
  const { send } = await writableService();
  const res = await send('PUT', '/player/bob', { alias: 'bobby', profilePhotoUrl: 'https://evil.test/x.png' });
  assert.is(res.status, 422);
  assert.is((await res.json()).errors[0].pointer, '/profilePhotoUrl');
});

put('should answer 422 for unknown members and broken limits, listing each field', async () => {
  const { send } = await writableService();
  const res = await send('PUT', '/player/bob', { alias: '', displayName: 'x'.repeat(129), image: 'ftp://x.test/a.png', rank: 3 });
  assert.is(res.status, 422);
  const pointers = (await res.json()).errors.map((e: { pointer: string }) => e.pointer).sort();
  assert.equal(pointers, ['/alias', '/displayName', '/image', '/rank']);
  assert.is((await send('PUT', '/player/bob', {})).status, 422);
  assert.is((await send('PUT', '/player/bob', { alias: 'x'.repeat(65) })).status, 422);
  assert.is((await send('PUT', '/player/bob', { alias: 'ok', image: `https://x.test/${'a'.repeat(2048)}` })).status, 422);
});

put('should answer 400 for members of the wrong JSON type', async () => {
  const { send } = await writableService();
  const res = await send('PUT', '/player/bob', { alias: 7, displayName: ['Bob'] });
  assert.is(res.status, 400);
  const errors = (await res.json()).errors;
  assert.ok(errors.some((e: { pointer: string }) => e.pointer === '/alias'));
});

put('should name the client\'s own member in errors for the alternate names', async () => {
  const { send } = await writableService();
  const res = await send('PUT', '/player/bob', { alternateName: '', name: 'Bob' });
  assert.is(res.status, 422);
  assert.equal((await res.json()).errors, [{ pointer: '/alternateName', detail: 'must NOT have fewer than 1 characters' }]);
});

put('should refuse a member named __proto__ without touching prototypes', async () => {
  const { send } = await writableService();
  const res = await send('PUT', '/player/bob', '{"alias":"bobby","__proto__":{"polluted":true}}');
  assert.is(res.status, 422);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

put('should keep the stored picture URL when the body has none', async () => {
  const { send, store } = await writableService();
  await send('PUT', '/player/zoe', { alias: 'zoe', image: 'https://cdn.test/zoe.png' });
  await send('PUT', '/player/zoe', { alias: 'zoe2' });
  assert.is((await store.getPlayer('zoe'))?.image, 'https://cdn.test/zoe.png');
  await send('PUT', '/player/zoe', { alias: 'zoe3', image: `${BASE}/player/zoe/avatar.png` });
  assert.is((await store.getPlayer('zoe'))?.image, 'https://cdn.test/zoe.png');
});

put('should answer 400 for an invalid id and 401 with a challenge without credentials', async () => {
  const { send, call } = await writableService();
  assert.is((await send('PUT', '/player/a%20b', { alias: 'x' })).status, 400);
  const anonymous = await call('/player/zoe', { method: 'PUT', body: '{"alias":"zoe"}', headers: { 'Content-Type': 'application/json' } });
  assert.is(anonymous.status, 401);
  assert.match(anonymous.headers.get('www-authenticate')!, /^Bearer /);
  const wrong = await call('/player/zoe', { method: 'PUT', body: '{"alias":"zoe"}', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer nope' } });
  assert.is(wrong.status, 401);
  assert.is((await call('/player/zoe')).status, 404);
});

put('should answer 415 for a body no format reads, writing nothing', async () => {
  const { send, call } = await writableService();
  assert.is((await send('PUT', '/player/zoe', 'alias=zoe', { 'Content-Type': 'text/plain' })).status, 415);
  assert.is((await call('/player/zoe')).status, 404);
});

put.run();

const del = suite('DELETE /player/{id}');

del('should remove the player and take it off every friend list', async () => {
  const { send, call } = await writableService();
  const total = Number((await call('/player/alice/friends')).headers.get('total-count'));
  const res = await send('DELETE', '/player/ada-01');
  assert.is(res.status, 204);
  assert.is(await res.text(), '');
  assert.is((await call('/player/ada-01')).status, 404);
  assert.is(Number((await call('/player/alice/friends')).headers.get('total-count')), total - 1);
  assert.is((await send('DELETE', '/player/ada-01')).status, 404);
});

del('should need credentials', async () => {
  const { call } = await writableService();
  assert.is((await call('/player/bob', { method: 'DELETE' })).status, 401);
  assert.is((await call('/player/bob')).status, 200);
});

del.run();

const options = suite('OPTIONS on write routes');

options('should list the write methods in Allow', async () => {
  const { call } = await writableService();
  const player = await call('/player/alice', { method: 'OPTIONS' });
  assert.is(player.status, 204);
  const allow = player.headers.get('allow')!;
  for (const m of ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) assert.match(allow, m);
  assert.is(player.headers.get('accept-patch'), 'application/json-patch+json, application/merge-patch+json, application/vnd.api+json');
  assert.is((await call('/player/alice/friends', { method: 'OPTIONS' })).headers.get('accept-patch'), null);
  const friend = await call('/player/alice/friends/ada-01', { method: 'OPTIONS' });
  assert.is(friend.headers.get('allow'), 'DELETE, OPTIONS');
  const wrong = await call('/player/alice/friends/ada-01', { method: 'GET', headers: AUTH });
  assert.is(wrong.status, 405);
});

options.run();

const failed = suite('failed writes change nothing');

failed('should leave every player, list and ETag as it was after each refused write', async () => {
  const { send, call, store } = await writableService({ maxBodyBytes: 2048 });
  const snapshot = async () => {
    const ids = ['alice', 'bob', 'ada-01', 'zoe'];
    const players = await Promise.all(ids.map((id) => store.getPlayer(id)));
    const lists = await Promise.all(ids.map((id) => store.listFriends(id, { offset: 0, limit: 100 })));
    const etags = await Promise.all(['/player/bob', '/player/bob/friends'].map(async (p) => (await call(p)).headers.get('etag')));
    return JSON.stringify({ players, lists, etags });
  };
  const before = await snapshot();
  const stale = '"1-0"';
  const refused: [string, string, unknown, Record<string, string>, number][] = [
    ['PUT', '/player/bob', { alias: '' }, {}, 422],
    ['PUT', '/player/bob', { alias: 1 }, {}, 400],
    ['PUT', '/player/bob', '{"alias":', {}, 400],
    ['PUT', '/player/bob', { alias: 'x' }, { 'If-Match': stale }, 412],
    ['PUT', '/player/bob', { alias: 'x', displayName: 'y'.repeat(3000) }, {}, 413],
    ['PUT', '/player/zoe', { alias: 'x' }, { Accept: 'image/gif' }, 406],
    ['PUT', '/player/zoe', 'alias=x', { 'Content-Type': 'text/plain' }, 415],
    ['PUT', '/player/zoe', { playerId: 'zed', alias: 'x' }, {}, 422],
    ['DELETE', '/player/bob', undefined, { 'If-Match': stale }, 412],
    ['POST', '/player/bob/friends', { alternateName: 'x' }, { 'If-Match': stale }, 412],
    ['POST', '/player/bob/friends', { name: 'no alias' }, {}, 422],
    ['POST', '/player/bob/friends', { playerId: 'ada-01' }, {}, 409],
    ['POST', '/player/bob/friends', { playerId: 'nobody' }, {}, 422],
    ['DELETE', '/player/bob/friends/ada-01', undefined, { 'If-Match': stale }, 412],
    ['DELETE', '/player/bob/friends/alice', undefined, {}, 404],
  ];
  for (const [method, path, body, headers, status] of refused) {
    const res = await send(method, path, body, headers);
    assert.is(res.status, status, `${method} ${path} ${JSON.stringify(body)}`);
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.is(await snapshot(), before, `${method} ${path} changed something`);
  }
});

failed.run();
