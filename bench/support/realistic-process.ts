// The server processes of bench/realistic and bench/warmup: compiled with tsc, started alone on core 0
// (the load generator on core 1), measured with autocannon and the process's own CPU time.
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import type { Load } from './realistic-loads.js';

// Both servers run as tsc compiles them, as the package ships (dist/): not through tsx, whose
// transform adds work of its own (a name helper around every function made at run time).
const ROOT = new URL('../..', import.meta.url).pathname;
const BUILD = `${ROOT}node_modules/.cache/bench-build`;
const SERVER = `${BUILD}/bench/support/realistic-server.js`;

/** Compiles both servers (once per bench process) and pins the bench itself to core 1. */
export function compileServers(): void {
  const built = spawnSync(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', `${ROOT}bench/tsconfig.json`], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('bench: compiling the servers with tsc failed');
  if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
}

/** Whether taskset pins the processes (servers on core 0, load on core 1). */
export const hasTaskset = spawnSync('taskset', ['-V']).status === 0;

/** A server to measure: the baseline, or the library with some options. */
export interface Side {
  name: string;
  env: Record<string, string>;
  /** More environment for round `r` (PostgreSQL: the schema this side reads in that round). */
  envOf?: (r: number) => Record<string, string>;
  /** Another tsc build of this repository to run instead (by hand: two versions side by side). */
  build?: string;
}

export interface Running {
  port: number;
  controlPort: number;
  child: ChildProcess;
}

/** The hand-written baseline. */
export const baselineSide: Side = { name: 'baseline', env: { BENCH_SIDE: 'baseline' } };

/** The library with `options` (createPlayerService's, as JSON), shown as `name`. */
export const librarySide = (name: string, options: object): Side => ({ name, env: { BENCH_SIDE: 'library', BENCH_OPTIONS: JSON.stringify(options) } });

/** The side as it runs in round `r`. */
export const inRound = (side: Side, r: number): Side => (side.envOf ? { ...side, env: { ...side.env, ...side.envOf(r) } } : side);

/** Starts a server process for `side` with lists of `pageSize`, resolved once it listens. */
export function start(side: Side, pageSize: number): Promise<Running> {
  const args = [side.build === undefined ? SERVER : `${side.build}/bench/support/realistic-server.js`];
  const env = { ...process.env, ...side.env, BENCH_PAGE_SIZE: String(pageSize) };
  const child = hasTaskset
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"ready"'));
      if (line) resolve({ ...(JSON.parse(line) as { port: number; controlPort: number }), child });
    });
    child.once('exit', (code) => reject(new Error(`${side.name} server exited with ${code}`)));
  });
}

/** Stops a server process and waits for it to exit. */
export async function stop(server: Running): Promise<void> {
  await new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', resolve);
    server.child.kill('SIGTERM');
  });
}

export const cpuOf = async (server: Running) => ((await (await fetch(`http://127.0.0.1:${server.controlPort}/`)).json()) as { cpu: number }).cpu;

export interface Sample {
  rps: number;
  p99: number;
  cpu: number;
  seconds: number;
  /** The database's CPU per request over the same seconds, when `measure` was given a way to read it. */
  db?: number;
}

/**
 * Runs `load` against a server for `seconds`; any answer the load does not expect is an error.
 * `databaseCpu` (e.g. `postgresCpuMicros`) is read around the load for the database's CPU per request.
 */
export async function measure(server: Running, load: Load, seconds: number, databaseCpu?: () => number | undefined): Promise<Sample> {
  const dbBefore = databaseCpu?.();
  const before = await cpuOf(server);
  const result = await autocannon({ url: `http://127.0.0.1:${server.port}`, connections: load.connections, duration: seconds, requests: load.requests as never });
  const cpu = (await cpuOf(server)) - before;
  let answered = 0;
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) if (load.ok(Number(status))) answered += stats?.count ?? 0;
  if (result.errors || result.timeouts || answered !== result.requests.total) {
    throw new Error(`${load.name}: unexpected answers ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const dbAfter = dbBefore === undefined ? undefined : databaseCpu?.();
  const sample: Sample = { rps: result.requests.total / result.duration, p99: result.latency.p99, cpu: cpu / result.requests.total, seconds: result.duration };
  if (dbBefore !== undefined && dbAfter !== undefined) sample.db = (dbAfter - dbBefore) / result.requests.total;
  return sample;
}

