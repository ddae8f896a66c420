import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, testPool } from './support/postgres.js';

// A string PostgreSQL cannot hold (U+0000: jsonb and text refuse it, SQLSTATE 22P05) is the client's
// 422, not a 500, on every kind of write; nothing is written.
const unstorable = suite('PostgreSQL: a value the store cannot hold');
const it = POSTGRES_SKIP ? unstorable.skip : unstorable;
noteSkip();
unstorable.after(dropTestSchemas);

const BASE = 'https://api.example.com';
const AUTH = { Authorization: 'Bearer t' };
const NUL = 'x\u0000y';

it('should answer 422 problem+json to a PATCH, a PUT and a POST holding U+0000, and change nothing', async () => {
  const store = await freshPostgresStore('unstorable');
  await store.putPlayer({ playerId: 'alice', alias: 'ali' });
  const service = createPlayerService({ baseUrl: BASE, store, authenticate: bearerTokens(['t']) });
  const send = (method: string, path: string, type: string, body: unknown) =>
    service.fetch(new Request(`${BASE}${path}`, { method, headers: { ...AUTH, 'Content-Type': type }, body: JSON.stringify(body) }));
  const before = await store.getPlayer('alice');
  const answers = [
    await send('PATCH', '/player/alice', 'application/merge-patch+json', { alias: NUL }),
    await send('PATCH', '/player/alice', 'application/json-patch+json', [{ op: 'add', path: '/displayName', value: NUL }]),
    await send('PUT', '/player/bob', 'application/json', { playerId: 'bob', alias: NUL }),
    await send('POST', '/player/alice/friends', 'application/json', { alias: NUL }),
  ];
  for (const answer of answers) {
    assert.is(answer.status, 422, `${answer.url}: ${await answer.clone().text()}`);
    assert.is(answer.headers.get('content-type'), 'application/problem+json');
    const detail = ((await answer.json()) as { detail: string }).detail;
    assert.match(detail, /U\+0000/, `${answer.url}: ${detail}`);
  }
  const after = await store.getPlayer('alice');
  assert.is(after?.revision, before?.revision, 'alice unchanged');
  assert.is(await store.getPlayer('bob'), undefined);
  assert.is((await store.listFriends('alice', { offset: 0, limit: 10 }))?.total ?? 0, 0, 'no friend added');
  assert.is((await testPool!.query(`SELECT count(*)::int AS n FROM "${store.schema}".items`)).rows[0].n, 1, 'no player made');
});

it('should answer 422 over a real keep-alive connection, and the next request on it 200', async () => {
  const store = await freshPostgresStore('unstorable_http');
  await store.putPlayer({ playerId: 'alice', alias: 'ali' });
  const service = createPlayerService({ baseUrl: BASE, store, authenticate: bearerTokens(['t']) });
  const server = createServer(toNodeListener(service));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  const patch = (alias: string) =>
    new Promise<{ status: number; type: string | undefined; body: string }>((resolve, reject) => {
      const body = JSON.stringify({ alias });
      const req = request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/player/alice`, { agent, method: 'PATCH', headers: { ...AUTH, 'content-type': 'application/merge-patch+json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body: text }));
      });
      req.on('socket', (socket) => sockets.add(socket));
      req.on('error', reject);
      req.end(body);
    });
  try {
    const refused = await patch(NUL);
    assert.is(refused.status, 422, refused.body);
    assert.is(refused.type, 'application/problem+json');
    assert.match(refused.body, /U\+0000/);
    const accepted = await patch('al');
    assert.is(accepted.status, 200, accepted.body);
    assert.is(sockets.size, 1, 'one connection, kept alive after the 422');
    assert.is((await store.getPlayer('alice'))?.alias, 'al');
  } finally {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

unstorable.run();
