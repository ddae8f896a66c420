import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from '../support/adapter-servers.js';
import { stateOf } from '../support/hostile.js';
import { RawConnection } from '../support/raw-http.js';

// A client that goes away mid-request is a disconnect, not a server failure: nothing is logged as an
// unexpected error, nothing is written, and the server goes on answering others.
const disconnect = suite('clients that go away mid-request');
let servers: AdapterServer[] = [];
const BODY = JSON.stringify({ alias: 'zed', displayName: 'Zed Zebra' });
const HEAD = `Host: x\r\nAuthorization: Bearer ${WRITE_TOKEN}\r\nContent-Type: application/json\r\n`;

disconnect.before(async () => {
  servers = await startAdapterServers(['node', 'express', 'fastify']);
});
disconnect.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Sends `bytes` on a new connection, waits `ms`, then closes it (a reset when `reset`). */
async function sendAndLeave(origin: string, bytes: string, ms: number): Promise<void> {
  const c = await RawConnection.open(origin);
  c.send(bytes);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  c.close();
}

const ABORTS: Record<string, string> = {
  'mid-body (Content-Length)': `PUT /player/zed HTTP/1.1\r\n${HEAD}Content-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 12)}`,
  'mid-body (chunked)': `PUT /player/zed HTTP/1.1\r\n${HEAD}Transfer-Encoding: chunked\r\n\r\n8\r\n${BODY.slice(0, 8)}\r\n`,
  'mid-body of an avatar upload': `PUT /player/alice/avatar.png HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${WRITE_TOKEN}\r\nContent-Type: image/png\r\nContent-Length: 5000\r\n\r\n\x89PNG\r\n\x1a\n`,
  'after the head of a POST': `POST /player/alice/friends HTTP/1.1\r\n${HEAD}Content-Length: 40\r\n\r\n`,
  'before the answer to a GET': 'GET /player/alice/friends?page=2 HTTP/1.1\r\nHost: x\r\nAccept: application/vnd.api+json\r\n\r\n',
};

disconnect('should log no unexpected error and write nothing when the client leaves', async () => {
  for (const s of servers) {
    const before = await stateOf(s.origin);
    const avatarBefore = await s.store.getAvatar('alice');
    const logged: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void logged.push(args);
    try {
      for (const [name, bytes] of Object.entries(ABORTS)) {
        // Leaving at once, and after the server has had time to start reading.
        await sendAndLeave(s.origin, bytes, 0);
        await sendAndLeave(s.origin, bytes, 50);
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(logged, [], `${s.adapter} ${name}: logged ${String(logged[0]?.[0])}`);
      }
    } finally {
      console.error = original;
    }
    assert.equal(await stateOf(s.origin), before, s.adapter);
    assert.is(await s.store.getPlayer('zed'), undefined, s.adapter);
    assert.equal(await s.store.getAvatar('alice'), avatarBefore, s.adapter);
    // Still answering on a new connection.
    const c = await RawConnection.open(s.origin);
    assert.is((await c.request({ method: 'GET', target: '/player/alice' })).status, 200, s.adapter);
    c.close();
  }
});

disconnect.run();
