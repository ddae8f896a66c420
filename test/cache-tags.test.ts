// Cache tags and purging with a real Varnish and its xkey module, configured as docs/caching.md says:
// shared caches hold answers for minutes and still show a write at once, on every page that shows it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { bearerTokens, createPlayerService, httpPurger, MemoryPlayerStore, seedDemoData, type CachePurge } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { startVarnish, which, type RunningProxy } from './support/proxies.js';

const TOKEN = 'cache-tags-token';
const HEADING = '### Varnish with cache tags (xkey): minutes in the cache, writes seen at once';
const XKEY = ['/usr/lib/x86_64-linux-gnu/varnish/vmods/libvmod_xkey.so', '/usr/lib/aarch64-linux-gnu/varnish/vmods/libvmod_xkey.so'];

const tags = suite('cache tags and purging through Varnish xkey');
const missing = which('varnishd') === undefined ? 'varnishd is not installed' : XKEY.some(existsSync) ? undefined : "varnish-modules' xkey is not installed";
if (missing) console.log(`note: cache tag tests skipped: ${missing} (.ci/run installs Debian's varnish and varnish-modules)`);
const it = missing ? tags.skip : tags;

let server: Server;
let varnish: RunningProxy;
let store: MemoryPlayerStore;
const hits = new Map<string, number>();
const purges: string[][] = [];
let origin = '';

tags.before(async () => {
  if (missing) return;
  store = new MemoryPlayerStore();
  await seedDemoData(store);
  let purgeAtVarnish: CachePurge = () => undefined;
  const service = createPlayerService({
    baseUrl: 'http://api.test',
    store,
    authenticate: bearerTokens([TOKEN]),
    // Minutes for the shared cache; writes purge by tag.
    cache: { player: { sMaxAge: 600 }, friends: { sMaxAge: 600 }, search: { sMaxAge: 600 } },
    cacheTags: {
      purge: (t) => {
        purges.push([...t]);
        return purgeAtVarnish(t);
      },
    },
  });
  const listener = toNodeListener(service);
  server = createServer((req, res) => {
    // Only what Varnish fetches is counted (it names itself in X-Varnish).
    if (req.method === 'GET' && req.headers['x-varnish']) hits.set(`${req.headers.accept} ${req.url}`, (hits.get(`${req.headers.accept} ${req.url}`) ?? 0) + 1);
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  varnish = await startVarnish(origin.slice('http://'.length), HEADING);
  purgeAtVarnish = httpPurger({ url: `${varnish.origin}/` });
});
tags.after(async () => {
  await varnish?.stop();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const HAL = 'application/hal+json';
const JSON_TYPE = 'application/json';
const read = (path: string, accept = JSON_TYPE) => fetch(varnish.origin + path, { headers: { accept } });
const hitsOf = (path: string, accept = JSON_TYPE) => hits.get(`${accept} ${path}`) ?? 0;

it('should name the players each answer shows in xkey (and keep the header from clients)', async () => {
  const direct = await fetch(`${origin}/player/alice/friends?page=1`, { headers: { accept: HAL } });
  const value = direct.headers.get('xkey')!;
  const body = await direct.json();
  const shown = body._embedded.player.map((p: { playerId: string }) => p.playerId) as string[];
  assert.equal(value.split(' ').sort(), ['player-alice', ...shown.map((id) => `player-${id}`)].sort());
  const search = await fetch(`${origin}/player/alice/friends/search?search=ada`, { headers: { accept: JSON_TYPE } });
  assert.match(search.headers.get('xkey')!, /^search player-alice/);
  assert.is((await read('/player/alice')).headers.get('xkey'), null, 'Varnish does not pass the tags on');
});

it('should show a PATCHed alias on the player and on every friends page that embeds it at once, other pages staying cached', async () => {
  const friend = (await store.listFriends('alice', { offset: 0, limit: 1 }))!.items[0]!.playerId;
  const watched: [string, string][] = [
    [`/player/${friend}`, JSON_TYPE],
    [`/player/${friend}`, HAL],
    ['/player/alice/friends?page=1', JSON_TYPE],
    ['/player/alice/friends?page=1', HAL],
    ['/player/alice?include=friends', 'application/vnd.api+json'], // the first page of friends included
  ];
  const unrelated: [string, string] = ['/player/alice/friends?page=3', JSON_TYPE];
  for (const [path, accept] of [...watched, unrelated]) {
    assert.is((await read(path, accept)).status, 200);
    await read(path, accept);
    assert.is(hitsOf(path, accept), 1, `${accept} ${path}: the repeat came from Varnish`);
  }
  const patch = await fetch(`${varnish.origin}/player/${friend}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/merge-patch+json', accept: JSON_TYPE },
    body: JSON.stringify({ alias: 'renamed-through-varnish' }),
  });
  assert.is(patch.status, 200, await patch.clone().text());
  const written = Date.now();
  assert.equal(purges.at(-1), [`player-${friend}`, 'search']);
  for (const [path, accept] of watched) {
    const text = await (await read(path, accept)).text();
    assert.ok(text.includes('renamed-through-varnish'), `${accept} ${path} shows the new alias`);
    assert.is(hitsOf(path, accept), 2, `${accept} ${path} was fetched again once`);
  }
  assert.ok(Date.now() - written < 1000, `seen everywhere within ${Date.now() - written} ms`);
  await read(...unrelated);
  assert.is(hitsOf(...unrelated), 1, 'a page that does not show the player is still served by Varnish');
  for (const [path, accept] of watched) {
    await read(path, accept);
    assert.is(hitsOf(path, accept), 2, `${accept} ${path} is cached again`);
  }
});

it('should answer the write even when the purge cannot reach the cache', async () => {
  const unreachable = httpPurger({ url: 'http://127.0.0.1:9/', timeoutMs: 300 });
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    const started = Date.now();
    await unreachable(['player-alice']);
    assert.ok(Date.now() - started < 1000);
    assert.is(errors.length, 1, 'the failure is logged');
  } finally {
    console.error = original;
  }
  const failing = createPlayerService({ baseUrl: 'http://x.test', store, authenticate: bearerTokens([TOKEN]), cacheTags: { purge: () => Promise.reject(new Error('no cache')) } });
  console.error = () => undefined;
  try {
    const res = await failing.fetch(
      new Request('http://x.test/player/bob', { method: 'PATCH', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/merge-patch+json' }, body: '{"alias":"still-written"}' }),
    );
    assert.is(res.status, 200);
    assert.is((await store.getPlayer('bob'))!.alias, 'still-written');
  } finally {
    console.error = original;
  }
  assert.throws(() => createPlayerService({ baseUrl: 'http://x.test', cacheTags: { header: 'bad header' } }), TypeError);
  assert.throws(() => httpPurger({ url: 'varnish' }), TypeError);
});

tags.run();

const unchanged = suite('writes that change nothing purge nothing');

unchanged('a patch to the values already there, members already listed and an idempotent replay purge nothing; a change purges', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const purged: string[][] = [];
  const service = createPlayerService({ baseUrl: 'http://x.test', store, authenticate: bearerTokens([TOKEN]), cacheTags: { purge: (t) => void purged.push([...t]) } });
  const write = async (method: string, path: string, type: string, body: string, headers: Record<string, string> = {}) => {
    const res = await service.fetch(new Request(`http://x.test${path}`, { method, body, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': type, ...headers } }));
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  };
  const alias = (await store.getPlayer('bob'))!.alias;
  await write('PATCH', '/player/bob', 'application/merge-patch+json', JSON.stringify({ alias }));
  const listed = (await store.listFriends('alice', { offset: 0, limit: 1 }))!.items[0]!.playerId;
  await write('POST', '/player/alice/relationships/friends', 'application/vnd.api+json', JSON.stringify({ data: [{ type: 'players', id: listed }] }));
  assert.equal(purged, [], 'nothing changed: nothing purged');
  await write('POST', '/player/alice/friends', 'application/json', JSON.stringify({ alternateName: 'once' }), { 'idempotency-key': 'k-1' });
  assert.is(purged.length, 1, 'the first POST purges');
  await write('POST', '/player/alice/friends', 'application/json', JSON.stringify({ alternateName: 'once' }), { 'idempotency-key': 'k-1' });
  assert.is(purged.length, 1, 'its replay does not');
  await write('PATCH', '/player/bob', 'application/merge-patch+json', JSON.stringify({ alias: 'bob-changed' }));
  assert.equal(purged.at(-1), ['player-bob', 'search']);
});

unchanged.run();
