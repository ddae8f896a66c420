import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens } from '../src/index.js';
import { demoService } from './support/service.js';

// Expires is compared as Expires - Date (a 304 sent a second later has a later Expires).
const CACHING = ['etag', 'last-modified', 'cache-control', 'vary'] as const;
const pick = (res: Response) => Object.fromEntries(CACHING.map((n) => [n, res.headers.get(n)]));
const age = (res: Response) => (Date.parse(res.headers.get('expires')!) - Date.parse(res.headers.get('date')!)) / 1000;

const policy = suite('Cache-Control and Expires per resource kind');

policy('should send the configured policy of each kind, merged over the defaults', async () => {
  const { call } = await demoService({
    cache: {
      player: { sMaxAge: 600, staleWhileRevalidate: 30, staleIfError: 86400 },
      friends: { maxAge: 5, mustRevalidate: true },
      search: { scope: 'private', maxAge: 0 },
    },
  });
  const player = await call('/player/alice');
  assert.is(player.headers.get('cache-control'), 'public, max-age=60, s-maxage=600, stale-while-revalidate=30, stale-if-error=86400');
  assert.is(age(player), 60);
  const page = await call('/player/alice/friends');
  assert.is(page.headers.get('cache-control'), 'public, max-age=5, must-revalidate');
  assert.is(age(page), 5);
  const search = await call('/player/alice/friends/search?search=a');
  assert.is(search.headers.get('cache-control'), 'private, max-age=0');
  // RFC 9111 section 5.3: Expires equal to Date marks the response as already stale.
  assert.is(search.headers.get('expires'), search.headers.get('date'));
});

policy('should never send a Last-Modified later than Date', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice');
  assert.ok(Date.parse(res.headers.get('last-modified')!) <= Date.parse(res.headers.get('date')!));
});

policy('should send on a 304 the caching fields the 200 carries, and Vary: Accept, Authorization', async () => {
  const { call } = await demoService();
  for (const path of ['/player/alice', '/player/alice/friends?page=2', '/player/alice/friends/search?search=ad']) {
    const full = await call(path);
    assert.is(full.headers.get('vary'), 'Accept, Authorization, Api-Version');
    for (const method of ['GET', 'HEAD']) {
      const again = await call(path, { method, headers: { 'If-None-Match': full.headers.get('etag')! } });
      assert.is(again.status, 304, `${method} ${path}`);
      assert.equal(pick(again), pick(full));
      assert.is(age(again), age(full));
      assert.is(again.headers.get('content-type'), null);
      assert.is(await again.text(), '');
    }
  }
});

policy.run();

const authorized = suite('responses to requests with credentials (RFC 9111 section 3.5)');
const auth = { authenticate: bearerTokens(['s3cret']) };
const token = { Authorization: 'Bearer s3cret' };

authorized('should be public, max-age=0 by default, on the 200 and on the 304', async () => {
  const { call } = await demoService({ ...auth, cache: { player: { sMaxAge: 600, staleIfError: 600 } } });
  for (const path of ['/player/alice', '/player/alice/friends', '/player/alice/friends/search?search=a']) {
    const res = await call(path, { headers: token });
    assert.is(res.status, 200);
    assert.is(res.headers.get('cache-control'), 'public, max-age=0');
    assert.is(res.headers.get('expires'), res.headers.get('date'));
    assert.match(res.headers.get('vary')!, 'Authorization');
    const again = await call(path, { headers: { ...token, 'If-None-Match': res.headers.get('etag')! } });
    assert.is(again.status, 304);
    assert.is(again.headers.get('cache-control'), 'public, max-age=0');
  }
  // The same resource without credentials keeps its own policy and the same ETag (same body).
  const anonymous = await call('/player/alice');
  assert.is(anonymous.headers.get('cache-control'), 'public, max-age=60, s-maxage=600, stale-if-error=600');
  assert.is(anonymous.headers.get('etag'), (await call('/player/alice', { headers: token })).headers.get('etag'));
});

authorized('should be private with the kind\'s max-age when cache.authorized is private', async () => {
  const { call } = await demoService({ ...auth, cache: { authorized: 'private' } });
  const res = await call('/player/alice', { headers: token });
  assert.is(res.headers.get('cache-control'), 'private, max-age=60');
  assert.is((await call('/player/alice/friends', { headers: token })).headers.get('cache-control'), 'private, max-age=10');
});

authorized('should answer a revalidation with invalid credentials 401, never 304', async () => {
  const { call } = await demoService(auth);
  const full = await call('/player/alice', { headers: token });
  const validators = { 'If-None-Match': full.headers.get('etag')!, 'If-Modified-Since': full.headers.get('last-modified')! };
  for (const bad of ['Bearer revoked', 'Basic czNjcmV0', '']) {
    const res = await call('/player/alice', { headers: { ...validators, Authorization: bad } });
    assert.is(res.status, 401, bad);
    assert.is(res.headers.get('cache-control'), 'no-store');
    assert.ok(res.headers.get('www-authenticate'));
    assert.is(res.headers.get('etag'), null);
  }
  assert.is((await call('/player/alice', { headers: validators })).status, 304);
});

authorized.run();

const errors = suite('errors are no-store');

errors('should send no-store and no validators on every error path', async () => {
  const { call } = await demoService(auth);
  const cases: [string, RequestInit, number][] = [
    ['/nowhere', {}, 404],
    ['/player/nobody', {}, 404],
    ['/player/a%20b', {}, 400],
    ['/player/alice/friends?page=0', {}, 400],
    ['/player/alice/friends?page=99', {}, 404],
    ['/player/alice/friends/search', {}, 400],
    ['/player/alice/friends/search?search=a', { method: 'PATCH' }, 405],
    ['/player/alice', { headers: { Accept: 'text/csv' } }, 406],
    ['/player/alice', { headers: { Authorization: 'Bearer wrong' } }, 401],
    ['/player/alice', { headers: { 'If-Match': '"0-nope"' } }, 412],
    ['/player/alice/friends', { headers: { 'If-Match': '"nope"' } }, 412],
  ];
  for (const [path, init, status] of cases) {
    for (const method of init.method ? [init.method] : ['GET', 'HEAD']) {
      const res = await call(path, { ...init, method });
      const label = `${method} ${path} ${JSON.stringify(init.headers ?? {})}`;
      assert.is(res.status, status, label);
      assert.is(res.headers.get('cache-control'), 'no-store', label);
      for (const name of ['etag', 'last-modified', 'expires']) assert.is(res.headers.get(name), null, `${label} ${name}`);
    }
  }
});

errors.run();

const everyRoute = suite('errors of every route are no-store');

everyRoute('should send no-store and no validators on the errors of every route and method', async () => {
  const { playerRoutes } = await import('./support/player-routes.js');
  const apiRoutes = playerRoutes();
  const { call } = await demoService(auth);
  const bodies: [string, string][] = [['application/json', '{"broken"'], ['text/csv', 'a,b'], ['image/png', 'not a png']];
  let checked = 0;
  for (const route of apiRoutes) {
    const methods = [...Object.keys(route.methods), 'PATCH', 'PUT', 'DELETE', 'POST'];
    for (const target of ['nobody', 'alice']) {
      const path = route.path.replace('{id}', target).replace(/\{[^}]+\}/g, 'nobody');
      for (const method of new Set(methods)) {
        const attempts: RequestInit[] = [
          { method, headers: { Authorization: 'Bearer wrong' } },
          { method, headers: { Accept: 'text/csv' } },
          { method, headers: { 'If-Match': '"0-stale"', Authorization: 'Bearer s3cret' } },
        ];
        if (method !== 'GET' && method !== 'HEAD') {
          attempts.push({ method }); // no credentials
          // Bodies that must fail (never a DELETE with credentials: it would succeed and change the data).
          if (method !== 'DELETE') for (const [type, body] of bodies) attempts.push({ method, body, headers: { 'Content-Type': type, Authorization: 'Bearer s3cret' } });
        }
        for (const init of attempts) {
          const res = await call(path, init);
          if (res.status < 400) continue;
          const label = `${method} ${path} ${JSON.stringify(init.headers ?? {})} -> ${res.status}`;
          assert.is(res.headers.get('cache-control'), 'no-store', label);
          assert.is(res.headers.get('etag'), null, label);
          assert.is(res.headers.get('last-modified'), null, label);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 40, String(checked));
});

everyRoute.run();

const avatars = suite('caching of avatars');

avatars('should cache the identicon for a day, revalidate it with a 304, and cache the redirect as the player', async () => {
  const { call, store } = await demoService({ ...auth, cache: { avatar: { maxAge: 3600, staleIfError: 600 } } });
  const png = await call('/player/alice/avatar.png');
  assert.is(png.status, 200);
  assert.is(png.headers.get('cache-control'), 'public, max-age=3600, stale-if-error=600');
  assert.is(age(png), 3600);
  assert.match(png.headers.get('vary')!, /^Authorization\b/);
  assert.not.match(png.headers.get('vary')!, 'Accept,');
  const again = await call('/player/alice/avatar.png', { headers: { 'If-None-Match': png.headers.get('etag')! } });
  assert.is(again.status, 304);
  assert.equal(pick(again), pick(png));
  assert.is(age(again), age(png));
  const credentialed = await call('/player/alice/avatar.png', { headers: token });
  assert.is(credentialed.headers.get('cache-control'), 'public, max-age=0');
  await store.putPlayer({ playerId: 'pic', alias: 'pic', image: 'https://cdn.example.test/pic.png' });
  const redirect = await call('/player/pic/avatar.png');
  assert.is(redirect.status, 302);
  assert.is(redirect.headers.get('cache-control'), 'public, max-age=60');
  assert.is(age(redirect), 60);
  assert.match(redirect.headers.get('vary')!, 'Authorization');
});

avatars.run();
