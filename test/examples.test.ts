import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations } from '../src/index.js';
import { playerRoutes } from './support/player-routes.js';
const apiRoutes = playerRoutes();
import { startChild, type ChildServer } from './support/child-server.js';
import { assertHeadersTimeout } from './support/hostile.js';

const BASE_URL = 'http://api.example.test';
const TOKEN = 'example-test-token';
// Short enough to see a slow client cut during the test, long enough for every ordinary request.
const HEADERS_TIMEOUT_MS = 2000;
const FRAMEWORKS = ['server', 'express', 'fastify', 'hono'] as const;
// Headers that depend on the moment or the connection, not on the answer.
const TRANSPORT = new Set(['date', 'expires', 'connection', 'keep-alive', 'transfer-encoding', 'last-modified']);

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  expiresAfterDate: number | undefined;
  hasLastModified: boolean;
}

async function ask(origin: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(origin + path, { ...init, redirect: 'manual' });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!TRANSPORT.has(name)) headers[name] = value;
  });
  const date = res.headers.get('date');
  const expires = res.headers.get('expires');
  return {
    status: res.status,
    headers,
    body: Buffer.from(await res.arrayBuffer()).toString('base64'),
    expiresAfterDate: date && expires ? Date.parse(expires) - Date.parse(date) : undefined,
    hasLastModified: res.headers.has('last-modified'),
  };
}

const examples = suite('examples/: the same answers from node:http, Express, Fastify and Hono');
const servers: Partial<Record<(typeof FRAMEWORKS)[number], ChildServer>> = {};

examples.before(async () => {
  const started = await Promise.all(FRAMEWORKS.map((f) => startChild([`examples/${f}.ts`], { BASE_URL, API_TOKEN: TOKEN, HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) })));
  FRAMEWORKS.forEach((f, i) => (servers[f] = started[i]));
});

examples.after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
});

async function same(path: string, init: RequestInit = {}): Promise<Answer> {
  const answers = await Promise.all(FRAMEWORKS.map((f) => ask(servers[f]!.origin, path, init)));
  const [reference, ...others] = answers;
  others.forEach((answer, i) => assert.equal(answer, reference, `${FRAMEWORKS[i + 1]} differs from node:http on ${init.method ?? 'GET'} ${path}`));
  return reference!;
}

examples('should serve a player identically in every registered format', async () => {
  for (const representation of defaultRepresentations) {
    const answer = await same('/player/alice', { headers: { Accept: representation.mediaType } });
    assert.is(answer.status, 200, representation.name);
    assert.is(answer.expiresAfterDate, 60_000);
    assert.ok(answer.hasLastModified);
  }
});

examples('should serve a page, a search and HEAD identically', async () => {
  const page = await same('/player/alice/friends?page=2');
  assert.is(page.status, 200);
  assert.ok(page.headers.link);
  assert.is((await same('/player/alice/friends/search?search=ada&page=1')).status, 200);
  const head = await same('/player/alice', { method: 'HEAD' });
  assert.is(head.body, '');
  assert.ok(head.headers['content-length']);
});

examples('should answer 304, 406, 404 and 405 identically', async () => {
  const first = await ask(servers.server!.origin, '/player/alice');
  const notModified = await same('/player/alice', { headers: { 'If-None-Match': first.headers.etag! } });
  assert.is(notModified.status, 304);
  assert.is(notModified.body, '');
  assert.is((await same('/player/alice', { headers: { Accept: 'image/gif' } })).status, 406);
  assert.is((await same('/player/nobody')).status, 404);
  assert.is((await same('/nowhere/at/all')).status, 404);
  const notAllowed = await same('/player/alice/friends/search?search=a', { method: 'DELETE' });
  assert.is(notAllowed.status, 405);
  assert.ok(notAllowed.headers.allow);
});

examples('should answer a POST on a friends list identically', async () => {
  const friends = apiRoutes.find((r) => r.path === '/player/{id}/friends');
  if (!friends?.methods.POST) {
    console.log('  note: POST /player/{id}/friends is not in this build yet (the writes issue); the POST case is skipped.');
    return;
  }
  const answer = await same('/player/bob/friends', {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ playerId: 'alice' }),
  });
  assert.is(answer.status, 201);
  assert.is(answer.headers.location, `${BASE_URL}/player/alice`);
});

examples('should cut a client whose headers never end after HEADERS_TIMEOUT_MS, on every server', async () => {
  await Promise.all(FRAMEWORKS.map((f) => assertHeadersTimeout(servers[f]!.origin, HEADERS_TIMEOUT_MS, f)));
});

examples.run();

const mounted = suite('examples/mounted.ts: the API under /games/api beside other routes');
let app: ChildServer;

mounted.before(async () => {
  app = await startChild(['examples/mounted.ts'], { TRUST_PROXY: '1', BASE_URL: 'http://games.example.test/games/api' });
});
mounted.after(() => app.stop());

mounted('should serve the API under the prefix, with links carrying it', async () => {
  const res = await fetch(`${app.origin}/games/api/player/alice`);
  assert.is(res.status, 200);
  const body = await res.json();
  assert.is(body.profilePhotoUrl, 'http://games.example.test/games/api/player/alice/avatar.png');
});

mounted('should keep the application routes and its own JSON parser', async () => {
  assert.equal(await (await fetch(`${app.origin}/health`)).json(), { status: 'ok' });
  const res = await fetch(`${app.origin}/feedback`, { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
  assert.is(res.status, 202);
  assert.match(await (await fetch(`${app.origin}/`)).text(), 'href="/games/api/player/alice"');
});

mounted('should build links from the gateway headers with TRUST_PROXY=1', async () => {
  const res = await fetch(`${app.origin}/games/api/player/alice/friends`, {
    headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'play.example.com', 'X-Forwarded-Prefix': '/edge' },
  });
  assert.match(res.headers.get('link')!, '<https://play.example.com/edge/games/api/player/alice/friends?page=2>; rel="next"');
});

mounted.run();
