import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { connect } from 'node:net';
import { toNodeListener } from '../src/adapters/node.js';
import { toRequestHead } from '../src/adapters/node-request.js';
import { answererOf } from '../src/core/service/answerer.js';

const node = suite('player-hypermedia/node over a real server');
let server: Server;
let origin: string;

let service: ReturnType<typeof createPlayerService>;

node.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service = createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens(['node-token']) });
  server.on('request', toNodeListener(service));
});

/** One raw HTTP/1.1 exchange on a new connection: the bytes of the answer. */
function exchange(request: string): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

node.after(() => {
  server.closeAllConnections();
  server.close();
});

node('should serve a player, a page, a 304 and an error over HTTP', async () => {
  const res = await fetch(`${origin}/player/alice`);
  assert.is(res.status, 200);
  assert.is((await res.json()).profilePhotoUrl, `${origin}/player/alice/avatar.png`);
  assert.ok(res.headers.get('content-length'));
  const page = await fetch(`${origin}/player/alice/friends?page=2`);
  assert.is((await page.json()).length, 10);
  assert.match(page.headers.get('link')!, 'rel="next"');
  const cached = await fetch(`${origin}/player/alice`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
  assert.is(cached.status, 304);
  const missing = await fetch(`${origin}/player/nobody`);
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('content-type'), 'application/problem+json');
});

node('should plan each query on its own and count Content-Length in bytes, over one keep-alive connection', async () => {
  const { Agent, request } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; length: number; body: Buffer; reused: boolean }>((resolve, reject) => {
      const req = request(`${origin}${path}`, { agent, headers: { accept: 'application/vnd.api+json', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, length: Number(res.headers['content-length']), body: Buffer.concat(chunks), reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end();
    });
  try {
    // A name of several bytes per character: Content-Length counts bytes, not characters.
    const etag = (await fetch(`${origin}/player/bob`)).headers.get('etag')!;
    const write = await fetch(`${origin}/player/bob`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer node-token', 'content-type': 'application/merge-patch+json', 'if-match': etag },
      body: JSON.stringify({ displayName: 'Bób Ünïcode 😀' }),
    });
    assert.is(write.status, 200);
    const answers = [];
    for (const path of ['/player/bob?fields[players]=name', '/player/bob?fields[players]=alternateName', '/player/bob?fields[players]=name', '/player/alice/friends?page=2', '/player/bob?fields[nope]=x', '/player/bob?fields[nope]=x']) {
      answers.push(await get(path));
    }
    for (const a of answers) assert.is(a.length, a.body.byteLength);
    assert.ok(answers.slice(1).every((a) => a.reused), 'one connection');
    const [name, alias, nameAgain, page, bad, badAgain] = answers.map((a) => ({ status: a.status, json: JSON.parse(a.body.toString()) as { data: { attributes: Record<string, unknown> } } }));
    assert.equal(name!.json.data.attributes, { name: 'Bób Ünïcode 😀' });
    assert.equal(Object.keys(alias!.json.data.attributes), ['alternateName']);
    assert.equal(nameAgain!.json.data.attributes, { name: 'Bób Ünïcode 😀' });
    assert.is(page!.status, 200);
    assert.equal([bad!.status, badAgain!.status], [400, 400]);
  } finally {
    agent.destroy();
  }
});

node('should read a body that came with its head and one that came after it, on one keep-alive connection', async () => {
  const { port } = server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.setEncoding('latin1');
  let received = '';
  socket.on('data', (chunk: string) => (received += chunk));
  /** Waits for the next complete answer (head and Content-Length body) and takes it off what was received. */
  const answer = async (): Promise<{ status: number; body: string }> => {
    for (let waited = 0; ; waited += 5) {
      const end = received.indexOf('\r\n\r\n');
      const length = end < 0 ? undefined : Number(/content-length: (\d+)/i.exec(received.slice(0, end))?.[1] ?? 0);
      if (length !== undefined && received.length >= end + 4 + length) {
        const status = Number(received.slice(9, 12));
        const body = received.slice(end + 4, end + 4 + length);
        received = received.slice(end + 4 + length);
        return { status, body };
      }
      assert.ok(waited < 5000, 'no complete answer');
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const post = (alias: string) => {
    const body = JSON.stringify({ alternateName: alias });
    return { head: `POST /player/alice/friends HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer node-token\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body };
  };
  // The whole request in one write: the body is in the request's buffer when the service asks.
  const whole = post('whole');
  socket.write(whole.head + whole.body);
  const first = await answer();
  assert.is(first.status, 201);
  assert.is(JSON.parse(first.body).alias, 'whole');
  // The head first, the body 50 ms later, in two parts: read as it arrives.
  const late = post('late');
  socket.write(late.head);
  await new Promise((r) => setTimeout(r, 50));
  socket.write(late.body.slice(0, 5));
  await new Promise((r) => setTimeout(r, 20));
  socket.write(late.body.slice(5));
  const second = await answer();
  assert.is(second.status, 201);
  assert.is(JSON.parse(second.body).alias, 'late');
  // And the connection goes on.
  socket.write('GET /player/alice HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n');
  assert.is((await answer()).status, 200);
  socket.destroy();
});

node('should read a small body before asking the service, and answer a write in the turn its last byte arrives', async () => {
  const written: boolean[] = [];
  const listener = toNodeListener(service);
  const local = createServer((req, res) => {
    listener(req, res);
    // After every listener of the end of the body, before any promise they start settles: the adapter's
    // own (added later, when it reads the body) answers a write to the memory store at once.
    req.on('end', () => queueMicrotask(() => written.push(res.headersSent)));
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  const { port } = local.address() as AddressInfo;
  const send = (parts: string[]) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', async () => {
        for (const part of parts) {
          socket.write(part);
          await new Promise((r) => setTimeout(r, 20));
        }
      });
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        answer += chunk;
        const end = answer.indexOf('\r\n\r\n');
        if (end > 0 && answer.length >= end + 4 + Number(/content-length: (\d+)/i.exec(answer)?.[1] ?? 0)) socket.destroy();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  try {
    const created = await fetch(`http://127.0.0.1:${port}/player/read-first`, {
      method: 'PUT',
      headers: { authorization: 'Bearer node-token', 'content-type': 'application/json' },
      body: JSON.stringify({ playerId: 'read-first', alias: 'first' }),
    });
    assert.is(created.status, 201);
    const body = JSON.stringify([{ op: 'replace', path: '/alias', value: 'read-first' }, { op: 'add', path: '/displayName', value: 'Read First' }]);
    const head = `PATCH /player/read-first HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer node-token\r\nContent-Type: application/json-patch+json\r\nContent-Length: ${body.length}\r\n\r\n`;
    // The head, then the body in two parts: the request is not complete when the listener is called.
    const answer = await send([head, body.slice(0, 10), body.slice(10)]);
    assert.match(answer, /^HTTP\/1\.1 200 /, answer);
    assert.match(answer, /"displayName":"Read First"/);
    assert.equal(written.slice(1), [true], 'the answer was written before the next listener of the end of the body');
    // A client gone half-way through its body: nothing is answered to it, and the server goes on.
    const half = connect(port, '127.0.0.1', () => half.end(head + body.slice(0, 10)));
    half.resume();
    await new Promise((resolve) => half.on('close', resolve));
    const after = await fetch(`http://127.0.0.1:${port}/player/read-first`, { headers: { accept: 'application/json' } });
    assert.is(after.status, 200);
    assert.is((await after.json()).displayName, 'Read First');
  } finally {
    local.closeAllConnections();
    local.close();
  }
});

node('should give a fetch handler a small body read first as its Request body stream', async () => {
  const echo = toNodeListener({ fetch: async (request: Request) => new Response(`${request.method} ${await request.text()}`) });
  const local = createServer(echo);
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  const { port } = local.address() as AddressInfo;
  try {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', async () => {
        socket.write('PUT /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 11\r\nConnection: close\r\n\r\n');
        await new Promise((r) => setTimeout(r, 20));
        socket.end('hello world');
      });
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.ok(answer.endsWith('\r\n\r\nPUT hello world'), answer);
  } finally {
    local.closeAllConnections();
    local.close();
  }
});

node('should answer HEAD without a body and with the length of GET', async () => {
  const head = await fetch(`${origin}/player/alice`, { method: 'HEAD' });
  const get = await fetch(`${origin}/player/alice`);
  assert.is(head.status, 200);
  assert.is(head.headers.get('content-length'), get.headers.get('content-length'));
});

node('should pass a request body through as a stream', async () => {
  // No write route yet answers 2xx here; a POST on the player is 405, after the body was offered.
  const res = await fetch(`${origin}/player/alice`, { method: 'POST', body: '{"x":1}', headers: { 'Content-Type': 'application/json' } });
  assert.is(res.status, 405);
});

node('should answer 413 to a large streamed body without reading it all, and keep serving', async () => {
  const chunk = new Uint8Array(16 * 1024).fill(0x20);
  const limit = 64 * 1024 * 1024;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= limit) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const init = { method: 'POST', body, duplex: 'half', headers: { Authorization: 'Bearer node-token', 'Content-Type': 'application/json' } };
  const res = await fetch(`${origin}/player/alice/friends`, init as RequestInit);
  assert.is(res.status, 413);
  assert.is((await res.json()).status, 413);
  assert.ok(sent < limit / 4, `the client sent ${sent} bytes before the answer`);
  const created = await fetch(`${origin}/player/alice/friends`, { method: 'POST', body: '{"alternateName":"after"}', headers: init.headers });
  assert.is(created.status, 201);
  assert.is(created.headers.get('location'), `${origin}/player/${(await created.json()).playerId}`);
});

node('should write a kept answer with the same bytes as the computed one (200, HEAD, 304)', async () => {
  // Early in a second, so that both answers carry one Date.
  if (Date.now() % 1000 > 600) await new Promise((r) => setTimeout(r, 1005 - (Date.now() % 1000)));
  const get = (extra = '', method = 'GET') =>
    exchange(`${method} /player/bob/friends?page=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/vnd.siren+json\r\n${extra}Connection: close\r\n\r\n`);
  await exchange('GET /player/alice HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  const computed = await get();
  const headOf = { method: 'GET', url: `http://127.0.0.1/player/bob/friends?page=1`, headers: new Headers({ Accept: 'application/vnd.siren+json' }) };
  const answered = answererOf(service)!(headOf, () => {
    throw new Error('a kept answer needs no Request');
  });
  assert.not.instance(answered, Promise, 'the first answer is kept');
  const kept = await get();
  assert.is(kept, computed);
  assert.match(kept, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(kept, /\r\ncontent-length: \d+\r\n/);
  const etag = /\r\netag: ("[^"]+")\r\n/.exec(kept)![1]!;
  const notModified = await get(`If-None-Match: ${etag}\r\n`);
  assert.match(notModified, /^HTTP\/1\.1 304 Not Modified\r\n/);
  assert.ok(notModified.endsWith('\r\n\r\n'), 'no body');
  const head = await get('', 'HEAD');
  assert.is(head, kept.slice(0, kept.indexOf('\r\n\r\n') + 4));
});

node('should read header fields as Headers does, repeated ones included', async () => {
  const seen: { pairs: string[]; read: Record<string, string | null> }[] = [];
  const names = ['host', 'accept', 'authorization', 'if-modified-since', 'x-a', 'cookie', 'missing'];
  const probe = createServer((req, res) => {
    const head = toRequestHead(req);
    seen.push({ pairs: [...req.rawHeaders], read: Object.fromEntries(names.map((n) => [n, head.headers.get(n)])) });
    res.end();
  });
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  const send = (fields: string) =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(`GET / HTTP/1.1\r\n${fields}Connection: close\r\n\r\n`));
      socket.on('data', () => undefined).on('end', resolve).on('error', reject);
    });
  await send('Host: a.test\r\nAccept: application/hal+json\r\nCookie: c=1\r\n');
  // Repeated fields: Node keeps the first Authorization and If-Modified-Since, Headers joins them all.
  await send('Host: a.test\r\nAccept: a/b\r\naccept: c/d\r\nAuthorization: Bearer one\r\nAuthorization: Bearer two\r\n' +
    'If-Modified-Since: Sat, 21 Nov 2026 00:00:00 GMT\r\nIf-Modified-Since: x\r\nX-A:  1 \r\nx-a: 2\r\n');
  probe.close();
  assert.is(seen.length, 2);
  for (const { pairs, read } of seen) {
    const reference = new Headers();
    for (let i = 0; i < pairs.length; i += 2) reference.append(pairs[i]!, pairs[i + 1]!);
    for (const name of names) assert.is(read[name], reference.get(name), name);
  }
  assert.is(seen[1]!.read.authorization, 'Bearer one, Bearer two');
});

node('should read a Bearer token as RFC 6750 writes it over one keep-alive connection: any case, several spaces, nothing looser', async () => {
  // Pipelined in one packet on one connection; Node's parser drops the white space around a field value.
  const patch = (authorization: string, alias: string, close = false) => {
    const body = JSON.stringify({ alias });
    return `PATCH /player/bob HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${authorization}\r\nContent-Type: application/merge-patch+json\r\n` +
      `Content-Length: ${body.length}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`;
  };
  const answer = await exchange(
    patch('bearer   node-token  ', 'bob-1') + patch('BEARER node-token', 'bob-2') + patch('Bearer node-token x', 'bob-3') +
      patch('Bearer\tnode-token', 'bob-4') + patch('Bearer node-tokens', 'bob-5', true),
  );
  assert.equal([...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => m[1]), ['200', '200', '401', '401', '401']);
  // The refused ones changed nothing.
  const after = await exchange('GET /player/bob HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\nConnection: close\r\n\r\n');
  assert.match(after, /"alias":"bob-2"/);
});

node('should answer 400, not 500, when Host and target do not form a URL', async () => {
  const answer = await exchange('GET /player/alice HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n');
  assert.match(answer, /^HTTP\/1\.1 400 /);
  assert.match(answer, /application\/problem\+json/);
  // A Host with userinfo (RFC 9112 section 3.2 has none), with and without credentials.
  for (const extra of ['', 'Authorization: Bearer node-token\r\n']) {
    const userinfo = await exchange(`GET /player/alice HTTP/1.1\r\nHost: u@a.test\r\n${extra}Connection: close\r\n\r\n`);
    assert.match(userinfo, /^HTTP\/1\.1 400 /, extra);
  }
});

node('should read a raw target as URL does: dot segments, encoded dots, characters it encodes', async () => {
  // Targets the WHATWG URL parser rewrites are parsed by it (src/core/http/request-target.ts); plain ones are read as they are.
  const statusOf = async (target: string) => /^HTTP\/1\.1 (\d{3}) /.exec(await exchange(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`))?.[1];
  assert.is(await statusOf('/player/nobody/../alice'), '200');
  assert.is(await statusOf('/player/x/%2e%2E/alice'), '200');
  assert.is(await statusOf('/player/./alice'), '200');
  assert.is(await statusOf('/player/alice/friends?page=2'), '200');
  assert.is(await statusOf('/player/alice/friends?page=9999'), '404');
  assert.is(await statusOf('/player/alice/friends?page=2&page=3'), '400');
  assert.is(await statusOf('/player/../../player/alice'), '200');
  // The same page read through a dot segment and directly: the same body.
  const direct = await exchange('GET /player/alice/friends?page=2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/hal+json\r\nConnection: close\r\n\r\n');
  const dotted = await exchange('GET /player/x/../alice/friends?page=2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/hal+json\r\nConnection: close\r\n\r\n');
  assert.is(dotted.slice(dotted.indexOf('\r\n\r\n')), direct.slice(direct.indexOf('\r\n\r\n')));
});

node.run();
