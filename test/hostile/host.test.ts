import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { assertProblem, eachServer } from '../support/hostile.js';
import { RawConnection } from '../support/raw-http.js';

// The URL's path and query come from the request target alone; Host must be `uri-host [":" port]`
// (RFC 9110 section 7.2), else 400 (RFC 9112 section 3.2). Routing never depends on Host.
const host = suite('the Host header field');
let servers: AdapterServer[] = [];
const AUTH: [string, string] = ['Authorization', `Bearer ${WRITE_TOKEN}`];

host.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
host.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const INVALID = [
  '127.0.0.1:3000/player/bob?',
  '127.0.0.1:3000/player/bob#',
  'evil.example/player/bob',
  'user@evil.example',
  'evil.example\\player\\bob',
  'a b',
  'a:b:c',
  'a:80x',
  '[::1',
  'a?b',
  '<script>',
];

host('should answer a Host that is not host[:port] 400 with a problem, whatever the method', async () => {
  for (const value of INVALID) {
    await eachServer(servers, { method: 'GET', target: '/player/alice', headers: [['Host', value]] }, (a, label) => {
      const problem = assertProblem(a, 400, label);
      assert.match(String(problem.detail), /Host/, label);
    }, `GET Host "${value}"`);
  }
  // A PUT must not create the player named in the Host (nothing changes: /player/zed stays 404).
  const put = { method: 'PUT', target: '/player/alice', headers: [['Host', '127.0.0.1:3000/player/zed?'], AUTH, ['Content-Type', 'application/json']] as [string, string][], body: '{"alias":"zed"}' };
  await eachServer(servers, put, (a, label) => assertProblem(a, 400, label));
});

host('should answer two Host lines 400', async () => {
  await eachServer(servers, { method: 'GET', target: '/player/alice', headers: [['Host', 'a.example'], ['Host', 'b.example']] }, (a, label) => assertProblem(a, 400, label));
});

host('should serve the target path whatever valid Host comes with it', async () => {
  for (const value of ['api.example.com', 'api.example.com:8080', '127.0.0.1', '[::1]:3000', 'xn--bcher-kva.example', '']) {
    await eachServer(servers, { method: 'GET', target: '/player/bob', headers: [['Host', value]] }, (a, label) => {
      assert.is(a.status, 200, label);
      assert.is(JSON.parse(a.body.toString()).playerId, 'bob', label);
    }, `GET /player/bob Host "${value}"`);
  }
});

host('should take the path of an absolute-form target, not of Host (RFC 9112 section 3.2.2)', async () => {
  for (const s of servers) {
    const c = await RawConnection.open(s.origin);
    const a = await c.request({ method: 'GET', target: 'http://other.example/player/bob?x=1', headers: [['Host', 'api.example.com']] });
    assert.is(a.status, 200, s.adapter);
    assert.is(JSON.parse(a.body.toString()).playerId, 'bob', s.adapter);
    // Links are built from the configured base URL, never from the request's authority.
    assert.ok(JSON.parse(a.body.toString()).profilePhotoUrl.startsWith(s.origin), s.adapter);
    c.close();
  }
});

host('should answer a target that is neither origin-form nor absolute http(s) 400', async () => {
  for (const target of ['ftp://other.example/player/bob', 'ws://other.example/player/bob']) {
    await eachServer(servers, { method: 'GET', target }, (a, label) => assertProblem(a, 400, label));
  }
});

host.run();
