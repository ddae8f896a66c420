// bench/conditional: a 304 revalidation against a full 200 of the same 50-friend HAL page, same run,
// through service.fetch and over HTTP (server CPU per request, measured in a server child process).
// Goal (issue 5): the 304 path at least 1.5x cheaper than the 200 path. The service's own caches (kept
// answers, rendered bodies by ETag) are off here, so that the 200 renders as on a first request: what is
// measured is what a revalidation spares. With them on, a repeated 200 costs about what a 304 does
// (reported at the end, in process).
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { createPlayerService, MemoryPlayerStore } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { compareAsync, median, report } from './support/measure.js';

const BASE = 'https://api.example.com';
const HAL = 'application/hal+json';
const PATH = '/player/owner/friends?page=1';

async function fiftyFriendService(baseUrl: string, ownCaches = false) {
  const store = new MemoryPlayerStore();
  await store.putPlayer({ playerId: 'owner', alias: 'owner', displayName: 'Page Owner' });
  for (let i = 0; i < 50; i++) {
    await store.createFriend('owner', { playerId: `friend-${i}`, alias: `friend${i}`, displayName: `Friend Number ${i}` });
  }
  const caches = ownCaches ? {} : { memoizeAnswers: false, bodyCacheBytes: 0 };
  return createPlayerService({ baseUrl, store, pageSize: 50, ...caches });
}

/** In the child: serve the page over node:http, report the port, answer CPU-usage queries. */
async function serve(): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(await fiftyFriendService(origin)));
  process.on('message', (m) => {
    if (m === 'cpu') process.send!(process.cpuUsage());
    if (m === 'stop') server.close(() => process.exit(0)), server.closeAllConnections();
  });
  process.send!({ origin });
}

async function inProcess(ownCaches = false): Promise<number> {
  const service = await fiftyFriendService(BASE, ownCaches);
  const url = BASE + PATH;
  const first = await service.fetch(new Request(url, { headers: { Accept: HAL } }));
  const etag = first.headers.get('etag')!;
  const body = await first.text();
  const items = (JSON.parse(body) as { _embedded: { player: unknown[] } })._embedded.player.length;
  const check = await service.fetch(new Request(url, { headers: { Accept: HAL, 'If-None-Match': etag } }));
  if (first.status !== 200 || items !== 50 || check.status !== 304) throw new Error('bench/conditional: setup is wrong');
  console.log(`50-friend HAL page: ${body.length} bytes; ETag ${etag}`);
  const { wall, cpu } = await compareAsync(
    [
      { name: '200 full page', run: async () => (await service.fetch(new Request(url, { headers: { Accept: HAL } }))).text() },
      { name: '304 revalidation', run: async () => (await service.fetch(new Request(url, { headers: { Accept: HAL, 'If-None-Match': etag } }))).text() },
    ],
    { rounds: Number(process.env.ROUNDS ?? 9), iterations: Number(process.env.ITERATIONS ?? 1000), warmup: 500 },
  );
  const label = ownCaches ? 'service.fetch with its own caches on' : 'service.fetch';
  report(`${label}, wall time`, wall, '304 revalidation');
  report(`${label}, CPU time`, cpu, '304 revalidation');
  return cpu.get('200 full page')! / cpu.get('304 revalidation')!;
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

async function overHttp(): Promise<number> {
  const child = fork(new URL(import.meta.url).pathname, ['--server'], { execArgv: ['--import', 'tsx'] });
  const { origin } = await new Promise<{ origin: string }>((resolve) => child.once('message', (m) => resolve(m as { origin: string })));
  const pool = new Pool(origin, { connections: 8 });
  const get = async (headers: Record<string, string>) => {
    const res = await pool.request({ path: PATH, method: 'GET', headers });
    await res.body.arrayBuffer();
    return res;
  };
  const etag = (await get({ accept: HAL })).headers.etag as string;
  const requests = Number(process.env.HTTP_REQUESTS ?? 2000);
  const concurrency = 8;
  const candidates: { name: string; headers: Record<string, string> }[] = [
    { name: '200 full page', headers: { accept: HAL } },
    { name: '304 revalidation', headers: { accept: HAL, 'if-none-match': etag } },
  ];
  const cpu = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  const rps = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  const batch = async (headers: Record<string, string>, n: number) => {
    let left = n;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await get(headers);
    }));
  };
  for (const c of candidates) await batch(c.headers, 500);
  for (let r = 0; r < Number(process.env.HTTP_ROUNDS ?? 7); r++) {
    for (const c of candidates) {
      const before = await ask<NodeJS.CpuUsage>(child, 'cpu');
      const start = performance.now();
      await batch(c.headers, requests);
      const seconds = (performance.now() - start) / 1000;
      const after = await ask<NodeJS.CpuUsage>(child, 'cpu');
      cpu.get(c.name)!.push((after.user - before.user + after.system - before.system) / requests);
      rps.get(c.name)!.push(requests / seconds);
    }
  }
  await pool.close();
  child.send('stop');
  const cpuMedians = new Map([...cpu].map(([n, l]) => [n, median(l)]));
  report('over HTTP (node:http, 8 connections), server CPU per request', cpuMedians, '304 revalidation');
  console.log('  requests/second (median):', [...rps].map(([n, l]) => `${n} ${median(l).toFixed(0)}`).join(', '));
  return cpuMedians.get('200 full page')! / cpuMedians.get('304 revalidation')!;
}

if (process.argv.includes('--server')) {
  await serve();
} else {
  const fetchRatio = await inProcess();
  const httpRatio = await overHttp();
  console.log(`\nthe 304 path costs ${fetchRatio.toFixed(2)}x less CPU than the 200 path through service.fetch, ` +
    `${httpRatio.toFixed(2)}x less server CPU over HTTP (goal: at least 1.5x)`);
  const kept = await inProcess(true);
  console.log(`with the service's own caches on (kept answers, rendered bodies), a repeated 200 costs ${kept.toFixed(2)}x a 304`);
}
