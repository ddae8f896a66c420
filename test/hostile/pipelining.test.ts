// Pipelined requests (RFC 9112 section 9.3.2) on createNodeServer: answers in the order of the
// requests, and a malformed request after valid ones gets its 400 only after their answers.
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../../src/index.js';
import { createNodeServer, toNodeListener } from '../../src/adapters/node.js';
import { RawConnection } from '../support/raw-http.js';

const pipelining = suite('pipelined requests on createNodeServer');
let origin = '';
let server: ReturnType<typeof createNodeServer>;

pipelining.before(async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  server = createNodeServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Nothing kept: every answer is computed while the next requests are already parsed; the memory store
  // reads at once, so the page and the player are answered synchronously, the search asynchronously.
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store, memoizeAnswers: false, bodyCacheBytes: 0 })));
});
pipelining.after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

for (const [name, garbage] of [
  ['a request line that is not HTTP', 'GARBAGE \x01\r\n\r\n'],
  ['a header field without a colon', 'GET /player/bob HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
  ['two Content-Length values', 'POST /player/bob/friends HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
] as const) {
  pipelining(`should answer the valid requests before ${name} first, in order, then 400 and close`, async () => {
    const c = await RawConnection.open(origin);
    const valid = ['/player/alice/friends?page=2', '/player/bob', '/player/alice/friends/search?search=a'];
    const bytes = Buffer.concat([...valid.map((target) => c.format({ method: 'GET', target, headers: [['Accept', 'application/hal+json']] })), Buffer.from(garbage, 'latin1')]);
    c.send(bytes, 'GET');
    for (let i = 1; i < valid.length + 1; i++) c.send(Buffer.alloc(0), 'GET');
    for (const target of valid) {
      const answer = await c.next();
      assert.is(answer.status, 200, target);
      assert.match(JSON.parse(answer.body.toString())._links.self.href, target.split('?')[0]!, 'the answer to this request, in order');
    }
    const bad = await c.next();
    assert.is(bad.status, 400);
    assert.is(bad.headers['content-type'], 'application/problem+json');
    assert.ok(await c.closed());
    c.close();
  });
}

pipelining.run();
