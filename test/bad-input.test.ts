import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens } from '../src/index.js';
import { demoService } from './support/service.js';

// A corpus of malformed or hostile requests, each of which must be a clear 4xx (never a 5xx or a hang),
// and none of which may change anything.
const bad = suite('malformed and hostile requests');
const AUTH = { Authorization: 'Bearer t0ken' };
const JSON_BODY = { ...AUTH, 'Content-Type': 'application/json' };

const cases: Array<[string, string, RequestInit]> = [
  ['GET', '/player/%', {}],
  ['GET', '/player/%C0%AF', {}],
  ['GET', '/player/..%2F..%2Fetc', {}],
  ['GET', '/player/alice/friends?page=%00', {}],
  ['GET', '/player/alice/friends?page=9999999999999999999999', {}],
  ['GET', '/player/alice?include=__proto__', { headers: { Accept: 'application/vnd.api+json' } }],
  ['GET', '/player/alice?fields[players]=constructor', { headers: { Accept: 'application/vnd.api+json' } }],
  ['GET', '/player/alice', { headers: { 'Api-Version': 'banana' } }],
  ['GET', '/api/v99/player/alice', {}],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: '{"alias":' }],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: '[1,2,3]' }],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: '{"__proto__":{"admin":true},"alias":"x"}' }],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: '{"alias":"x","constructor":{"prototype":{"y":1}}}' }],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: '['.repeat(5000) + ']'.repeat(5000) }],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }],
  ['PUT', '/player/alice', { headers: { ...AUTH, 'Content-Type': 'text/plain' }, body: 'alias=x' }],
  ['PUT', '/player/alice', { headers: JSON_BODY, body: JSON.stringify({ alias: 'x'.repeat(70_000) }) }],
  ['PATCH', '/player/alice', { headers: { ...AUTH, 'Content-Type': 'application/json-patch+json' }, body: '{"op":"add"}' }],
  ['PATCH', '/player/alice', { headers: { ...AUTH, 'Content-Type': 'application/json-patch+json' }, body: '[{"op":"add","path":"/__proto__/x","value":1}]' }],
  ['PATCH', '/player/alice', { headers: { ...AUTH, 'Content-Type': 'application/json-patch+json' }, body: '[{"op":"evil","path":"/alias"}]' }],
  ['POST', '/player/alice/friends', { headers: JSON_BODY, body: '{"name":123}' }],
  ['POST', '/player/alice/friends', { headers: JSON_BODY, body: '{"playerId":"alice"}' }],
  ['POST', '/player/alice/friends', { headers: { ...AUTH, 'Content-Type': 'application/vnd.api+json' }, body: '{"data":null}' }],
  ['POST', '/player/alice/friends', { headers: { ...AUTH, 'Content-Type': 'application/ld+json' }, body: '{"@context":"https://evil.example/ctx","name":"x"}' }],
  ['POST', '/player/alice/friends', { headers: { ...AUTH, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'name=%ZZ&alternateName=' }],
  ['POST', '/player/alice/friends', { headers: { 'Content-Type': 'application/json' }, body: '{"alternateName":"anon"}' }],
  ['PUT', '/player/alice/avatar.png', { headers: { ...AUTH, 'Content-Type': 'image/png' }, body: new Uint8Array([1, 2, 3]) }],
  ['DELETE', '/player/alice/friends/nobody', { headers: AUTH }],
  ['BREW', '/player/alice', {}],
];

bad('should answer every malformed request with a 4xx problem and change nothing', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['t0ken']) });
  const before = await Promise.all(['/player/alice', '/player/alice/friends?page=4'].map(async (p) => (await call(p)).headers.get('etag')));
  for (const [method, path, init] of cases) {
    const res = await call(path, { ...init, method });
    const label = `${method} ${path} ${typeof init.body === 'string' ? init.body.slice(0, 40) : ''}`;
    // A method the server does not recognize is 501 (RFC 9110 section 15.6.2), a problem like the 4xx.
    const expected = method === 'BREW' ? res.status === 501 : res.status >= 400 && res.status < 500;
    assert.ok(expected, `${label} answered ${res.status}`);
    const type = res.headers.get('content-type') ?? '';
    assert.ok(/problem\+json|vnd\.api\+json/.test(type), `${label} answered ${type}`);
    await res.arrayBuffer();
  }
  const after = await Promise.all(['/player/alice', '/player/alice/friends?page=4'].map(async (p) => (await call(p)).headers.get('etag')));
  assert.equal(after, before);
  assert.is(({} as Record<string, unknown>).admin, undefined);
  assert.is(({} as Record<string, unknown>).y, undefined);
});

bad('should tolerate malformed optional headers and answer as if they were absent', async () => {
  const { call } = await demoService();
  const tolerated: RequestInit[] = [
    { headers: { 'If-None-Match': '"unterminated', 'If-Modified-Since': 'yesterday' } },
    { headers: { 'If-Modified-Since': 'Thu, 31 Feb 2026 99:99:99 GMT' } },
  ];
  for (const init of tolerated) {
    const res = await call('/player/alice', init);
    assert.is(res.status, 200, JSON.stringify(init.headers));
    assert.is((await res.json()).playerId, 'alice');
  }
});

bad.run();
