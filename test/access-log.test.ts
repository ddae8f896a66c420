import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { accessLogLevel, toNodeListener, withAccessLog } from '../src/adapters/node.js';
import { originOf } from './support/echo.js';
import { startChild } from './support/child-server.js';

// One JSON line per request: method, path, status, duration, bytes, the principal's id, never the token.
const log = suite('the access log');

async function serverLogging(level: 'info' | 'error' | 'silent') {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const lines: Record<string, unknown>[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = originOf(server);
  const service = createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens(['s3cret-token']) });
  server.on('request', withAccessLog(toNodeListener(service), { level, authenticate: service.config.authenticate, write: (l) => lines.push(JSON.parse(l)) }));
  const close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return { origin, lines, close };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

log('should write one line per request with the principal id and without the token', async () => {
  const { origin, lines, close } = await serverLogging('info');
  try {
    const res = await fetch(`${origin}/player/alice?x=1`, { headers: { Accept: 'application/hal+json' } });
    const body = await res.arrayBuffer();
    await fetch(`${origin}/player/alice`, { method: 'PATCH', headers: { Authorization: 'Bearer s3cret-token', 'Content-Type': 'application/merge-patch+json' }, body: '{"alias":"ali"}' }).then((r) => r.arrayBuffer());
    await fetch(`${origin}/player/alice`, { method: 'DELETE', headers: { Authorization: 'Bearer wrong' } }).then((r) => r.arrayBuffer());
    await settle();
    assert.is(lines.length, 3);
    const [read, write, refused] = lines;
    assert.equal([read!.method, read!.path, read!.status, read!.level, read!.msg], ['GET', '/player/alice?x=1', 200, 'info', 'request']);
    // The head and the body went out on the connection.
    assert.ok((read!.bytes as number) > body.byteLength && (read!.bytes as number) < body.byteLength + 2000, `bytes ${read!.bytes}`);
    assert.type(read!.durationMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(read!.time as string)));
    assert.is(read!.principal, undefined);
    assert.equal([write!.method, write!.status, write!.principal], ['PATCH', 200, 'token-1']);
    assert.equal([refused!.status, refused!.principal], [401, undefined]);
    assert.not.match(JSON.stringify(lines), 's3cret-token');
    assert.not.match(JSON.stringify(lines), 'wrong');
  } finally {
    await close();
  }
});

log('should write only 5xx at level error, and nothing when silent', async () => {
  for (const level of ['error', 'silent'] as const) {
    const { origin, lines, close } = await serverLogging(level);
    try {
      await fetch(`${origin}/player/alice`).then((r) => r.arrayBuffer());
      await settle();
      assert.is(lines.length, 0, level);
    } finally {
      await close();
    }
  }
  assert.equal(['warn', 'SILENT', undefined, 'debug'].map((l) => accessLogLevel({ LOG_LEVEL: l })), ['error', 'silent', 'info', 'info']);
});

log('should log from the example server (npm start) as JSON lines on standard output', async () => {
  const server = await startChild(['examples/server.ts'], { API_TOKEN: 'log-token' });
  try {
    await fetch(`${server.origin}/player/alice`, { headers: { Authorization: 'Bearer log-token' } }).then((r) => r.arrayBuffer());
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 40 && !line; i++) {
      line = server.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.path === '/player/alice');
      if (!line) await settle();
    }
    assert.ok(line, server.output());
    assert.equal([line!.status, line!.principal], [200, 'token-1']);
    assert.not.match(server.output().split('\n').filter((l) => l.startsWith('{')).join('\n'), 'log-token');
  } finally {
    await server.stop();
  }
});

log.run();
