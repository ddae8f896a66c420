import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAdapterServers, WRITE_TOKEN } from '../support/adapter-servers.js';
import { assertProblem, eachServer } from '../support/hostile.js';
import { RawConnection } from '../support/raw-http.js';

// Answers a shared cache could store under the wrong key: a 308 whose Location comes from forwarding
// fields, a 401 decided by Authorization; and images a browser could sniff as something else.
const cacheKeys = suite('what caches and browsers may do with an answer');
const DAY = 86_400_000;
const vary = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim().toLowerCase());

cacheKeys('should not let a cache keep a sunset 308 whose Location came from forwarding fields', async () => {
  const versions = [
    { major: 1, minor: 0, patch: 1, status: 'deprecated' as const, deprecatedAt: Date.now() - 400 * DAY, sunsetAt: Date.now() - DAY },
    { major: 2, minor: 0, patch: 0 },
  ];
  const proxied = await startAdapterServers(['node', 'express', 'fastify'], { versions, trustProxy: true });
  const direct = await startAdapterServers(['node'], { versions });
  try {
    await eachServer(proxied, { method: 'GET', target: '/api/v1/player/alice?x=1', headers: [['X-Forwarded-Host', 'edge.example'], ['X-Forwarded-Proto', 'https']] }, (a, label) => {
      assert.is(a.status, 308, label);
      assert.is(a.headers.location, 'https://edge.example/player/alice?x=1', label);
      assert.is(a.headers['cache-control'], 'no-store', label);
    });
    // Without trustProxy the Location depends on the URL alone: the 308 stays cacheable.
    await eachServer(direct, { method: 'GET', target: '/api/v1/player/alice' }, (a, label) => {
      assert.is(a.status, 308, label);
      assert.is(a.headers['cache-control'], undefined, label);
    });
  } finally {
    await Promise.all([...proxied, ...direct].map((s) => s.close()));
  }
});

cacheKeys('should say Vary: Authorization (with Accept and Api-Version) on a 401', async () => {
  const servers = await startAdapterServers(['node', 'express', 'fastify']);
  try {
    const cases: [string, string, [string, string][]][] = [
      ['GET', '/player/alice', [['Authorization', 'Bearer wrong']]],
      ['GET', '/player/alice/friends?page=2', [['Authorization', 'Basic YTpi'], ['Accept', 'application/hal+json']]],
      ['PUT', '/player/zed', [['Content-Type', 'application/json']]],
      ['DELETE', '/player/alice', []],
    ];
    for (const [method, target, headers] of cases) {
      await eachServer(servers, { method, target, headers, body: method === 'PUT' ? '{"alias":"zed"}' : undefined }, (a, label) => {
        assertProblem(a, 401, label);
        assert.ok(a.headers['www-authenticate'], label);
        for (const field of ['authorization', 'accept', 'api-version']) assert.ok(vary(a.headers.vary).includes(field), `${label}: Vary ${a.headers.vary}`);
      });
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

cacheKeys('should forbid sniffing on every avatar image', async () => {
  const servers = await startAdapterServers(['node', 'express', 'fastify']);
  try {
    for (const s of servers) {
      const c = await RawConnection.open(s.origin);
      // An identicon (nothing uploaded), by GET and HEAD.
      for (const method of ['GET', 'HEAD']) {
        const identicon = await c.request({ method, target: '/player/alice/avatar.png' });
        assert.is(identicon.status, 200, `${s.adapter} ${method}`);
        assert.is(identicon.headers['content-type'], 'image/png', s.adapter);
        assert.is(identicon.headers['x-content-type-options'], 'nosniff', `${s.adapter} ${method}`);
      }
      // An uploaded PNG.
      const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a2dd6ad40000000049454e44ae426082', 'hex');
      const put = await c.request({ method: 'PUT', target: '/player/bob/avatar.png', headers: [['Authorization', `Bearer ${WRITE_TOKEN}`], ['Content-Type', 'image/png']], body: png });
      assert.is(put.status, 201, s.adapter);
      const uploaded = await c.request({ method: 'GET', target: '/player/bob/avatar.png' });
      assert.is(uploaded.status, 200, s.adapter);
      assert.equal(uploaded.body, png, s.adapter);
      assert.is(uploaded.headers['x-content-type-options'], 'nosniff', s.adapter);
      c.close();
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()));
  }
});

cacheKeys.run();
