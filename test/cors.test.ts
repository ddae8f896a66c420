import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService } from '../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';

// CORS over real servers: preflights for writes with the API's request fields, exposed answer
// fields, Vary: Origin, and nothing for an origin not listed.
const cors = suite('CORS');
const GAME = 'https://game.example';
let servers: AdapterServer[] = [];
let open: AdapterServer[] = [];

cors.before(async () => {
  servers = await startAdapterServers(['node', 'express'], { cors: { origins: [GAME], credentials: true } });
  open = await startAdapterServers(['node'], { cors: { origins: '*' } });
});
cors.after(async () => {
  await Promise.all([...servers, ...open].map((s) => s.close()));
});

cors('should answer a preflight for a PATCH with Authorization and If-Match from a listed origin', async () => {
  for (const s of servers) {
    const res = await fetch(`${s.origin}/player/alice`, {
      method: 'OPTIONS',
      headers: { Origin: GAME, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'authorization, if-match, content-type' },
    });
    assert.is(res.status, 204, s.adapter);
    assert.is(res.headers.get('access-control-allow-origin'), GAME);
    assert.is(res.headers.get('access-control-allow-credentials'), 'true');
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /\bPATCH\b/);
    for (const field of ['Authorization', 'If-Match', 'Content-Type', 'Idempotency-Key', 'Api-Version']) assert.match(res.headers.get('access-control-allow-headers') ?? '', field);
    assert.ok(Number(res.headers.get('access-control-max-age')) > 0);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
  }
});

cors('should let a listed origin read ETag, Link and Location of answers, errors included', async () => {
  for (const s of servers) {
    const read = await fetch(`${s.origin}/player/alice/friends`, { headers: { Origin: GAME } });
    assert.is(read.headers.get('access-control-allow-origin'), GAME);
    for (const field of ['ETag', 'Link', 'Location', 'Total-Count', 'Api-Version', 'Deprecation', 'Sunset']) assert.match(read.headers.get('access-control-expose-headers') ?? '', field);
    assert.match(read.headers.get('vary') ?? '', /Origin/);
    const etag = read.headers.get('etag')!;
    const revalidated = await fetch(`${s.origin}/player/alice/friends`, { headers: { Origin: GAME, 'If-None-Match': etag } });
    assert.is(revalidated.status, 304);
    assert.is(revalidated.headers.get('access-control-allow-origin'), GAME);
    const write = await fetch(`${s.origin}/player/alice`, {
      method: 'PATCH',
      headers: { Origin: GAME, Authorization: `Bearer ${WRITE_TOKEN}`, 'If-Match': '"0-stale"', 'Content-Type': 'application/merge-patch+json' },
      body: '{"alias":"x"}',
    });
    assert.is(write.status, 412);
    assert.is(write.headers.get('access-control-allow-origin'), GAME);
  }
});

cors('should grant nothing to an origin not listed, and still say Vary: Origin', async () => {
  for (const s of servers) {
    const res = await fetch(`${s.origin}/player/alice`, { headers: { Origin: 'https://evil.example' } });
    assert.is(res.status, 200);
    assert.is(res.headers.get('access-control-allow-origin'), null);
    assert.match(res.headers.get('vary') ?? '', /Origin/);
    const pre = await fetch(`${s.origin}/player/alice`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE' } });
    assert.is(pre.headers.get('access-control-allow-origin'), null);
    assert.is(pre.headers.get('access-control-allow-methods'), null);
    // Same URL, same Accept, the listed origin afterwards: the kept answer gets its own grant.
    const again = await fetch(`${s.origin}/player/alice`, { headers: { Origin: GAME } });
    assert.is(again.headers.get('access-control-allow-origin'), GAME);
  }
});

cors("should allow reads only, without credentials, for origins '*'", async () => {
  const [s] = open;
  const read = await fetch(`${s!.origin}/player/alice`, { headers: { Origin: 'https://anyone.example' } });
  assert.is(read.headers.get('access-control-allow-origin'), '*');
  assert.is(read.headers.get('access-control-allow-credentials'), null);
  const pre = await fetch(`${s!.origin}/player/alice`, { method: 'OPTIONS', headers: { Origin: 'https://anyone.example', 'Access-Control-Request-Method': 'PATCH' } });
  assert.is(pre.headers.get('access-control-allow-origin'), null, 'no write preflight for *');
  const readPre = await fetch(`${s!.origin}/player/alice`, { method: 'OPTIONS', headers: { Origin: 'https://anyone.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'api-version' } });
  assert.is(readPre.headers.get('access-control-allow-origin'), '*');
  assert.is(readPre.headers.get('access-control-allow-methods'), 'GET, HEAD');
});

cors('should refuse options the Fetch standard forbids', () => {
  assert.throws(() => createPlayerService({ baseUrl: 'https://x.test', cors: { origins: '*', credentials: true } }), /credentials/);
  assert.throws(() => createPlayerService({ baseUrl: 'https://x.test', cors: { origins: ['https://game.example/'] } }), /origin/);
});

cors.run();
