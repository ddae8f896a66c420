// bench/realistic's hand-written baselines build the library's bytes: the same status, body and header
// fields for the sample reads in all eight formats, a missing player, each kind of write and a stale
// If-Match (bench/support/realistic-parity.ts, which the bench itself runs before it measures), on the
// memory store and, with TEST_DATABASE_URL, on PostgreSQL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { bearerTokens, createPlayerService, MemoryPlayerStore, type PlayerStore } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { baselineListener } from '../bench/support/realistic-baseline.js';
import { BASELINE_SCHEMA, pgBaselineListener, seedBaseline } from '../bench/support/realistic-baseline-pg.js';
import { seedLibrary } from '../bench/support/realistic-library-pg.js';
import { checkSameAnswers, differences } from '../bench/support/realistic-parity.js';
import { BASE_URL, TOKEN, seedPlayers } from '../bench/support/realistic-data.js';
import { noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

async function listen(listener: Listener): Promise<{ port: number; close: () => void }> {
  const server = createServer(listener);
  // Over keep-alive connections, as the bench's load is.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}

const libraryListener = (store: PlayerStore): Listener =>
  toNodeListener(createPlayerService({ baseUrl: BASE_URL, store, pageSize: 10, authenticate: bearerTokens([TOKEN]) }));

/** Both listeners served, the comparison run, both servers closed. */
async function compare(baseline: Listener, library: Listener): Promise<void> {
  const [a, b] = [await listen(baseline), await listen(library)];
  try {
    await checkSameAnswers(a.port, b.port);
  } finally {
    a.close();
    b.close();
  }
}

const parity = suite('bench/realistic: the baseline answers as the library does');

parity('should give the same status, body and header fields for every sample read and write (memory)', async () => {
  const store = new MemoryPlayerStore();
  await seedPlayers(store);
  await compare(baselineListener(10), libraryListener(store));
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

const LIBRARY = 'bench_parity_library';
const onPostgres = POSTGRES_SKIP ? parity.skip : parity;
noteSkip();

onPostgres('should give the same status, body and header fields for every sample read and write (PostgreSQL)', async () => {
  const url = TEST_DATABASE_URL!;
  await Promise.all([seedBaseline(url), seedLibrary(url, LIBRARY)]);
  const store = new PostgresPlayerStore({ connectionString: url, schema: LIBRARY });
  const baseline = pgBaselineListener(url, 10, 2);
  try {
    await compare(baseline, libraryListener(store));
  } finally {
    await store.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${LIBRARY} CASCADE; DROP SCHEMA IF EXISTS ${BASELINE_SCHEMA} CASCADE`);
    await admin.end();
  }
});

parity.run();
