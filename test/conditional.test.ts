import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonRepresentation, type Representation } from '../src/index.js';
import { evaluatePreconditions, parseEntityTags } from '../src/core/http/conditional.js';
import { demoService } from './support/service.js';

const req = (headers: Record<string, string>, method = 'GET') => new Request('https://x.test/r', { method, headers });
const v = { etag: '"7-abc"', lastModified: Date.parse('2026-01-01T00:00:00Z') };

const pre = suite('evaluatePreconditions (RFC 9110 section 13.2.2)');

pre('should be not-modified when If-None-Match matches, weakly', () => {
  assert.is(evaluatePreconditions(req({ 'If-None-Match': '"7-abc"' }), v), 'not-modified');
  assert.is(evaluatePreconditions(req({ 'If-None-Match': 'W/"7-abc"' }), v), 'not-modified');
  assert.is(evaluatePreconditions(req({ 'If-None-Match': '"x", "7-abc"' }), v), 'not-modified');
  assert.is(evaluatePreconditions(req({ 'If-None-Match': '*' }), v), 'not-modified');
  assert.is(evaluatePreconditions(req({ 'If-None-Match': '"other"' }), v), 'proceed');
});

pre('should ignore If-Modified-Since when If-None-Match is present', () => {
  const h = { 'If-None-Match': '"other"', 'If-Modified-Since': 'Fri, 01 Jan 2027 00:00:00 GMT' };
  assert.is(evaluatePreconditions(req(h), v), 'proceed');
});

pre('should be not-modified when not modified since the date, at one-second precision', () => {
  assert.is(evaluatePreconditions(req({ 'If-Modified-Since': 'Thu, 01 Jan 2026 00:00:00 GMT' }), { ...v, lastModified: v.lastModified + 999 }), 'not-modified');
  assert.is(evaluatePreconditions(req({ 'If-Modified-Since': 'Wed, 31 Dec 2025 23:59:59 GMT' }), v), 'proceed');
  assert.is(evaluatePreconditions(req({ 'If-Modified-Since': 'garbage' }), v), 'proceed');
});

pre('should fail If-Match unless a strong tag matches', () => {
  assert.is(evaluatePreconditions(req({ 'If-Match': '"7-abc"' }, 'PUT'), v), 'proceed');
  assert.is(evaluatePreconditions(req({ 'If-Match': 'W/"7-abc"' }, 'PUT'), v), 'failed');
  assert.is(evaluatePreconditions(req({ 'If-Match': '"6-abc"' }, 'PUT'), v), 'failed');
  assert.is(evaluatePreconditions(req({ 'If-Match': '*' }, 'PUT'), v, false), 'failed');
});

pre('should fail If-Unmodified-Since when modified later, and ignore it beside If-Match', () => {
  assert.is(evaluatePreconditions(req({ 'If-Unmodified-Since': 'Wed, 31 Dec 2025 00:00:00 GMT' }, 'PUT'), v), 'failed');
  assert.is(evaluatePreconditions(req({ 'If-Match': '"7-abc"', 'If-Unmodified-Since': 'Wed, 31 Dec 2025 00:00:00 GMT' }, 'PUT'), v), 'proceed');
});

pre('should fail If-None-Match on unsafe methods', () => {
  assert.is(evaluatePreconditions(req({ 'If-None-Match': '*' }, 'PUT'), v), 'failed');
});

pre('should parse entity-tag lists', () => {
  assert.equal(parseEntityTags('"a", W/"b" ,"c"'), ['"a"', 'W/"b"', '"c"']);
  assert.is(parseEntityTags(' * '), '*');
});

pre.run();

const http = suite('conditional GET through the service');

http('should answer 304 with the validators and caching headers and no body', async () => {
  const { call } = await demoService();
  const first = await call('/player/alice');
  const etag = first.headers.get('etag')!;
  assert.match(etag, /^"[^"]+"$/);
  assert.ok(first.headers.get('last-modified'));
  const again = await call('/player/alice', { headers: { 'If-None-Match': etag } });
  assert.is(again.status, 304);
  assert.is(await again.text(), '');
  for (const name of ['etag', 'cache-control', 'expires', 'vary', 'last-modified', 'date']) assert.ok(again.headers.get(name), name);
  const since = await call('/player/alice', { headers: { 'If-Modified-Since': first.headers.get('last-modified')! } });
  assert.is(since.status, 304);
});

http("should send no Link field on a 304, kept or computed, in any format: a partial one would replace the cached 200's", async () => {
  for (const memoizeAnswers of [true, false]) {
    const { call } = await demoService({ memoizeAnswers });
    for (const accept of ['application/json', 'application/hal+json', 'application/ld+json']) {
      for (const path of ['/player/alice/friends?page=2', '/player/alice']) {
        const first = await call(path, { headers: { Accept: accept } });
        assert.ok(first.headers.get('link'), `${path} ${accept}: the 200 has links`);
        for (let i = 0; i < 2; i++) {
          const again = await call(path, { headers: { Accept: accept, 'If-None-Match': first.headers.get('etag')! } });
          assert.is(again.status, 304);
          assert.is(again.headers.get('link'), null, `${path} ${accept} (memo ${memoizeAnswers})`);
        }
      }
    }
  }
});

http('should send the default cache policies with Expires = Date + max-age', async () => {
  const { call } = await demoService();
  const p = await call('/player/alice');
  assert.is(p.headers.get('cache-control'), 'public, max-age=60');
  assert.is(Date.parse(p.headers.get('expires')!) - Date.parse(p.headers.get('date')!), 60_000);
  assert.is((await call('/player/alice/friends')).headers.get('cache-control'), 'public, max-age=10');
  assert.is((await call('/player/alice/friends/search?search=a')).headers.get('cache-control'), 'public, max-age=10');
});

http('should change the ETag of a player when it changes, and of a page when a friend on it changes', async () => {
  const { call, store } = await demoService();
  const p1 = (await call('/player/bob')).headers.get('etag');
  const page1 = (await call('/player/alice/friends')).headers.get('etag');
  const page2 = (await call('/player/alice/friends?page=2')).headers.get('etag');
  await store.putPlayer({ playerId: 'bob', alias: 'robert' });
  await store.putPlayer({ playerId: 'ada-01', alias: 'ada-renamed' });
  assert.is.not((await call('/player/bob')).headers.get('etag'), p1);
  assert.is.not((await call('/player/alice/friends')).headers.get('etag'), page1);
  assert.is((await call('/player/alice/friends?page=2')).headers.get('etag'), page2);
  const stale = await call('/player/alice/friends', { headers: { 'If-None-Match': page1! } });
  assert.is(stale.status, 200);
});

http('should give different pages and different searches different ETags', async () => {
  const { call } = await demoService();
  const tags = new Set<string | null>();
  for (const path of ['/player/alice/friends?page=1', '/player/alice/friends?page=2', '/player/alice/friends/search?search=a', '/player/alice/friends/search?search=b', '/player/alice']) {
    tags.add((await call(path)).headers.get('etag'));
  }
  assert.is(tags.size, 5);
});

http('should match If-None-Match weakly, in lists, and with *', async () => {
  const { call } = await demoService();
  const etag = (await call('/player/alice/friends?page=3')).headers.get('etag')!;
  for (const inm of [etag, `W/${etag}`, `"x", ${etag}`, `W/"y",${etag} , "z"`, '*']) {
    assert.is((await call('/player/alice/friends?page=3', { headers: { 'If-None-Match': inm } })).status, 304, inm);
  }
  for (const inm of ['"x"', etag.slice(1, -1), `${etag.slice(0, -2)}"`]) {
    assert.is((await call('/player/alice/friends?page=3', { headers: { 'If-None-Match': inm } })).status, 200, inm);
  }
});

http('should ignore If-Modified-Since when If-None-Match is present, and invalid dates', async () => {
  const { call } = await demoService();
  const full = await call('/player/alice');
  const lm = full.headers.get('last-modified')!;
  assert.is((await call('/player/alice', { headers: { 'If-None-Match': '"old"', 'If-Modified-Since': lm } })).status, 200);
  assert.is((await call('/player/alice', { headers: { 'If-Modified-Since': `${lm}, ${lm}` } })).status, 200);
  assert.is((await call('/player/alice', { headers: { 'If-Modified-Since': new Date(Date.now() + 60_000).toISOString() } })).status, 200);
  assert.is((await call('/player/alice', { method: 'HEAD', headers: { 'If-Modified-Since': lm } })).status, 304);
});

http('should answer a 304 without building or rendering the body', async () => {
  let renders = 0;
  const counting: Representation = { ...jsonRepresentation, render: (r, p) => (renders++, jsonRepresentation.render(r, p)) };
  const { call } = await demoService({ representations: [counting] });
  const full = await call('/player/alice/friends?page=2');
  assert.is(renders, 1);
  for (let i = 0; i < 5; i++) await call('/player/alice/friends?page=2', { headers: { 'If-None-Match': full.headers.get('etag')! } });
  await call('/player/alice', { headers: { 'If-Modified-Since': full.headers.get('date')! } });
  assert.is(renders, 1);
});

http.run();
