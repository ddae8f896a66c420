import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { authorizedPolicy, cacheControl, DEFAULT_CACHE_POLICIES, resolveCacheOptions } from '../src/core/respond/cache-policy.js';
import { createPlayerService } from '../src/index.js';

const KINDS = { player: DEFAULT_CACHE_POLICIES.item, friends: DEFAULT_CACHE_POLICIES.list, search: DEFAULT_CACHE_POLICIES.search, avatar: DEFAULT_CACHE_POLICIES.media };

const control = suite('cacheControl');

control('should write the documented defaults', () => {
  assert.is(cacheControl(DEFAULT_CACHE_POLICIES.item), 'public, max-age=60');
  assert.is(cacheControl(DEFAULT_CACHE_POLICIES.list), 'public, max-age=10');
  assert.is(cacheControl(DEFAULT_CACHE_POLICIES.search), 'public, max-age=10');
  assert.is(cacheControl(DEFAULT_CACHE_POLICIES.media), 'public, max-age=86400');
  // The Player API's kinds, as createPlayerService resolves them.
  const { kinds } = createPlayerService({ baseUrl: 'https://x.test' }).config.cache;
  assert.equal(Object.keys(kinds).sort(), ['avatar', 'friends', 'player', 'search']);
  assert.is(cacheControl(kinds.player!), 'public, max-age=60');
  assert.is(cacheControl(kinds.friends!), 'public, max-age=10');
  assert.is(cacheControl(kinds.avatar!), 'public, max-age=86400');
});

control('should express s-maxage, must-revalidate, proxy-revalidate, stale-while-revalidate and stale-if-error', () => {
  const value = cacheControl({
    scope: 'public',
    maxAge: 10,
    sMaxAge: 60,
    mustRevalidate: true,
    proxyRevalidate: true,
    staleWhileRevalidate: 30,
    staleIfError: 600,
  });
  assert.is(value, 'public, max-age=10, s-maxage=60, must-revalidate, proxy-revalidate, stale-while-revalidate=30, stale-if-error=600');
  assert.is(cacheControl({ scope: 'private', maxAge: 0 }), 'private, max-age=0');
});

control.run();

const resolve = suite('resolveCacheOptions');

resolve('should merge each kind field by field over the defaults', () => {
  const config = resolveCacheOptions({ friends: { maxAge: 30, staleIfError: 120 } }, KINDS);
  assert.equal(config.kinds.friends, { scope: 'public', maxAge: 30, staleIfError: 120 });
  assert.equal(config.kinds.player, DEFAULT_CACHE_POLICIES.item);
  assert.is(config.authorized, 'revalidate');
  assert.is(resolveCacheOptions({ authorized: 'private' }, KINDS).authorized, 'private');
});

resolve('should refuse misuse with a TypeError', () => {
  assert.throws(() => resolveCacheOptions({ player: { maxAge: -1 } }, KINDS), TypeError);
  assert.throws(() => resolveCacheOptions({ player: { maxAge: 1.5 } }, KINDS), TypeError);
  assert.throws(() => resolveCacheOptions({ avatar: { sMaxAge: Number.NaN } }, KINDS), TypeError);
  assert.throws(() => resolveCacheOptions({ search: { scope: 'shared' as 'public' } }, KINDS), TypeError);
  assert.throws(() => resolveCacheOptions({ authorized: 'public' as 'private' }, KINDS), /cache\.authorized/);
  // A kind the service does not answer with is a typo, named with the kinds there are.
  assert.throws(() => resolveCacheOptions({ players: { maxAge: 5 } }, KINDS), /cache\.players names no kind of answer; the kinds are player, friends, search, avatar/);
});

resolve.run();

const authorized = suite('authorizedPolicy (RFC 9111 section 3.5)');

authorized('should make a public policy public, max-age=0 without anything that skips the origin', () => {
  const edge = { scope: 'public' as const, maxAge: 60, sMaxAge: 600, staleWhileRevalidate: 30, staleIfError: 600 };
  assert.is(cacheControl(authorizedPolicy(edge, 'revalidate')), 'public, max-age=0');
  assert.is(cacheControl(authorizedPolicy({ ...edge, mustRevalidate: true }, 'revalidate')), 'public, max-age=0, must-revalidate');
});

authorized('should make it private for the user cache only when so configured, or when the kind is private', () => {
  const edge = { scope: 'public' as const, maxAge: 60, sMaxAge: 600, staleIfError: 600 };
  assert.is(cacheControl(authorizedPolicy(edge, 'private')), 'private, max-age=60, stale-if-error=600');
  assert.is(cacheControl(authorizedPolicy({ scope: 'private', maxAge: 5 }, 'revalidate')), 'private, max-age=5');
});

authorized.run();
