import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { createNodeServer, DEFAULT_NODE_SERVER_OPTIONS, nodeServerOptionsFromEnv, toNodeListener } from '../src/adapters/node.js';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { originOf } from './support/echo.js';
import { assertProblem } from './support/hostile.js';
import { RawConnection } from './support/raw-http.js';

const nodeServer = suite('createNodeServer: a node:http server with limits');

async function start(options: Parameters<typeof createNodeServer>[1] = {}): Promise<Server> {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const server = createNodeServer(toNodeListener(createPlayerService({ baseUrl: 'http://127.0.0.1', store })), options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

nodeServer('should apply the documented defaults instead of Node\'s', async () => {
  const server = await start();
  try {
    assert.is(server.headersTimeout, 10_000);
    assert.is(server.requestTimeout, 30_000);
    assert.is(server.keepAliveTimeout, 5_000);
    assert.is(server.maxConnections, 10_000);
    assert.equal({ ...DEFAULT_NODE_SERVER_OPTIONS }, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000, maxConnections: 10_000 });
    const c = await RawConnection.open(originOf(server));
    const answer = await c.request({ method: 'GET', target: '/player/alice' });
    assert.is(answer.status, 200);
    assert.is(answer.headers['keep-alive'], 'timeout=5');
    c.close();
  } finally {
    await stop(server);
  }
});

nodeServer('should refuse options that are not positive integers, or a request timeout under the headers timeout', () => {
  assert.throws(() => createNodeServer(undefined, { headersTimeoutMs: 0 }), /headersTimeoutMs must be a positive integer/);
  assert.throws(() => createNodeServer(undefined, { maxConnections: 1.5 }), /maxConnections/);
  assert.throws(() => createNodeServer(undefined, { headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 }), /requestTimeoutMs must not be shorter/);
});

nodeServer('should read the options from the environment', () => {
  assert.equal(nodeServerOptionsFromEnv({}), {});
  assert.equal(nodeServerOptionsFromEnv({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '4000', KEEP_ALIVE_TIMEOUT_MS: '', MAX_CONNECTIONS: '50' }), {
    headersTimeoutMs: 2000,
    requestTimeoutMs: 4000,
    maxConnections: 50,
  });
  assert.throws(() => nodeServerOptionsFromEnv({ KEEP_ALIVE_TIMEOUT_MS: '5s' }), /KEEP_ALIVE_TIMEOUT_MS "5s" is not a positive integer/);
  assert.throws(() => nodeServerOptionsFromEnv({ MAX_CONNECTIONS: '0' }), /MAX_CONNECTIONS/);
});

nodeServer('should answer requests Node cannot read with a problem and close the connection', async () => {
  const server = await start();
  try {
    const cases: [number, string][] = [
      [400, 'BREW /player/alice HTTP/1.1\r\nHost: x\r\n\r\n'],
      [400, 'GET player/alice HTTP/1.1\r\nHost: x\r\n\r\n'],
      [400, 'GET /player/alice HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'],
      [431, `GET /player/alice HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      [501, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
    ];
    for (const [status, bytes] of cases) {
      const c = await RawConnection.open(originOf(server));
      c.send(bytes, 'GET');
      const answer = await c.next();
      assertProblem(answer, status, bytes.slice(0, 30));
      assert.is(answer.headers.connection, 'close');
      assert.ok(await c.closed(), bytes.slice(0, 30));
      c.close();
    }
  } finally {
    await stop(server);
  }
});

nodeServer('should close connections over maxConnections at once and serve again below it', async () => {
  const server = await start({ maxConnections: 5 });
  try {
    const held = await Promise.all(Array.from({ length: 5 }, () => RawConnection.open(originOf(server))));
    // Node counts a connection once it is accepted: give the last ones a moment to be.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const over = connect(Number(new URL(originOf(server)).port), '127.0.0.1');
    over.on('error', () => undefined);
    const closed = await new Promise<boolean>((resolve) => {
      over.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 2000);
    });
    assert.ok(closed, 'the connection over the cap is closed');
    for (const c of held) c.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const c = await RawConnection.open(originOf(server));
    assert.is((await c.request({ method: 'GET', target: '/player/alice' })).status, 200);
    c.close();
  } finally {
    await stop(server);
  }
});

nodeServer.run();
