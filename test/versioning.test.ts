import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveVersions, selectVersion, type ApiVersionOptions } from '../src/core/service/versioning.js';
import { BASE, demoService } from './support/service.js';

const DEPRECATED_AT = Date.parse('2026-01-01T00:00:00Z');
const DAY = 86_400_000;
const TWO_MAJORS: ApiVersionOptions[] = [
  { major: 1, minor: 0, patch: 1, status: 'deprecated', deprecatedAt: DEPRECATED_AT },
  { major: 2, minor: 0 },
];

/** A service with majors 1 (deprecated) and 2, and a clock the test sets. */
async function twoMajors(options: { gracePeriodDays?: number } = {}) {
  const clock = { now: DEPRECATED_AT + 10 * DAY };
  const demo = await demoService({ versions: TWO_MAJORS, now: () => clock.now, ...options });
  return { ...demo, clock };
}

const prefix = suite('versioning: /api/v{major} prefixes');

prefix('should serve the latest version at the non-versioned URL', async () => {
  const { call } = await twoMajors();
  const res = await call('/player/alice');
  assert.is(res.status, 200);
  assert.is(res.headers.get('api-version'), '2.0');
  assert.ok(res.headers.get('vary')!.split(', ').includes('Api-Version'));
  assert.is(res.headers.get('deprecation'), null);
  assert.is((await res.json()).profilePhotoUrl, `${BASE}/player/alice/avatar.png`);
});

prefix('should serve a major at its prefix, with links that stay under it', async () => {
  const { call } = await twoMajors();
  const res = await call('/api/v2/player/alice');
  assert.is(res.status, 200);
  assert.is(res.headers.get('api-version'), '2.0');
  assert.is((await res.json()).profilePhotoUrl, `${BASE}/api/v2/player/alice/avatar.png`);
  const page = await call('/api/v1/player/alice/friends?page=2');
  assert.is(page.headers.get('api-version'), '1.0');
  assert.match(page.headers.get('link')!, `<${BASE}/api/v1/player/alice/friends?page=3>; rel="next"`);
  for (const player of await page.json()) assert.ok(player.profilePhotoUrl.startsWith(`${BASE}/api/v1/player/`));
});

prefix('should answer 404 for an unknown major, naming the versions', async () => {
  const { call } = await twoMajors();
  const res = await call('/api/v9/player/alice');
  assert.is(res.status, 404);
  assert.is(res.headers.get('api-version'), '2.0');
  assert.match((await res.json()).detail, '1.0, 2.0');
  assert.is((await call('/api/v1')).status, 200, "a version's root is its Hydra entry point");
  assert.is((await call('/api/v01/player/alice')).status, 404);
});

prefix('should give each version its own ETag', async () => {
  const { call } = await twoMajors();
  const v1 = await call('/api/v1/player/alice');
  const v2 = await call('/api/v2/player/alice');
  const latest = await call('/player/alice');
  const tags = new Set([v1, v2, latest].map((r) => r.headers.get('etag')));
  assert.is(tags.size, 3);
  const again = await call('/api/v1/player/alice', { headers: { 'If-None-Match': v1.headers.get('etag')! } });
  assert.is(again.status, 304);
  assert.is(again.headers.get('api-version'), '1.0');
});

prefix.run();

const header = suite('versioning: the Api-Version header');

header('should serve the version the header names at the non-versioned URL', async () => {
  const { call } = await twoMajors();
  const res = await call('/player/alice', { headers: { 'Api-Version': '1.0' } });
  assert.is(res.status, 200);
  assert.is(res.headers.get('api-version'), '1.0');
  // Links keep the client in the major it asked for.
  assert.is((await res.json()).profilePhotoUrl, `${BASE}/api/v1/player/alice/avatar.png`);
  const latest = await call('/player/alice', { headers: { 'Api-Version': '2.0' } });
  assert.is(latest.headers.get('etag'), (await call('/player/alice')).headers.get('etag'));
  assert.is((await call('/player/alice', { headers: { 'Api-Version': '2' } })).headers.get('api-version'), '2.0');
});

header('should answer 400 listing the supported versions for an unsupported one', async () => {
  const { call } = await twoMajors();
  for (const value of ['3.0', '1.7', 'banana', '2.0.0', '']) {
    const res = await call('/player/alice', { headers: { 'Api-Version': value } });
    assert.is(res.status, 400, value);
    assert.is(res.headers.get('api-version'), '2.0');
    assert.is(res.headers.get('content-type'), 'application/problem+json');
    assert.equal((await res.json()).supported, ['1.0', '2.0']);
  }
});

header('should answer 400 when the header contradicts the prefix', async () => {
  const { call } = await twoMajors();
  assert.is((await call('/api/v2/player/alice', { headers: { 'Api-Version': '1.0' } })).status, 400);
  assert.is((await call('/api/v2/player/alice', { headers: { 'Api-Version': '2.0' } })).status, 200);
});

header('should put a header-chosen minor into the ETag', async () => {
  const { call } = await demoService({ versions: [{ major: 1, minor: 0 }, { major: 1, minor: 1 }] });
  const latest = await call('/player/alice');
  assert.is(latest.headers.get('api-version'), '1.1');
  const older = await call('/player/alice', { headers: { 'Api-Version': '1.0' } });
  assert.is(older.headers.get('api-version'), '1.0');
  assert.is.not(older.headers.get('etag'), latest.headers.get('etag'));
  const revalidated = await call('/player/alice', { headers: { 'Api-Version': '1.0', 'If-None-Match': older.headers.get('etag')! } });
  assert.is(revalidated.status, 304);
  const crossed = await call('/player/alice', { headers: { 'If-None-Match': older.headers.get('etag')! } });
  assert.is(crossed.status, 200);
});

header('should name version 1.0 by default, on every response', async () => {
  const { call } = await demoService();
  assert.is((await call('/player/alice')).headers.get('api-version'), '1.0');
  const missing = await call('/player/nobody');
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('api-version'), '1.0');
  assert.ok(missing.headers.get('vary')!.includes('Api-Version'));
  assert.is((await call('/player/alice', { method: 'OPTIONS' })).headers.get('api-version'), '1.0');
});

header.run();

const deprecation = suite('versioning: deprecation, grace period and sunset');

deprecation('should keep a deprecated major working during its grace period, announcing its end', async () => {
  const { call } = await twoMajors();
  const res = await call('/api/v1/player/alice?x=1');
  assert.is(res.status, 200);
  // RFC 9745: a structured-field Date; RFC 8594: an HTTP-date.
  assert.is(res.headers.get('deprecation'), `@${DEPRECATED_AT / 1000}`);
  assert.is(res.headers.get('sunset'), new Date(DEPRECATED_AT + 180 * DAY).toUTCString());
  assert.match(res.headers.get('link')!, `<${BASE}/player/alice?x=1>; rel="successor-version"`);
  const errored = await call('/api/v1/player/nobody');
  assert.is(errored.status, 404);
  assert.ok(errored.headers.get('deprecation'));
  const page = await call('/api/v1/player/alice/friends?page=2');
  assert.match(page.headers.get('link')!, 'rel="next"');
  assert.match(page.headers.get('link')!, 'rel="successor-version"');
});

deprecation('should redirect (308) to the canonical URL after the grace period, query kept', async () => {
  const { call, clock } = await twoMajors();
  clock.now = DEPRECATED_AT + 180 * DAY;
  const res = await call('/api/v1/player/alice/friends?page=2', { redirect: 'manual' });
  assert.is(res.status, 308);
  assert.is(res.headers.get('location'), `${BASE}/player/alice/friends?page=2`);
  assert.is(res.headers.get('api-version'), '2.0');
  const put = await call('/api/v1/player/alice', { method: 'PUT', body: '{}', redirect: 'manual' });
  assert.is(put.status, 308);
  // The header may no longer choose it.
  const byHeader = await call('/player/alice', { headers: { 'Api-Version': '1.0' } });
  assert.is(byHeader.status, 400);
  assert.equal((await byHeader.json()).supported, ['2.0']);
  assert.is((await call('/api/v2/player/alice')).status, 200);
});

deprecation('should take the grace period from the options', async () => {
  const { call, clock } = await twoMajors({ gracePeriodDays: 30 });
  clock.now = DEPRECATED_AT + 29 * DAY;
  assert.is((await call('/api/v1/player/alice')).status, 200);
  clock.now = DEPRECATED_AT + 30 * DAY;
  assert.is((await call('/api/v1/player/alice', { redirect: 'manual' })).status, 308);
});

deprecation('should announce the deprecation when the header chooses the deprecated major', async () => {
  const { call } = await twoMajors();
  const res = await call('/player/alice', { headers: { 'Api-Version': '1.0' } });
  assert.ok(res.headers.get('sunset'));
  assert.match(res.headers.get('link')!, `<${BASE}/player/alice>; rel="successor-version"`);
});

deprecation('should build links, successor and redirect from the proxy\'s base URL under trustProxy', async () => {
  const clock = { now: DEPRECATED_AT + DAY };
  const { call } = await demoService({ versions: TWO_MAJORS, now: () => clock.now, trustProxy: true });
  const headers = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'games.example.test' };
  const res = await call('/api/v1/player/alice', { headers });
  assert.is((await res.json()).profilePhotoUrl, 'https://games.example.test/api/v1/player/alice/avatar.png');
  assert.match(res.headers.get('link')!, '<https://games.example.test/player/alice>; rel="successor-version"');
  clock.now = DEPRECATED_AT + 200 * DAY;
  const moved = await call('/api/v1/player/alice?page=1', { headers, redirect: 'manual' });
  assert.is(moved.headers.get('location'), 'https://games.example.test/player/alice?page=1');
});

deprecation.run();

const config = suite('resolveVersions and selectVersion');

config('should refuse misconfigured versions with a TypeError', () => {
  assert.throws(() => resolveVersions([]), TypeError);
  assert.throws(() => resolveVersions([{ major: 1 }, { major: 1, minor: 0 }]), TypeError);
  assert.throws(() => resolveVersions([{ major: 1, status: 'deprecated' }]), TypeError);
  assert.throws(() => resolveVersions([{ major: -1 }]), TypeError);
  assert.throws(() => resolveVersions([{ major: 1, status: 'deprecated', deprecatedAt: 'not a date' }]), TypeError);
});

config('should pick the highest current version as the latest, and the highest minor for a prefix', () => {
  const policy = resolveVersions([{ major: 2, minor: 1 }, { major: 1 }, { major: 2 }, { major: 3, status: 'deprecated', deprecatedAt: 0, sunsetAt: 1e15 }]);
  assert.is(policy.latest.label, '2.1');
  const s = selectVersion(policy, '/api/v2/player/a', null, 0);
  assert.is(s.kind === 'serve' && s.version.label, '2.1');
  assert.is(s.kind === 'serve' && s.path, '/player/a');
});

config.run();

const example = suite('examples/versioned.ts and examples/server.ts over HTTP');

example('should serve 2.0 as the latest and 1.0 in its grace period in the versioned example', async () => {
  const { startChild } = await import('./support/child-server.js');
  const app = await startChild(['examples/versioned.ts']);
  try {
    const latest = await fetch(`${app.origin}/player/alice`);
    assert.is(latest.headers.get('api-version'), '2.0');
    const v1 = await fetch(`${app.origin}/api/v1/player/alice`);
    assert.is(v1.status, 200);
    assert.is(v1.headers.get('api-version'), '1.0');
    assert.match(v1.headers.get('deprecation')!, /^@\d+$/);
    assert.ok(Date.parse(v1.headers.get('sunset')!) > Date.now());
    assert.is((await v1.json()).profilePhotoUrl, `${app.origin}/api/v1/player/alice/avatar.png`);
    const described = await (await fetch(`${app.origin}/api/v1/swagger.json`)).json();
    assert.is(described.info.version, '1.0.1');
  } finally {
    await app.stop();
  }
});

example('should keep 1.x as the latest in the default example server, 1.0.1 in its description', async () => {
  const { startChild } = await import('./support/child-server.js');
  const app = await startChild(['examples/server.ts'], { BACKEND_URL: 'https://backend.example.test' });
  try {
    const res = await fetch(`${app.origin}/player/alice`);
    assert.is(res.headers.get('api-version'), '1.0');
    const doc = await (await fetch(`${app.origin}/swagger.json`)).json();
    assert.is(doc.info.version, '1.0.1');
    assert.is(doc.paths['/player/{id}'].get['x-amazon-apigateway-integration'].uri, 'https://backend.example.test/player/{id}');
  } finally {
    await app.stop();
  }
});

example.run();
