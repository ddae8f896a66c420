import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BASE, demoService } from './support/service.js';

const player = suite('GET /player/{id}');

player('should answer the plain JSON player with the plain field names', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'application/json');
  assert.equal(await res.json(), {
    playerId: 'alice',
    alias: 'alice',
    displayName: 'Alice Liddell',
    profilePhotoUrl: `${BASE}/player/alice/avatar.png`,
  });
});

player('should leave out a displayName the player does not have', async () => {
  const { call } = await demoService();
  const body = await (await call('/player/elif-05')).json();
  assert.equal(Object.keys(body), ['playerId', 'alias', 'profilePhotoUrl']);
});

player('should answer 404 problem+json for an unknown player', async () => {
  const { call } = await demoService();
  const res = await call('/player/nobody');
  assert.is(res.status, 404);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  assert.is(res.headers.get('cache-control'), 'no-store');
  const problem = await res.json();
  assert.is(problem.status, 404);
  assert.is(problem.title, 'Not Found');
  assert.match(problem.detail, 'nobody');
});

player('should answer 400 for an id that breaks the id rules', async () => {
  const { call } = await demoService();
  for (const bad of ['a%20b', 'x'.repeat(65), '%E2%9C%93', 'a%2Fb']) {
    const res = await call(`/player/${bad}`);
    assert.is(res.status, 400, bad);
    assert.is((await res.json()).errors[0].parameter, 'id');
  }
  assert.is((await call('/player/%E0%A4%A')).status, 400);
});

player('should answer HEAD with the headers of GET and no body', async () => {
  const { call } = await demoService();
  const get = await call('/player/alice');
  const head = await call('/player/alice', { method: 'HEAD' });
  assert.is(head.status, 200);
  assert.is(await head.text(), '');
  assert.is(head.headers.get('etag'), get.headers.get('etag'));
  assert.is(head.headers.get('content-length'), String((await get.text()).length));
});

player('should answer 405 with Allow for other methods on known paths', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice/friends/search?search=a', { method: 'DELETE' });
  assert.is(res.status, 405);
  assert.ok(res.headers.get('allow')?.includes('GET'));
  assert.is((await res.json()).status, 405);
});

player('should answer 404 for paths it does not serve', async () => {
  const { call } = await demoService();
  // `/` is the Hydra entry point (test/hydra.test.ts).
  for (const path of ['/players', '/player', '/player/alice/enemies', '/player/alice/friends/x/y/z']) {
    assert.is((await call(path)).status, 404, path);
  }
});

player.run();

const friends = suite('GET /player/{id}/friends');

friends('should answer the first page as an array with paging in Link and the total in a header', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice/friends');
  assert.is(res.status, 200);
  const body = await res.json();
  assert.ok(Array.isArray(body));
  assert.is(body.length, 10);
  assert.is(body[0].playerId, 'ada-01');
  assert.is(res.headers.get('total-count'), '32');
  const link = res.headers.get('link')!;
  assert.match(link, `<${BASE}/player/alice/friends?page=1>; rel="self"`);
  assert.match(link, `<${BASE}/player/alice/friends?page=2>; rel="next"`);
  assert.match(link, `<${BASE}/player/alice/friends?page=4>; rel="last"`);
  assert.not.match(link, 'rel="prev"');
});

friends('should link prev and next on a middle page and no next on the last', async () => {
  const { call } = await demoService();
  const middle = await call('/player/alice/friends?page=2');
  assert.match(middle.headers.get('link')!, `<${BASE}/player/alice/friends?page=1>; rel="prev"`);
  assert.match(middle.headers.get('link')!, `<${BASE}/player/alice/friends?page=3>; rel="next"`);
  const last = await call('/player/alice/friends?page=4');
  assert.is((await last.json()).length, 2);
  assert.not.match(last.headers.get('link')!, 'rel="next"');
});

friends('should answer 400 for a page that is not a positive integer', async () => {
  const { call } = await demoService();
  for (const bad of ['0', '-1', 'abc', '1.5', '01', '', '1e3', '99999999999']) {
    const res = await call(`/player/alice/friends?page=${bad}`);
    assert.is(res.status, 400, `page=${bad}`);
  }
  assert.is((await call('/player/alice/friends?page=1&page=2')).status, 400);
});

friends('should answer 404 past the last page, but 200 for page 1 of an empty list', async () => {
  const { call } = await demoService();
  assert.is((await call('/player/alice/friends?page=5')).status, 404);
  const empty = await call('/player/elif-05/friends');
  assert.is(empty.status, 200);
  assert.equal(await empty.json(), []);
  assert.is((await call('/player/elif-05/friends?page=2')).status, 404);
});

friends('should answer 404 for the friends of an unknown player', async () => {
  const { call } = await demoService();
  assert.is((await call('/player/nobody/friends')).status, 404);
});

friends('should honour the pageSize option', async () => {
  const { call } = await demoService({ pageSize: 25 });
  const res = await call('/player/alice/friends?page=2');
  assert.is((await res.json()).length, 7);
});

friends.run();

const search = suite('GET /player/{id}/friends/search');

search('should find friends by alias or display name, case-insensitively', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice/friends/search?search=OKAFOR');
  assert.is(res.status, 200);
  const body = await res.json();
  assert.equal(body.map((p: { playerId: string }) => p.playerId), ['ada-01', 'ivo-09', 'quinn-17']);
  assert.is(res.headers.get('total-count'), '3');
  assert.match(res.headers.get('link')!, `<${BASE}/player/alice/friends/search?search=OKAFOR&page=1>; rel="self"`);
  const byAlias = await (await call('/player/alice/friends/search?search=kai1')).json();
  assert.equal(byAlias.map((p: { playerId: string }) => p.playerId), ['kai-11']);
});

search('should page search results', async () => {
  const { call } = await demoService({ pageSize: 3 });
  const second = await call('/player/alice/friends/search?search=a&page=2');
  assert.is(second.status, 200);
  assert.is((await second.json()).length, 3);
  assert.match(second.headers.get('link')!, 'rel="next"');
});

search('should answer 400 for a missing, empty or too long search', async () => {
  const { call } = await demoService();
  for (const q of ['', '?search=', '?search=%20%20', `?search=${'x'.repeat(129)}`, '?search=a&search=b']) {
    const res = await call(`/player/alice/friends/search${q}`);
    assert.is(res.status, 400, q);
    assert.is((await res.json()).errors[0].parameter, 'search');
  }
});

search('should answer an empty first page when nothing matches, and 404 beyond it', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice/friends/search?search=zzz');
  assert.equal(await res.json(), []);
  assert.is((await call('/player/alice/friends/search?search=zzz&page=2')).status, 404);
});

search.run();

const mounting = suite('base URL with a path prefix');

mounting('should serve under the prefix and build links with it', async () => {
  const { service } = await demoService({ baseUrl: 'https://x.test/games/api/' });
  const res = await service.fetch(new Request('https://x.test/games/api/player/bob'));
  assert.is(res.status, 200);
  assert.is((await res.json()).profilePhotoUrl, 'https://x.test/games/api/player/bob/avatar.png');
  assert.is((await service.fetch(new Request('https://x.test/player/bob'))).status, 404);
});

mounting('should reject misuse of the options with a TypeError', async () => {
  const { createPlayerService } = await import('../src/index.js');
  assert.throws(() => createPlayerService({ baseUrl: 'not a url' }), TypeError);
  assert.throws(() => createPlayerService({ baseUrl: 'ftp://x.test' }), TypeError);
  assert.throws(() => createPlayerService({ baseUrl: BASE, pageSize: 0 }), TypeError);
});

mounting.run();
