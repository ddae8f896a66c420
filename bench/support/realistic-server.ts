// A server process of bench/realistic: the library or the hand-written baseline over the same data set,
// on node:http, with a control port reporting the process's CPU time. Prints {"ready", port, controlPort}.
// Environment: BENCH_SIDE (library | baseline), BENCH_PAGE_SIZE, BENCH_OPTIONS (JSON options of the library),
// BENCH_DATABASE_URL (PostgreSQL, seeded by the parent: both sides then read and write it; else memory),
// BENCH_SCHEMA (the library's schema there), BENCH_PROFILE (see below).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { bearerTokens, createPlayerService, MemoryPlayerStore, type PlayerServiceOptions } from '../../src/index.js';
import { toNodeListener } from '../../src/adapters/node.js';
import { PostgresPlayerStore } from '../../src/stores/postgres/index.js';
import { baselineListener } from './realistic-baseline.js';
import { pgBaselineListener } from './realistic-baseline-pg.js';
import { LIBRARY_SCHEMA } from './realistic-library-pg.js';
import { BASE_URL, TOKEN, seedPlayers } from './realistic-data.js';

const side = process.env.BENCH_SIDE ?? 'library';
const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? 10);
const options = JSON.parse(process.env.BENCH_OPTIONS ?? '{}') as Partial<PlayerServiceOptions>;
const databaseUrl = process.env.BENCH_DATABASE_URL;

async function libraryListener(): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  let store: MemoryPlayerStore | PostgresPlayerStore;
  if (databaseUrl) store = new PostgresPlayerStore({ connectionString: databaseUrl, schema: process.env.BENCH_SCHEMA ?? LIBRARY_SCHEMA, ...(process.env.BENCH_WRITES_IN_FLIGHT ? { writesInFlight: Number(process.env.BENCH_WRITES_IN_FLIGHT) } : {}) });
  else {
    store = new MemoryPlayerStore();
    await seedPlayers(store);
  }
  const service = createPlayerService({ baseUrl: BASE_URL, store, pageSize, authenticate: bearerTokens([TOKEN]), ...options });
  return toNodeListener(service);
}

const listener =
  side !== 'baseline' ? await libraryListener() : databaseUrl ? pgBaselineListener(databaseUrl, pageSize) : baselineListener(pageSize);

const listen = (handler: (req: IncomingMessage, res: ServerResponse) => void) =>
  new Promise<number>((resolve) => {
    const server = createServer(handler);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

const port = await listen(listener);
// With BENCH_PROFILE (bench/profile.ts), the control port also starts and stops V8's CPU profiler
// (sampling every BENCH_PROFILE microseconds): /profile/start, then /profile/stop answers the profile.
const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE) });
}
const controlPort = await listen((req, res) => {
  if (profiler && req.url === '/profile/start') return void profiler.post('Profiler.start').then(() => res.end('{}'));
  if (profiler && req.url === '/profile/stop') return void profiler.post('Profiler.stop').then(({ profile }) => res.end(JSON.stringify(profile)));
  const { user, system } = process.cpuUsage();
  res.end(JSON.stringify({ cpu: user + system, rss: process.memoryUsage().rss }));
});
console.log(JSON.stringify({ ready: true, port, controlPort }));
process.on('SIGTERM', () => process.exit(0));
