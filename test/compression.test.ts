import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createPlayerService, MemoryPlayerStore, seedDemoData, type ContentCoder } from '../src/index.js';
import { nodeContentCodings } from '../src/adapters/node.js';
import { chooseCoding, resolveCompression } from '../src/core/respond/compression.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';
import { RawConnection } from './support/raw-http.js';

const run = promisify(execFile);
const HAL = 'application/hal+json';

// Compressed answers over real sockets, through every Node adapter, decoded by undici (fetch) and curl.
const overHttp = suite('compression over HTTP (node, express, fastify)');
let servers: AdapterServer[] = [];
const coded: Record<string, number> = {};

overHttp.before(async () => {
  const counting = (name: string, coder: ContentCoder): ContentCoder => (bytes) => {
    coded[name] = (coded[name] ?? 0) + 1;
    return coder(bytes);
  };
  const codings = Object.fromEntries(Object.entries(nodeContentCodings()).map(([name, coder]) => [name, counting(name, coder)]));
  servers = await startAdapterServers(['node', 'express', 'fastify'], { compression: { codings } });
});
overHttp.after(() => Promise.all(servers.map((s) => s.close())).then(() => undefined));

overHttp('a friends page goes out in br or gzip as asked, with its own ETag and Vary; fetch decodes it to the identity bytes', async () => {
  for (const { origin, adapter } of servers) {
    const c = await RawConnection.open(origin);
    const ask = (encoding: string | undefined, extra: [string, string][] = []) => {
      c.send(c.format({ method: 'GET', target: '/player/alice/friends', headers: [['Accept', HAL], ...(encoding === undefined ? [] : ([['Accept-Encoding', encoding]] as [string, string][])), ...extra] }), 'GET');
      return c.next();
    };
    const identity = await ask(undefined);
    assert.is(identity.status, 200, adapter);
    assert.is(identity.headers['content-encoding'], undefined);
    assert.match(identity.headers.vary!, /Accept-Encoding/, `${adapter}: the identity answer varies by Accept-Encoding too`);
    const tag = identity.headers.etag!;
    const gz = await ask('gzip');
    assert.is(gz.headers['content-encoding'], 'gzip', adapter);
    assert.is(gz.headers.etag, tag.replace(/"$/, '-gzip"'), `${adapter}: a coding has its own tag (RFC 9110 section 8.8.3)`);
    assert.ok(gunzipSync(gz.body).equals(identity.body), `${adapter}: gunzip gives the identity bytes`);
    assert.ok(gz.body.byteLength < identity.body.byteLength / 2, `${adapter}: ${gz.body.byteLength} of ${identity.body.byteLength} bytes`);
    assert.is(Number(gz.headers['content-length']), gz.body.byteLength);
    const br = await ask('gzip;q=0.8, br');
    assert.is(br.headers['content-encoding'], 'br', `${adapter}: the higher q-value wins`);
    assert.ok(brotliDecompressSync(br.body).equals(identity.body));
    const preferred = await ask('gzip, br');
    assert.is(preferred.headers['content-encoding'], 'br', `${adapter}: equal q-values go to the server's order (br first)`);
    assert.is((await ask('gzip;q=0.5, identity')).headers['content-encoding'], undefined, 'identity ranked above gzip');
    assert.is((await ask('br;q=0, gzip;q=0')).headers['content-encoding'], undefined, 'q=0 refuses a coding');
    assert.is((await ask('*')).headers['content-encoding'], 'br', '* stands for every coding');
    assert.is((await ask('x-gzip')).headers['content-encoding'], 'gzip', 'x-gzip is gzip (RFC 9110 section 8.4.1.3)');
    c.close();

    const viaFetch = await fetch(`${origin}/player/alice/friends`, { headers: { accept: HAL, 'accept-encoding': 'br' } });
    assert.is(viaFetch.headers.get('content-encoding'), 'br');
    assert.equal(Buffer.from(await viaFetch.arrayBuffer()), identity.body, `${adapter}: undici decodes br`);
    const viaFetchGzip = await fetch(`${origin}/player/alice/friends`, { headers: { accept: HAL, 'accept-encoding': 'gzip' } });
    assert.equal(Buffer.from(await viaFetchGzip.arrayBuffer()), identity.body, `${adapter}: undici decodes gzip`);
  }
});

overHttp('curl --compressed reads the decoded page', async () => {
  for (const { origin, adapter } of servers) {
    const { stdout } = await run('curl', ['-s', '--compressed', '-H', `Accept: ${HAL}`, '-D', '-', `${origin}/player/alice/friends?page=2`]);
    const [head, body] = stdout.split('\r\n\r\n');
    assert.match(head!, /content-encoding: (br|gzip)/i, `${adapter}: curl asked, the server coded`);
    const page = JSON.parse(body!) as { _links: { self: { href: string } } };
    assert.is(page._links.self.href, `${origin}/player/alice/friends?page=2`);
  }
});

overHttp('a 304 answers the coded tag the client holds; an identity tag is not the coded representation', async () => {
  for (const { origin, adapter } of servers) {
    const c = await RawConnection.open(origin);
    const ask = (headers: [string, string][], method = 'GET') => {
      c.send(c.format({ method, target: '/player/alice/friends', headers: [['Accept', HAL], ...headers] }), method);
      return c.next();
    };
    const gz = await ask([['Accept-Encoding', 'gzip']]);
    const again = await ask([['Accept-Encoding', 'gzip'], ['If-None-Match', gz.headers.etag!]]);
    assert.is(again.status, 304, adapter);
    assert.is(again.headers.etag, gz.headers.etag, `${adapter}: the 304 names the gzip variant`);
    assert.match(again.headers.vary!, /Accept-Encoding/);
    // The client now accepts br only: its gzip copy is not what it would get.
    const other = await ask([['Accept-Encoding', 'br'], ['If-None-Match', gz.headers.etag!]]);
    assert.is(other.status, 200, `${adapter}: a gzip tag does not validate the br representation`);
    assert.is(other.headers['content-encoding'], 'br');
    // No coding accepted: the gzip tag names nothing this request would get.
    const plain = await ask([['If-None-Match', gz.headers.etag!]]);
    assert.is(plain.status, 200);
    assert.is(plain.headers['content-encoding'], undefined);
    // The identity copy a client holds stays valid while it accepts gzip (identity is always acceptable).
    const held = await ask([['Accept-Encoding', 'gzip'], ['If-None-Match', plain.headers.etag!]]);
    assert.is(held.status, 304);
    assert.is(held.headers.etag, plain.headers.etag);
    const head = await ask([['Accept-Encoding', 'gzip']], 'HEAD');
    assert.is(head.headers['content-encoding'], 'gzip', `${adapter}: HEAD says what GET sends`);
    assert.is(head.headers.etag, gz.headers.etag);
    assert.is(head.body.byteLength, 0);
    c.close();
  }
});

overHttp('a write made with a coded tag in If-Match succeeds, and a stale one is 412; the write changes the coded answers', async () => {
  for (const { origin, adapter } of servers) {
    const read = await fetch(`${origin}/player/bob`, { headers: { accept: 'application/json', 'accept-encoding': 'gzip' } });
    const body = (await read.json()) as Record<string, unknown>;
    const tag = read.headers.get('etag')!;
    const write = (ifMatch: string) =>
      fetch(`${origin}/player/bob`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${WRITE_TOKEN}`, 'content-type': 'application/merge-patch+json', 'if-match': ifMatch, 'accept-encoding': 'gzip' },
        body: JSON.stringify({ alias: `${String(body.alias)}-${adapter}` }),
      });
    // The player is small: under the threshold it is sent as it is, under its identity tag.
    assert.is(read.headers.get('content-encoding'), null);
    const suffixed = tag.replace(/"$/, '-gzip"');
    assert.is((await write(suffixed)).status, 200, `${adapter}: If-Match with any coding's tag is the same state`);
    assert.is((await write(suffixed)).status, 412, `${adapter}: the state changed`);
  }
});

overHttp('a repeated read is compressed once (coded bodies kept in the body cache)', async () => {
  const { origin } = servers[0]!;
  const url = `${origin}/player/alice/friends?page=3`;
  const before = coded.gzip ?? 0;
  for (let i = 0; i < 5; i++) await (await fetch(url, { headers: { accept: HAL, 'accept-encoding': 'gzip' } })).arrayBuffer();
  assert.is((coded.gzip ?? 0) - before, 1);
});

overHttp('errors, small bodies and images are sent as they are', async () => {
  const { origin } = servers[0]!;
  const c = await RawConnection.open(origin);
  c.send(c.format({ method: 'GET', target: '/player/nobody', headers: [['Accept-Encoding', 'gzip']] }), 'GET');
  const missing = await c.next();
  assert.is(missing.status, 404);
  assert.is(missing.headers['content-encoding'], undefined);
  c.send(c.format({ method: 'GET', target: '/player/alice', headers: [['Accept-Encoding', 'gzip']] }), 'GET');
  const small = await c.next();
  assert.ok(small.body.byteLength < 1024);
  assert.is(small.headers['content-encoding'], undefined, 'below the 1 KiB threshold');
  c.send(c.format({ method: 'GET', target: '/player/alice/avatar.png', headers: [['Accept-Encoding', 'gzip']] }), 'GET');
  const image = await c.next();
  assert.is(image.headers['content-encoding'], undefined, 'PNG is compressed already');
  c.close();
});

overHttp.run();

// The web-standard default (CompressionStream gzip), through service.fetch as Bun, Deno and Workers call it.
const web = suite('compression: true (CompressionStream gzip)');

web('gzip by CompressionStream, decoded back to the identity body', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: 'https://api.example.com', store, compression: true });
  const get = (encoding?: string) => service.fetch(new Request('https://api.example.com/player/alice/friends', { headers: { accept: HAL, ...(encoding ? { 'accept-encoding': encoding } : {}) } }));
  const plain = Buffer.from(await (await get()).arrayBuffer());
  const gz = await get('br, gzip');
  assert.is(gz.headers.get('content-encoding'), 'gzip', 'br is not offered by default: gzip');
  assert.ok(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(plain));
  const off = createPlayerService({ baseUrl: 'https://api.example.com', store });
  const untouched = await off.fetch(new Request('https://api.example.com/player/alice/friends', { headers: { accept: HAL, 'accept-encoding': 'gzip' } }));
  assert.is(untouched.headers.get('content-encoding'), null, 'off by default');
  assert.not.match(untouched.headers.get('vary') ?? '', /Accept-Encoding/);
});

web('options are checked', () => {
  assert.throws(() => resolveCompression({ threshold: -1 }), /threshold/);
  assert.throws(() => resolveCompression({ codings: {} }), /no coding/);
  assert.throws(() => resolveCompression({ codings: { 'bad name': (b) => b } }), /not a content coding/);
  const policy = resolveCompression({ codings: { br: (b) => b, gzip: (b) => b } })!;
  assert.is(chooseCoding(null, policy), '');
  assert.is(chooseCoding('deflate', policy), '');
  assert.is(chooseCoding('GZIP;Q=0.9, br;q=0.1', policy), 'gzip');
  assert.is(chooseCoding('*;q=0.2, gzip;q=0', policy), 'br');
});

web('coded bodies are kept by usefulness, each route judged on its own', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  let coded = 0;
  const identity: ContentCoder = (bytes) => (coded++, bytes.slice());
  // The memo off, so that every read is computed and coded (or its coded body found in the cache).
  const service = createPlayerService({ baseUrl: 'https://api.example.com', store, memoizeAnswers: false, bodyCacheBytes: 16384, compression: { threshold: 0, codings: { gzip: identity } } });
  const get = async (path: string) => {
    const res = await service.fetch(new Request(`https://api.example.com${path}`, { headers: { 'accept-encoding': 'gzip' } }));
    assert.is(res.headers.get('content-encoding'), 'gzip');
    await res.arrayBuffer();
  };
  // A crawl of distinct URLs of one route: each coded body pushed out unread.
  for (let i = 0; i < 300; i++) await get(`/player/alice?crawl=${i}`);
  const before = coded;
  await get('/player/alice?again=1');
  await get('/player/alice?again=1');
  assert.is(coded - before, 2, 'the crawled route keeps one coded body in SPARSE_STRIDE');
  await get('/player/alice/friends?again=1');
  await get('/player/alice/friends?again=1');
  assert.is(coded - before, 3, 'another route keeps its coded bodies');
});

web.run();
