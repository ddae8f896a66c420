import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Pool } from 'undici';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { assertProblem, eachServer } from '../support/hostile.js';
import { RawConnection } from '../support/raw-http.js';

// An answer written before the request body was read must not leave the connection waiting on that
// body: up to 256 KiB left are drained and the connection kept, more (or a chunked body) close it.
const unread = suite('answers written before the request body was read');
let servers: AdapterServer[] = [];
const AUTH: [string, string] = ['Authorization', `Bearer ${WRITE_TOKEN}`];
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

unread.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
unread.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

unread('should drain a 200 KB body after a 413 and answer the next request on the same connection', async () => {
  const outcomes = await eachServer(servers, { method: 'PUT', target: '/player/zed', headers: [AUTH, JSON_TYPE], body: Buffer.alloc(200_000, 'a') }, (a, label) =>
    assertProblem(a, 413, label),
  );
  assert.equal(outcomes, { node: 'reused', express: 'reused', fastify: 'reused' });
});

unread('should keep the connection after any answer decided before the body was read', async () => {
  const body = Buffer.alloc(200_000, 'a');
  const cases: [number, string, string, [string, string][]][] = [
    [401, 'PUT', '/player/zed', [JSON_TYPE]],
    [401, 'PUT', '/player/zed', [['Authorization', 'Bearer wrong'], JSON_TYPE]],
    [415, 'PUT', '/player/zed', [AUTH, ['Content-Type', 'text/plain']]],
    [404, 'PUT', '/nothing/here', [AUTH, JSON_TYPE]],
    [405, 'POST', '/player/alice', [AUTH, JSON_TYPE]],
    [400, 'PUT', '/player/bad%20id', [AUTH, JSON_TYPE]],
    [406, 'PUT', '/player/zed', [AUTH, JSON_TYPE, ['Accept', 'image/gif']]],
    [401, 'PUT', '/player/zed/avatar.png', [['Content-Type', 'image/png']]],
  ];
  for (const [status, method, target, headers] of cases) {
    const outcomes = await eachServer(servers, { method, target, headers, body }, (a, label) => assertProblem(a, status, label), `${method} ${target} (${status})`);
    assert.equal(outcomes, { node: 'reused', express: 'reused', fastify: 'reused' }, `${method} ${target}`);
  }
});

unread('should close the connection, saying so, when more than 256 KiB are left unread', async () => {
  const big = Buffer.alloc(2_000_000, 'a');
  const cases: [number, string, [string, string][]][] = [
    [413, '/player/zed', [AUTH, JSON_TYPE]],
    [401, '/player/zed/avatar.png', [['Content-Type', 'image/png']]],
  ];
  for (const [status, target, headers] of cases) {
    const outcomes = await eachServer(servers, { method: 'PUT', target, headers, body: big }, (a, label) => {
      assertProblem(a, status, label);
      assert.is(a.headers.connection, 'close', `${label}: Connection`);
    });
    assert.equal(outcomes, { node: 'closed', express: 'closed', fastify: 'closed' }, target);
  }
});

unread('should close the connection after a chunked body of unknown length was left unread', async () => {
  const chunk = 'a'.repeat(100_000);
  const chunked = Buffer.from(`${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`);
  // Streamed past the 64 KiB limit (413 while reading), and not read at all (401).
  for (const [status, headers] of [
    [413, [AUTH, JSON_TYPE, ['Transfer-Encoding', 'chunked']]],
    [401, [JSON_TYPE, ['Transfer-Encoding', 'chunked']]],
  ] as [number, [string, string][]][]) {
    const outcomes = await eachServer(servers, { method: 'PUT', target: '/player/zed', headers, body: chunked }, (a, label) => assertProblem(a, status, label));
    assert.equal(outcomes, { node: 'closed', express: 'closed', fastify: 'closed' }, String(status));
  }
});

unread('should close a connection whose unread rest stalls (drain bounded by 2 s)', async () => {
  await Promise.all(
    servers.map(async (s) => {
      const c = await RawConnection.open(s.origin);
      const put = c.format({ method: 'PUT', target: '/player/zed', headers: [AUTH, JSON_TYPE], body: Buffer.alloc(200_000, 'a') });
      // The head and 10 KB of the 200 KB announced, then nothing.
      c.send(put.subarray(0, put.indexOf('\r\n\r\n') + 4 + 10_000), 'PUT');
      assertProblem(await c.next(), 413, s.adapter);
      assert.ok(await c.closed(4000), `${s.adapter}: closed once the drain gave up`);
      c.close();
    }),
  );
});

unread('should answer a request sent in the same packet after a 413 (pipelined)', async () => {
  for (const s of servers) {
    const c = await RawConnection.open(s.origin);
    const put = c.format({ method: 'PUT', target: '/player/zed', headers: [AUTH, JSON_TYPE], body: Buffer.alloc(200_000, 'a') });
    const get = c.format({ method: 'GET', target: '/player/bob' });
    c.send(put, 'PUT');
    c.send(get, 'GET');
    assertProblem(await c.next(), 413, s.adapter);
    const bob = await c.next();
    assert.is(bob.status, 200, s.adapter);
    assert.is(JSON.parse(bob.body.toString()).playerId, 'bob', s.adapter);
    c.close();
  }
});

unread('should let undici reuse its connection after a drained 413 and recover after a closed one', async () => {
  for (const s of servers) {
    const pool = new Pool(s.origin, { connections: 1, pipelining: 1 });
    const put = (bytes: number) =>
      pool.request({ method: 'PUT', path: '/player/zed', headers: { authorization: `Bearer ${WRITE_TOKEN}`, 'content-type': 'application/json' }, body: Buffer.alloc(bytes, 'a') });
    const get = async () => {
      const res = await pool.request({ method: 'GET', path: '/player/alice' });
      assert.is(res.statusCode, 200, s.adapter);
      await res.body.text();
    };
    const drained = await put(200_000);
    assert.is(drained.statusCode, 413, s.adapter);
    assert.is(JSON.parse(await drained.body.text()).status, 413, s.adapter);
    await get();
    const closed = await put(2_000_000);
    assert.is(closed.statusCode, 413, s.adapter);
    assert.is(closed.headers.connection, 'close', s.adapter);
    await closed.body.text();
    await get();
    const missing = await pool.request({ method: 'GET', path: '/player/zed' });
    assert.is(missing.statusCode, 404, s.adapter);
    await missing.body.text();
    await pool.close();
  }
});

unread.run();
