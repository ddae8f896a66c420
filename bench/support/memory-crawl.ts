// One process of bench/memory: the library on a store of 20,000 players with 10 friends each (the
// memory store, or PostgreSQL with MEMORY_DATABASE_URL), crawled in-process over distinct URLs in every
// format, touching every player; prints the heap after GC at each checkpoint as JSON lines. Run with
// --expose-gc. Environment: MEMORY_OPTIONS (JSON options of the library, plus "compression": "br" for the
// Node codings), MEMORY_CHECKPOINTS (comma-separated counts), MEMORY_DATABASE_URL and MEMORY_SEED_ONLY
// (seed the PostgreSQL schema, once, and exit).
import pg from 'pg';
import { createPlayerService, MemoryPlayerStore, type PlayerServiceOptions, type PlayerStore } from '../../src/index.js';
import { PostgresPlayerStore } from '../../src/stores/postgres/index.js';
import { answererOf } from '../../src/core/service/answerer.js';
import { nodeContentCodings } from '../../src/adapters/node-codings.js';
import { BASE_URL, seedPlayer } from './realistic-data.js';

/** Players in the store: enough that what is kept per player would show beside the caches' budgets. */
const PLAYERS = 20_000;
const FRIENDS = 10;
const playerId = (i: number): string => `p${String(i).padStart(5, '0')}`;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const given = JSON.parse(process.env.MEMORY_OPTIONS ?? '{}') as Partial<PlayerServiceOptions> & { compression?: unknown };
const checkpoints = (process.env.MEMORY_CHECKPOINTS ?? '10000,100000,1000000').split(',').map(Number);

/** Every media type the service serves: a crawler asks for each. */
const ACCEPTS = [
  'application/json',
  'application/hal+json',
  'application/prs.hal-forms+json',
  'application/ld+json',
  'application/vnd.collection+json',
  'application/vnd.siren+json',
  'application/vnd.api+json',
  'text/html',
];

/** The i-th URL of the crawl and its Accept: a resource of one of the players, in one format, with a query of its own. */
function target(i: number): { url: string; accept: string } {
  // Consecutive URLs name players far apart: the crawl reaches every player early.
  const player = playerId((i * 7919) % PLAYERS);
  const accept = ACCEPTS[(i >> 3) % ACCEPTS.length]!;
  const kinds = [
    `/player/${player}?crawl=${i}`,
    `/player/${player}/friends?page=1&crawl=${i}`,
    `/player/${player}/friends/search?search=alias-${i % 7}&crawl=${i}`,
    `/player/${player}/relationships/friends?crawl=${i}`,
  ];
  return { url: `${BASE_URL}${kinds[(i >> 6) % kinds.length]}`, accept };
}

function memory(): number {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** The schema of the PostgreSQL crawl, seeded once by the parent (MEMORY_SEED_ONLY). */
const SCHEMA = 'bench_memory';
const databaseUrl = process.env.MEMORY_DATABASE_URL;

/** The data set through the store's own API: players first, then each list, 16 lists at a time. */
async function seed(store: PlayerStore): Promise<void> {
  for (let i = 0; i < PLAYERS; i += 100) await Promise.all(Array.from({ length: 100 }, (_, k) => store.putPlayer({ ...seedPlayer(i + k), playerId: playerId(i + k) })));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < PLAYERS; i = next++) for (let k = 0; k < FRIENDS; k++) await store.addFriend(playerId(i), playerId((i + 1 + k * 1999) % PLAYERS));
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

let store: PlayerStore;
if (databaseUrl !== undefined) {
  if (process.env.MEMORY_SEED_ONLY) {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin.end();
    const seeding = new PostgresPlayerStore({ connectionString: databaseUrl, schema: SCHEMA, watchChanges: false, poolConfig: { max: 16 } });
    await seeding.migrate();
    await seed(seeding);
    await seeding.close();
    process.exit(0);
  }
  // The change feed on: without it the service keeps nothing for this store.
  store = new PostgresPlayerStore({ connectionString: databaseUrl, schema: SCHEMA });
} else {
  store = new MemoryPlayerStore();
  await seed(store);
}
const options: Partial<PlayerServiceOptions> = { ...given };
if ((given.compression as unknown) === 'br') options.compression = { codings: nodeContentCodings() };
const service = createPlayerService({ baseUrl: BASE_URL, store, ...options } as PlayerServiceOptions);
const answer = answererOf(service)!;

async function get(i: number): Promise<number> {
  const { url, accept } = target(i);
  const headers = new Headers({ accept, 'accept-encoding': 'br, gzip' });
  const a = await answer({ method: 'GET', url, headers }, () => new Request(url, { headers }));
  return a.status;
}

// Warm up on URLs the crawl never asks (code compiled, the store's own structures made), then the base.
for (let i = 0; i < 2000; i++) await get(-1 - i);
const base = memory();
console.log(JSON.stringify({ base }));
let done = 0;
for (const checkpoint of checkpoints) {
  for (; done < checkpoint; done++) {
    const status = await get(done);
    if (status >= 500) throw new Error(`${target(done).url}: ${status}`);
    // Each URL is asked again 64 URLs later: kept answers are used, so keeping them pays and the
    // caches stay full (the worst case for memory), as under a crawler that revisits.
    if (done >= 64) await get(done - 64);
  }
  const memo = service.config.answerMemo?.stats;
  const bodies = service.config.bodyCache?.stats;
  console.log(JSON.stringify({ urls: checkpoint, heap: memory(), memoBytes: memo?.bytes ?? 0, memoEntries: memo?.size ?? 0, bodyBytes: bodies?.bytes ?? 0 }));
}
if (databaseUrl !== undefined) {
  await (store as PostgresPlayerStore).close();
  process.exit(0);
}
