// Test helper: the packed library installed into a scratch consumer, served by Bun, Deno and workerd
// (each from its npm package), every one running the same worker module.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from './child-server.js';

/** The scratch consumer: inside the repository, so the library's dependencies resolve from its node_modules. */
export const CONSUMER = join(ROOT, '.scratch', 'runtime-consumer');

/** The token the worker accepts for writes. */
export const RUNTIME_TOKEN = 'runtime-token';

/** The base URL of the worker's links, the same on every runtime (so bodies and ETags compare byte for byte). */
export const RUNTIME_BASE_URL = 'http://api.runtime.test';

/**
 * The module every runtime serves, written as the README shows it: the demo service over the packed
 * `player-hypermedia`, its `fetch` handed to the runtime unbound.
 */
const SERVICE = `import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from 'player-hypermedia';
const store = new MemoryPlayerStore();
await seedDemoData(store);
export const service = createPlayerService({ baseUrl: '${RUNTIME_BASE_URL}', store, authenticate: bearerTokens(['${RUNTIME_TOKEN}']) });
`;

/**
 * Builds and packs the library (npm pack runs prepack: the build) and unpacks it into `dir`'s
 * node_modules, with the service module the runtimes serve. Test files run in parallel: the build
 * and pack happen under a lock, so one never packs a dist the other is rewriting.
 */
export async function installPackedLibrary(dir = CONSUMER): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const pack = join(dir, 'pack');
  mkdirSync(join(dir, 'node_modules', 'player-hypermedia'), { recursive: true });
  mkdirSync(pack);
  const lock = join(ROOT, '.scratch', 'pack.lock');
  for (let waited = 0; ; waited += 100) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 180_000) throw new Error(`${lock} is held: remove it if no test is running`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    execFileSync('npm', ['pack', '--pack-destination', pack, '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  const tarball = readdirSync(pack).find((f) => f.endsWith('.tgz'))!;
  execFileSync('tar', ['xzf', join(pack, tarball), '-C', join(dir, 'node_modules', 'player-hypermedia'), '--strip-components=1']);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'scratch-consumer', private: true, type: 'module' }));
  writeFileSync(join(dir, 'service.mjs'), SERVICE);
  writeFileSync(join(dir, 'worker.mjs'), `import { service } from './service.mjs';\nexport default { fetch: service.fetch };\n`);
}

/** The first of `paths` (relative to the repository's node_modules) that exists. */
function binary(...paths: string[]): string | undefined {
  return paths.map((p) => join(ROOT, 'node_modules', p)).find((p) => existsSync(p));
}

/** A runtime this machine has from npm: how to start the worker on a port, or why it cannot. */
export interface Runtime {
  name: 'bun' | 'deno' | 'workerd';
  missing?: string;
  start: (port: number) => { command: string; args: string[] };
}

/** Bun, Deno and workerd, each from its npm package (the binary where npm put it). */
export function runtimes(): Runtime[] {
  const bun = binary('bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun');
  const deno = binary('@deno/linux-x64-glibc/deno', 'deno/deno');
  const workerd = binary('@cloudflare/workerd-linux-64/bin/workerd');
  return [
    {
      name: 'bun',
      missing: bun ? undefined : 'the bun npm package has no binary here',
      start: (port) => {
        writeFileSync(join(CONSUMER, 'bun-server.mjs'), `import { service } from './service.mjs';\nBun.serve({ port: ${port}, hostname: '127.0.0.1', fetch: service.fetch });\n`);
        return { command: bun!, args: ['bun-server.mjs'] };
      },
    },
    {
      name: 'deno',
      missing: deno ? undefined : 'the deno npm package has no binary here',
      start: (port) => {
        writeFileSync(join(CONSUMER, 'deno-server.mjs'), `import { service } from './service.mjs';\nDeno.serve({ port: ${port}, hostname: '127.0.0.1' }, service.fetch);\n`);
        return { command: deno!, args: ['run', '--allow-net', '--allow-read', '--allow-env', '--node-modules-dir=manual', '--no-check', 'deno-server.mjs'] };
      },
    },
    {
      name: 'workerd',
      missing: workerd ? undefined : 'the workerd npm package has no binary here',
      start: (port) => {
        // Workers take one bundled module, as wrangler would make it (esbuild, browser platform).
        execFileSync(join(ROOT, 'node_modules', '.bin', 'esbuild'), ['worker.mjs', '--bundle', '--format=esm', '--platform=browser', '--outfile=worker.bundle.mjs', '--log-level=error'], { cwd: CONSUMER });
        writeFileSync(
          join(CONSUMER, 'config.capnp'),
          `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.bundle.mjs") ],
  compatibilityDate = "2025-09-01",
);
`,
        );
        return { command: workerd!, args: ['serve', 'config.capnp'] };
      },
    },
  ];
}

/** A free TCP port of 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `runtime` on a free port; resolves once it answers HTTP, with its origin and a stop function. */
export async function startRuntime(runtime: Runtime): Promise<{ origin: string; stop: () => void; output: () => string }> {
  const port = await freePort();
  const { command, args } = runtime.start(port);
  const child = spawn(command, args, { cwd: CONSUMER, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const origin = `http://127.0.0.1:${port}`;
  const stop = () => void child.kill('SIGKILL');
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) break;
    try {
      await fetch(`${origin}/swagger.json`, { method: 'HEAD' });
      return { origin, stop, output: () => out };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  stop();
  throw new Error(`${runtime.name} did not answer within 15 s:\n${out}`);
}
