// The server process of bench/http: the service on one port, a raw node:http server replaying its exact bytes on another.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerStore } from '../../src/index.js';
import { toNodeListener } from '../../src/adapters/node.js';

/** A request the raw server answers with the bytes the service gave for it at start-up. */
export interface RawTarget {
  path: string;
  headers: Record<string, string>;
}

const BASE = 'http://bench.test';
const targets = JSON.parse(process.env.BENCH_RAW ?? '[]') as RawTarget[];

async function openStore(): Promise<PlayerStore> {
  if (process.env.BENCH_STORE !== 'postgres') {
    const store = new MemoryPlayerStore();
    await seedDemoData(store);
    return store;
  }
  const { PostgresPlayerStore } = await import('../../src/stores/postgres/index.js');
  return new PostgresPlayerStore({ connectionString: process.env.DATABASE_URL, schema: process.env.BENCH_SCHEMA });
}

const keyOf = (url: string, headers: Record<string, string | string[] | undefined>) =>
  `${url}|${headers['accept'] ?? ''}|${headers['if-none-match'] ?? ''}`;

const store = await openStore();
const service = createPlayerService({ baseUrl: BASE, store });
// The same service computing every answer (no answer memo; the body cache stays on), for comparison.
const computing = createPlayerService({ baseUrl: BASE, store, memoizeAnswers: false });
// The raw answers: status, header lines and body bytes, computed once.
const raw = new Map<string, { status: number; headers: string[]; body: Buffer }>();
for (const t of targets) {
  const response = await service.fetch(new Request(BASE + t.path, { headers: t.headers }));
  const body = Buffer.from(await response.arrayBuffer());
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(name, value));
  if (response.status !== 304) headers.push('content-length', String(body.byteLength));
  const lower = Object.fromEntries(Object.entries(t.headers).map(([k, v]) => [k.toLowerCase(), v]));
  raw.set(keyOf(t.path, lower), { status: response.status, headers, body });
}

function rawListener(req: IncomingMessage, res: ServerResponse): void {
  const hit = raw.get(keyOf(req.url ?? '/', req.headers));
  if (!hit) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(hit.status, hit.headers);
  res.end(hit.status === 304 ? undefined : hit.body);
}

const listen = (listener: (req: IncomingMessage, res: ServerResponse) => void) =>
  new Promise<number>((resolve) => {
    const server = createServer(listener);
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

const servicePort = await listen(toNodeListener(service));
const computedPort = await listen(toNodeListener(computing));
const rawPort = await listen(rawListener);
// The control port: this process's CPU time (microseconds), so the bench can charge each run its CPU cost.
const controlPort = await listen((_req, res) => {
  const { user, system } = process.cpuUsage();
  res.end(String(user + system));
});
console.log(JSON.stringify({ ready: true, servicePort, computedPort, rawPort, controlPort }));
process.on('SIGTERM', () => process.exit(0));
