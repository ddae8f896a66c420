// An answer decided from the head of a large upload (401, 413) reaches clients that write their whole
// body before they read: the close after it lingers instead of resetting. 100 Continue is sent only
// when the body is wanted.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, MemoryPlayerStore, seedDemoData, bearerTokens } from '../../src/index.js';
import { createNodeServer, toNodeListener } from '../../src/adapters/node.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { RawConnection } from '../support/raw-http.js';

const early = suite('early answers to large uploads');
let servers: AdapterServer[] = [];
const PYTHON = spawnSync('python3', ['--version']).status === 0;
if (!PYTHON) console.log('note: the Python client part of the early-answers test skipped: python3 is not installed');

early.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
early.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * Python's http.client: it sends the whole body, then reads the answer (what curl does not: curl
 * stops sending when an answer arrives). Prints one line per request: the status, or the error.
 */
const PYTHON_CLIENT = `
import http.client, sys
port, auth = int(sys.argv[1]), sys.argv[2]
for size in (2, 5, 20, 5, 2):
    try:
        c = http.client.HTTPConnection('127.0.0.1', port, timeout=20)
        headers = {'Content-Type': 'application/json'}
        if auth != '-': headers['Authorization'] = 'Bearer ' + auth
        c.request('PUT', '/player/zed', body=b'a' * (size * 1024 * 1024), headers=headers)
        r = c.getresponse()
        body = r.read()
        print(r.status, r.getheader('Content-Type'), len(body))
    except Exception as e:
        print('error', repr(e))
`;

const withPython = PYTHON ? early : early.skip;

withPython('should give a client that writes 2-20 MB before reading its 401 or 413, not a broken pipe (Python http.client)', async () => {
  for (const s of servers) {
    const port = new URL(s.origin).port;
    for (const [auth, status] of [['-', '401'], [WRITE_TOKEN, '413']] as const) {
      // Not spawnSync: the servers answer from this process's event loop.
      const run = await promisify(execFile)('python3', ['-c', PYTHON_CLIENT, port, auth], { encoding: 'utf8', timeout: 60_000 });
      const lines = run.stdout.trim().split('\n');
      assert.is(lines.length, 5, `${s.adapter}: ${run.stdout}${run.stderr}`);
      for (const line of lines) assert.match(line, new RegExp(`^${status} application/problem\\+json \\d+$`), `${s.adapter} (${status}): ${line}`);
    }
  }
});

early('should give Node fetch the 413 of a 2-20 MB upload every time', async () => {
  for (const s of servers) {
    for (let i = 0; i < 9; i++) {
      const size = [2, 5, 20][i % 3]! * 1024 * 1024;
      const res = await fetch(`${s.origin}/player/zed`, {
        method: 'PUT',
        body: new Uint8Array(size),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${WRITE_TOKEN}` },
      });
      assert.is(res.status, 413, s.adapter);
      assert.is((await res.json()).status, 413);
    }
  }
});

early('should send 100 Continue only when the body is read: an early 401 or 413 is the only answer, and says Connection: close', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const server = createNodeServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens([WRITE_TOKEN]) })));
  try {
    const expect: [string, string] = ['Expect', '100-continue'];
    const json: [string, string] = ['Content-Type', 'application/json'];
    const auth: [string, string] = ['Authorization', `Bearer ${WRITE_TOKEN}`];
    for (const [headers, length, status] of [
      [[expect, json], 1000, 401],
      [[expect, json, auth], 10_000_000, 413],
    ] as [[string, string][], number, number][]) {
      const c = await RawConnection.open(origin);
      c.send(c.format({ method: 'PUT', target: '/player/zed', headers: [...headers, ['Content-Length', String(length)]] }), 'PUT');
      const first = await c.next();
      assert.is(first.status, status, 'the final answer');
      assert.equal(c.interim, [], 'no 100 Continue before it');
      assert.is(first.headers.connection, 'close');
      assert.ok(await c.closed(), 'the connection closes: the client may send the body or not');
      c.close();
    }
    // A request whose body is wanted gets its 100, then its answer, and keeps its connection.
    const c = await RawConnection.open(origin);
    const body = JSON.stringify({ alias: 'zed' });
    c.send(c.format({ method: 'PUT', target: '/player/zed', headers: [expect, json, auth, ['Content-Length', String(Buffer.byteLength(body))]] }), 'PUT');
    assert.ok(await c.until(() => c.interim.includes(100)), 'a 100 Continue once the service reads the body');
    c.send(body);
    const done = await c.next();
    assert.is(done.status, 201);
    assert.is((await c.request({ method: 'GET', target: '/player/zed' })).status, 200, 'kept alive');
    c.close();
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

early.run();
