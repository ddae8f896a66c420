import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { forwardedBaseUrl, forwardedClient, parseForwarded, readForwarded, resolveTrustProxy, trustProxyOptionFromEnv } from '../src/core/http/forwarded.js';
import { BASE, demoService } from './support/service.js';

const parse = suite('parseForwarded (RFC 7239 section 4)');

parse('should read the first element, case-insensitive names, quoted values', () => {
  assert.equal(parseForwarded('For="[2001:db8:cafe::17]:4711";Proto=https;host="api.example.com:8443", for=10.0.0.1;proto=http'), {
    for: '[2001:db8:cafe::17]:4711',
    proto: 'https',
    host: 'api.example.com:8443',
  });
});

parse('should keep commas and semicolons inside quoted strings', () => {
  assert.equal(parseForwarded('host="a.test";by="x,y;z"'), { host: 'a.test', by: 'x,y;z' });
});

parse('should refuse a parameter twice, a bad token and an open quote with 400', () => {
  for (const bad of ['proto=http;proto=https', 'host=a b', 'host="a.test', 'ho st=a']) {
    try {
      parseForwarded(bad);
      assert.unreachable(bad);
    } catch (error) {
      assert.is((error as { status?: number }).status, 400, bad);
    }
  }
});

parse.run();

const read = suite('readForwarded');

read('should read only the family the deployment trusts: a client-sent Forwarded is ignored behind an X-Forwarded proxy, and the reverse', () => {
  const h = new Headers({ Forwarded: 'proto=https;host=evil.test', 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'b.test' });
  assert.equal(readForwarded(h, 'x-forwarded'), { proto: 'http', host: 'b.test' });
  assert.equal(readForwarded(h, 'forwarded'), { proto: 'https', host: 'evil.test' });
});

read('should find the client address the trusted hops report, never an element the client wrote', () => {
  const xff = new Headers({ 'X-Forwarded-For': '6.6.6.6, 203.0.113.7, 10.0.0.2', Forwarded: 'for=9.9.9.9' });
  assert.is(forwardedClient(xff, { fields: 'x-forwarded', hops: 1 }), '10.0.0.2');
  assert.is(forwardedClient(xff, { fields: 'x-forwarded', hops: 2 }), '203.0.113.7');
  assert.is(forwardedClient(new Headers({ 'X-Forwarded-For': '203.0.113.7' }), { fields: 'x-forwarded', hops: 3 }), '203.0.113.7', 'fewer elements than hops: the first');
  const rfc = new Headers({ Forwarded: 'for=6.6.6.6, for="[2001:db8::1]:80";proto=https', 'X-Forwarded-For': '9.9.9.9' });
  assert.is(forwardedClient(rfc, { fields: 'forwarded', hops: 1 }), '"[2001:db8::1]:80"');
  assert.is(forwardedClient(rfc, { fields: 'forwarded', hops: 2 }), '6.6.6.6');
  assert.is(forwardedClient(new Headers(), { fields: 'forwarded', hops: 1 }), undefined);
});

read('should read TRUST_PROXY: 1, a family with hops, or off', () => {
  assert.is(trustProxyOptionFromEnv({}), false);
  assert.is(trustProxyOptionFromEnv({ TRUST_PROXY: '0' }), false);
  assert.is(trustProxyOptionFromEnv({ TRUST_PROXY: '1' }), true);
  assert.equal(trustProxyOptionFromEnv({ TRUST_PROXY: 'X-Forwarded:2' }), { fields: 'x-forwarded', hops: 2 });
  assert.equal(trustProxyOptionFromEnv({ TRUST_PROXY: 'forwarded' }), { fields: 'forwarded', hops: 1 });
  assert.throws(() => trustProxyOptionFromEnv({ TRUST_PROXY: 'yes' }), TypeError);
});

read('should refuse a trustProxy option that names no family or a bad hop count', () => {
  assert.equal(resolveTrustProxy(true), { fields: 'x-forwarded', hops: 1 });
  assert.is(resolveTrustProxy(false), false);
  assert.equal(resolveTrustProxy({ fields: 'forwarded', hops: 2 }), { fields: 'forwarded', hops: 2 });
  for (const bad of [{ fields: 'both' }, { fields: 'forwarded', hops: 0 }, { fields: 'x-forwarded', hops: 1.5 }, 'yes']) {
    assert.throws(() => resolveTrustProxy(bad as never), TypeError, JSON.stringify(bad));
  }
});

read('should take the first, client-side entry of a list', () => {
  const h = new Headers({ 'X-Forwarded-Host': 'front.test, inner.test', 'X-Forwarded-Proto': 'https,http' });
  assert.equal(readForwarded(h), { proto: 'https', host: 'front.test' });
});

read('should refuse hosts, schemes and prefixes that are not what they claim', () => {
  const cases: Record<string, string>[] = [
    { 'X-Forwarded-Host': 'evil.test/path' },
    { 'X-Forwarded-Host': 'a.test:99999' },
    { 'X-Forwarded-Host': 'a.test@b.test' },
    { 'X-Forwarded-Host': '<script>' },
    { 'X-Forwarded-Proto': 'javascript' },
    { 'X-Forwarded-Prefix': 'games' },
    { 'X-Forwarded-Prefix': '/games/../admin' },
    { 'X-Forwarded-Prefix': '/games?x=1' },
  ];
  for (const headers of cases) {
    try {
      readForwarded(new Headers(headers));
      assert.unreachable(JSON.stringify(headers));
    } catch (error) {
      assert.is((error as { status?: number }).status, 400, JSON.stringify(headers));
    }
  }
});

read.run();

const base = suite('forwardedBaseUrl');

base('should put the gateway scheme, host and prefix before the configured path', () => {
  const h = new Headers({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'games.example.com', 'X-Forwarded-Prefix': '/games/' });
  assert.is(forwardedBaseUrl(h, 'http://10.0.0.5:3000/api'), 'https://games.example.com/games/api');
});

base('should keep the configured host and port when only the scheme is forwarded, and drop default ports', () => {
  assert.is(forwardedBaseUrl(new Headers({ 'X-Forwarded-Proto': 'https' }), 'http://10.0.0.5:3000'), 'https://10.0.0.5:3000');
  assert.is(forwardedBaseUrl(new Headers({ Forwarded: 'proto=https;host=a.test:443' }), 'http://x.test', 'forwarded'), 'https://a.test');
});

base('should return the configured base when no header is present', () => {
  assert.is(forwardedBaseUrl(new Headers(), 'http://x.test/api'), 'http://x.test/api');
});

base.run();

const service = suite('trustProxy in the service');
const gateway = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'games.example.com', 'X-Forwarded-Prefix': '/edge' };

service('should ignore forwarding headers by default', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice', { headers: gateway });
  assert.is((await res.json()).profilePhotoUrl, `${BASE}/player/alice/avatar.png`);
  const bad = await call('/player/alice', { headers: { 'X-Forwarded-Host': 'not a host' } });
  assert.is(bad.status, 200);
});

service('should build every link from the gateway headers when on', async () => {
  const { call } = await demoService({ trustProxy: true });
  const player = await (await call('/player/alice', { headers: gateway })).json();
  assert.is(player.profilePhotoUrl, 'https://games.example.com/edge/player/alice/avatar.png');
  const page = await call('/player/alice/friends?page=1', { headers: gateway });
  assert.match(page.headers.get('link')!, '<https://games.example.com/edge/player/alice/friends?page=2>; rel="next"');
  const spoofed = await (await call('/player/alice', { headers: { Forwarded: 'for=192.0.2.1;proto=http;host=lan.test:8080' } })).json();
  assert.is(spoofed.profilePhotoUrl, `${BASE}/player/alice/avatar.png`, 'true trusts X-Forwarded-* only: a client-sent Forwarded is ignored');
  const rfc7239 = await demoService({ trustProxy: { fields: 'forwarded' } });
  const rfc = await (await rfc7239.call('/player/alice', { headers: { Forwarded: 'for=192.0.2.1;proto=http;host=lan.test:8080' } })).json();
  assert.is(rfc.profilePhotoUrl, 'http://lan.test:8080/player/alice/avatar.png');
});

service('should change the ETag with the base URL of the links', async () => {
  const { call } = await demoService({ trustProxy: true });
  const direct = await call('/player/alice');
  const proxied = await call('/player/alice', { headers: gateway });
  assert.is.not(direct.headers.get('etag'), proxied.headers.get('etag'));
  const page = await call('/player/alice/friends', { headers: gateway });
  const pageDirect = await call('/player/alice/friends');
  assert.is.not(page.headers.get('etag'), pageDirect.headers.get('etag'));
  // The ETag of one base does not revalidate the other.
  const cross = await call('/player/alice', { headers: { ...gateway, 'If-None-Match': direct.headers.get('etag')! } });
  assert.is(cross.status, 200);
  const same = await call('/player/alice', { headers: { ...gateway, 'If-None-Match': proxied.headers.get('etag')! } });
  assert.is(same.status, 304);
});

service('should answer 400 problem+json for a malformed forwarding header when on', async () => {
  const { call } = await demoService({ trustProxy: true });
  const res = await call('/player/alice', { headers: { 'X-Forwarded-Host': 'evil.test/<x>' } });
  assert.is(res.status, 400);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  assert.match((await res.json()).detail, 'X-Forwarded-Host');
});

service.run();
