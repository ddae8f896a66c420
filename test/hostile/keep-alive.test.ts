import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Pool } from 'undici';
import { startAdapterServers, type AdapterServer } from '../support/adapter-servers.js';
import { RawConnection } from '../support/raw-http.js';

const keepAlive = suite('keep-alive connections through every Node adapter');
let servers: AdapterServer[] = [];

keepAlive.before(async () => {
  servers = await startAdapterServers();
});
keepAlive.after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

keepAlive('should answer several requests in turn on one raw connection', async () => {
  for (const s of servers) {
    const c = await RawConnection.open(s.origin);
    const player = await c.request({ method: 'GET', target: '/player/alice' });
    assert.is(player.status, 200, s.adapter);
    assert.is(JSON.parse(player.body.toString()).playerId, 'alice', s.adapter);
    const head = await c.request({ method: 'HEAD', target: '/player/alice' });
    assert.is(head.status, 200, s.adapter);
    assert.is(head.body.length, 0, s.adapter);
    const missing = await c.request({ method: 'GET', target: '/player/nobody' });
    assert.is(missing.status, 404, s.adapter);
    const page = await c.request({ method: 'GET', target: '/player/alice/friends?page=2' });
    assert.is(JSON.parse(page.body.toString()).length, 10, s.adapter);
    c.close();
  }
});

keepAlive('should reuse one undici connection for a series of requests', async () => {
  for (const s of servers) {
    const pool = new Pool(s.origin, { connections: 1, pipelining: 1 });
    for (let i = 0; i < 5; i++) {
      const res = await pool.request({ method: 'GET', path: '/player/alice', headers: { accept: 'application/hal+json' } });
      assert.is(res.statusCode, 200, s.adapter);
      await res.body.text();
    }
    // undici reports the connection count it opened: one, reused.
    assert.is(pool.stats.connected, 1, s.adapter);
    await pool.close();
  }
});

keepAlive.run();
