import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';

// toNodeListener answers in the check phase of the turn a request arrived in (docs/decisions.md, "The
// HTTP edge"): the requests that came together are all read before the first is answered, and a small
// body sent with its head is taken from the request's buffer.
const checkPhase = suite('toNodeListener: answers in the check phase of the turn');

/** What happened, in order: `request <path>` as each request arrives, `answer <path>` as its head is written. */
let events: string[];
/** The events each request was listened for by the adapter (`data`, `end`...). */
let listened: Map<string, string[]>;
let server: Server;

checkPhase.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const listener = toNodeListener(createPlayerService({ baseUrl: origin, store, authenticate: bearerTokens(['check-token']) }));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    events.push(`request ${path}`);
    const names: string[] = [];
    listened.set(path, names);
    const on = req.on.bind(req);
    req.on = ((name: string | symbol, fn: (...args: any[]) => void) => (names.push(String(name)), on(name, fn))) as typeof req.on;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => (events.push(`answer ${path}`), writeHead(...args))) as typeof res.writeHead;
    listener(req, res);
  });
});

checkPhase.before.each(() => {
  events = [];
  listened = new Map();
});

checkPhase.after(() => {
  server.closeAllConnections();
  server.close();
});

/** Sends `bytes` in one write on a new connection and reads until `count` answers are complete. */
function send(bytes: string, count: number): Promise<string> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if ((text.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === count && complete(text, count)) socket.destroy();
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

/** Whether the last of `count` answers in `text` has all its body (Content-Length). */
function complete(text: string, count: number): boolean {
  const start = text.split(/(?=HTTP\/1\.1 \d{3} )/)[count - 1]!;
  const head = start.indexOf('\r\n\r\n');
  return head > 0 && start.length >= head + 4 + Number(/content-length: (\d+)/i.exec(start)?.[1] ?? 0);
}

checkPhase('reads every request of a packet before answering the first', async () => {
  const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`;
  const text = await send(get('/player/alice') + get('/player/bob'), 2);
  assert.is((text.match(/HTTP\/1\.1 200 /g) ?? []).length, 2, text);
  assert.equal(events, ['request /player/alice', 'request /player/bob', 'answer /player/alice', 'answer /player/bob']);
});

checkPhase('takes a small body sent with its head from the request, listening for none of it', async () => {
  const body = JSON.stringify([{ op: 'replace', path: '/alias', value: 'checked' }]);
  const head = `PATCH /player/alice HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer check-token\r\nContent-Type: application/json-patch+json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const text = await send(head + body, 1);
  assert.match(text, /^HTTP\/1\.1 200 /);
  assert.match(text, /"alias":"checked"/);
  assert.not.ok(listened.get('/player/alice')!.includes('data'), `listened for ${listened.get('/player/alice')!.join(', ')}`);
});

checkPhase('still reads a body that comes after its head', async () => {
  const body = JSON.stringify([{ op: 'replace', path: '/alias', value: 'later' }]);
  const head = `PATCH /player/bob HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer check-token\r\nContent-Type: application/json-patch+json\r\nContent-Length: ${body.length}\r\n\r\n`;
  const { port } = server.address() as AddressInfo;
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', async () => {
      socket.write(head);
      await new Promise((r) => setTimeout(r, 30));
      socket.write(body);
    });
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      got += chunk;
      if (complete(got, 1)) socket.destroy();
    });
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
  assert.match(text, /^HTTP\/1\.1 200 /);
  assert.match(text, /"alias":"later"/);
  assert.ok(listened.get('/player/bob')!.includes('data'));
});

checkPhase.run();
