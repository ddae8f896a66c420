// bench/realistic's hand-written baseline builds the library's bytes: the same status, body and header
// fields for the sample reads in all eight formats, a missing player, each kind of write and a stale
// If-Match (bench/support/realistic-parity.ts, which the bench itself runs before it measures).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerTokens, createPlayerService, MemoryPlayerStore } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { baselineListener } from '../bench/support/realistic-baseline.js';
import { checkSameAnswers, differences } from '../bench/support/realistic-parity.js';
import { BASE_URL, PLAYERS, TOKEN, friendIndexes, playerId, seedPlayer } from '../bench/support/realistic-data.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(listener: Listener): Promise<{ port: number; close: () => void }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

async function libraryListener(): Promise<Listener> {
  const store = new MemoryPlayerStore();
  for (let i = 0; i < PLAYERS; i++) await store.putPlayer(seedPlayer(i));
  for (let i = 0; i < PLAYERS; i++) for (const f of friendIndexes(i)) await store.addFriend(playerId(i), playerId(f));
  return toNodeListener(createPlayerService({ baseUrl: BASE_URL, store, pageSize: 10, authenticate: bearerTokens([TOKEN]) }));
}

const parity = suite('bench/realistic: the baseline answers as the library does');

parity('should give the same status, body and header fields for every sample read and write', async () => {
  const [baseline, library] = [await listen(baselineListener(10)), await listen(await libraryListener())];
  try {
    await checkSameAnswers(baseline.port, library.port);
  } finally {
    baseline.close();
    library.close();
  }
});

parity('should name a field one side leaves out, a value that differs, and a body that differs', () => {
  const seen = (fields: [string, string][], body = '{}') => ({ status: 200, body, fields: new Map(fields) });
  const lib = seen([['link', '<a>; rel="self"'], ['etag', '"1-x"'], ['date', 'Sat, 05 Dec 2026 08:42:56 GMT']]);
  assert.equal(differences(seen([['link', '<a>; rel="self"'], ['etag', '"9-j"'], ['date', 'Sat, 05 Dec 2026 08:43:00 GMT']]), lib, undefined), []);
  assert.equal(differences(seen([['etag', '"9-j"'], ['date', 'Sat, 05 Dec 2026 08:43:00 GMT']]), lib, undefined), ['link: (none) / <a>; rel="self"']);
  assert.equal(differences(seen([['link', '<b>; rel="self"'], ['etag', '"9-j"'], ['date', 'yesterday']]), lib, undefined), ['link: <b>; rel="self" / <a>; rel="self"', 'date: yesterday / Sat, 05 Dec 2026 08:42:56 GMT']);
  assert.equal(differences(seen([], '{"id":"u1"}'), seen([], '{"id":"u2"}'), ['u1', 'u2']), []);
  assert.equal(differences(seen([], '{"id":"u1"}'), seen([], '{"id":"u3"}'), ['u1', 'u2']).length, 1);
});

parity.run();
