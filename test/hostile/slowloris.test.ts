import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { createNodeServer, toNodeListener } from '../../src/adapters/node.js';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../../src/index.js';
import { originOf } from '../support/echo.js';
import { RawConnection } from '../support/raw-http.js';

// Slow clients (headers trickled a line at a time: slowloris) cannot hold a server made by
// createNodeServer: others are answered while they are open, and they are cut after the headers timeout.
const slowloris = suite('slowloris against createNodeServer');
const SLOW = 3000;
const HEADERS_TIMEOUT_MS = 3000;
let server: Server;
let origin = '';

slowloris.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createNodeServer(toNodeListener(createPlayerService({ baseUrl: 'http://127.0.0.1', store })), {
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: 2 * HEADERS_TIMEOUT_MS,
  });
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, resolve));
  origin = originOf(server);
});
slowloris.after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Slow {
  socket: Socket;
  received: string;
  closedAt: number | undefined;
}

/** Opens `count` connections, each sending a request line and a first header, in batches. */
async function openSlow(count: number): Promise<Slow[]> {
  const { port } = new URL(origin);
  const slow: Slow[] = [];
  for (let i = 0; i < count; i += 250) {
    const batch = Array.from({ length: Math.min(250, count - i) }, () => {
      return new Promise<Slow>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write('GET /player/alice HTTP/1.1\r\nHost: 127.0.0.1\r\n');
          resolve(s);
        });
        const s: Slow = { socket, received: '', closedAt: undefined };
        socket.setEncoding('latin1');
        socket.on('data', (d: string) => (s.received += d));
        socket.on('close', () => (s.closedAt = Date.now()));
        socket.on('error', () => undefined);
        socket.once('error', reject);
      });
    });
    slow.push(...(await Promise.all(batch)));
  }
  return slow;
}

slowloris(`should answer a GET promptly while ${SLOW} slow connections are open, and cut them after the headers timeout`, async () => {
  const started = Date.now();
  const slow = await openSlow(SLOW);
  // Trickle: one more header line on every slow connection every 500 ms (never the blank line).
  const trickle = setInterval(() => {
    for (const s of slow) if (s.closedAt === undefined) s.socket.write('X-Slow: 1\r\n');
  }, 500);
  try {
    assert.is(slow.filter((s) => s.closedAt !== undefined).length, 0, 'all slow connections are open');
    // Others are answered while the slow connections are open (RawConnection rejects after 2 s).
    for (let i = 0; i < 3; i++) {
      const c = await RawConnection.open(origin);
      const answer = await c.request({ method: 'GET', target: '/player/alice' });
      assert.is(answer.status, 200);
      assert.is(JSON.parse(answer.body.toString()).playerId, 'alice');
      c.close();
    }
    assert.ok(slow.filter((s) => s.closedAt === undefined).length > SLOW * 0.9, 'still open while the others were answered');
    // Every slow connection is cut within the headers timeout (plus the check interval and the time
    // it took to open them all), with a 408 problem.
    const deadline = started + HEADERS_TIMEOUT_MS + (Date.now() - started) + 3000;
    while (slow.some((s) => s.closedAt === undefined) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const open = slow.filter((s) => s.closedAt === undefined).length;
    assert.is(open, 0, `${open} slow connections still open`);
    const answered = slow.filter((s) => s.received.startsWith('HTTP/1.1 408 Request Timeout\r\n')).length;
    assert.ok(answered > SLOW * 0.9, `${answered} of ${SLOW} got a 408`);
    assert.match(slow.find((s) => s.received)!.received, /application\/problem\+json[\s\S]*"status":408/);
  } finally {
    clearInterval(trickle);
    for (const s of slow) s.socket.destroy();
  }
});

slowloris.run();
