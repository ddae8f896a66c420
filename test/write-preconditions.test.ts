import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writableService } from './support/writes.js';

const ifMatch = suite('If-Match and If-Unmodified-Since on writes');

ifMatch('should write with the current ETag and refuse a stale one with 412, writing nothing', async () => {
  const { send, call, store } = await writableService();
  const etag = (await call('/player/bob')).headers.get('etag')!;
  const first = await send('PUT', '/player/bob', { alias: 'one' }, { 'If-Match': etag });
  assert.is(first.status, 200);
  const before = await store.getPlayer('bob');
  const stale = await send('PUT', '/player/bob', { alias: 'two' }, { 'If-Match': etag });
  assert.is(stale.status, 412);
  assert.is(stale.headers.get('content-type'), 'application/problem+json');
  assert.equal(await store.getPlayer('bob'), before);
  assert.is((await send('PUT', '/player/bob', { alias: 'two' }, { 'If-Match': first.headers.get('etag')! })).status, 200);
});

ifMatch('should accept the ETag of any format, and refuse weak and foreign tags', async () => {
  const { send, call } = await writableService();
  const etag = (await call('/player/bob')).headers.get('etag')!;
  assert.is((await send('PUT', '/player/bob', { alias: 'x' }, { 'If-Match': `W/${etag}` })).status, 412);
  assert.is((await send('PUT', '/player/bob', { alias: 'x' }, { 'If-Match': '"nonsense"' })).status, 412);
  assert.is((await send('PUT', '/player/bob', { alias: 'x' }, { 'If-Match': `"zzz", ${etag}` })).status, 200);
});

ifMatch('should treat If-Match: * as "exists"', async () => {
  const { send, call } = await writableService();
  assert.is((await send('PUT', '/player/zoe', { alias: 'zoe' }, { 'If-Match': '*' })).status, 412);
  assert.is((await call('/player/zoe')).status, 404);
  assert.is((await send('PUT', '/player/bob', { alias: 'b' }, { 'If-Match': '*' })).status, 200);
});

ifMatch('should create only with If-None-Match: * when nothing exists', async () => {
  const { send } = await writableService();
  assert.is((await send('PUT', '/player/zoe', { alias: 'zoe' }, { 'If-None-Match': '*' })).status, 201);
  assert.is((await send('PUT', '/player/zoe', { alias: 'zoe2' }, { 'If-None-Match': '*' })).status, 412);
});

ifMatch('should refuse a write when the player changed after If-Unmodified-Since', async () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const { MemoryPlayerStore, seedDemoData } = await import('../src/index.js');
  const store = new MemoryPlayerStore({ now: () => now });
  await seedDemoData(store);
  const { send } = await writableService({ store });
  const lastModified = new Date(now).toUTCString();
  now += 5000;
  assert.is((await send('PUT', '/player/bob', { alias: 'b1' }, { 'If-Unmodified-Since': lastModified })).status, 200);
  assert.is((await send('PUT', '/player/bob', { alias: 'b2' }, { 'If-Unmodified-Since': lastModified })).status, 412);
  assert.is((await store.getPlayer('bob'))?.alias, 'b1');
  assert.is((await send('DELETE', '/player/bob', undefined, { 'If-Unmodified-Since': lastModified })).status, 412);
  assert.is((await send('DELETE', '/player/bob', undefined, { 'If-Unmodified-Since': new Date(now).toUTCString() })).status, 204);
});

ifMatch('should guard DELETE with If-Match', async () => {
  const { send, call } = await writableService();
  const etag = (await call('/player/bob')).headers.get('etag')!;
  await send('PUT', '/player/bob', { alias: 'changed' });
  assert.is((await send('DELETE', '/player/bob', undefined, { 'If-Match': etag })).status, 412);
  assert.is((await call('/player/bob')).status, 200);
});

ifMatch('should guard friend-list writes with the owner\'s or a page\'s ETag', async () => {
  const { send, call } = await writableService();
  const page = (await call('/player/bob/friends')).headers.get('etag')!;
  const owner = (await call('/player/bob')).headers.get('etag')!;
  const added = await send('POST', '/player/bob/friends', { alternateName: 'newbie' }, { 'If-Match': page });
  assert.is(added.status, 201);
  assert.is((await send('POST', '/player/bob/friends', { alternateName: 'late' }, { 'If-Match': owner })).status, 412);
  assert.is((await send('DELETE', '/player/bob/friends/ada-01', undefined, { 'If-Match': page })).status, 412);
  const fresh = (await call('/player/bob/friends')).headers.get('etag')!;
  assert.is((await send('DELETE', '/player/bob/friends/ada-01', undefined, { 'If-Match': fresh })).status, 204);
});

ifMatch('should let exactly one of 20 racing writers with the same If-Match win', async () => {
  const { send, call, store } = await writableService();
  const etag = (await call('/player/bob')).headers.get('etag')!;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => send('PUT', '/player/bob', { alias: `racer-${i}` }, { 'If-Match': etag })),
  );
  const statuses = results.map((r) => r.status);
  assert.is(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
  assert.is(statuses.filter((s) => s === 412).length, 19);
  const winner = results[statuses.indexOf(200)]!;
  assert.is((await store.getPlayer('bob'))?.alias, (await winner.json()).alias);
});

ifMatch('should let exactly one of 20 racing friend additions with the same If-Match win', async () => {
  const { send, call } = await writableService();
  const etag = (await call('/player/bob')).headers.get('etag')!;
  const total = Number((await call('/player/bob/friends')).headers.get('total-count'));
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => send('POST', '/player/bob/friends', { alternateName: `racer-${i}` }, { 'If-Match': etag })),
  );
  assert.is(results.filter((r) => r.status === 201).length, 1);
  assert.is(Number((await call('/player/bob/friends')).headers.get('total-count')), total + 1);
});

ifMatch.run();

const required = suite('requireIfMatch');

required('should answer 428 for a write without If-Match, and nothing is written', async () => {
  const { send, call } = await writableService({ requireIfMatch: true });
  for (const [method, path, body] of [
    ['PUT', '/player/bob', { alias: 'x' }],
    ['DELETE', '/player/bob', undefined],
    ['POST', '/player/bob/friends', { alternateName: 'x' }],
    ['DELETE', '/player/bob/friends/ada-01', undefined],
  ] as const) {
    const res = await send(method, path, body);
    assert.is(res.status, 428, `${method} ${path}`);
  }
  assert.is((await (await call('/player/bob')).json()).alias, 'bobby');
  const etag = (await call('/player/bob')).headers.get('etag')!;
  assert.is((await send('PUT', '/player/bob', { alias: 'x' }, { 'If-Match': etag })).status, 200);
  assert.is((await send('PUT', '/player/new', { alias: 'new' }, { 'If-None-Match': '*' })).status, 201);
});

required.run();
