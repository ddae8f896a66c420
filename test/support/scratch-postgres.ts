// A private PostgreSQL server for tests that stop and start their database (the binaries .ci/with-postgres found).
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The server binaries directory .ci/with-postgres exports, or undefined (such tests are then skipped). */
export const PG_BIN = process.env.TEST_PG_BIN;

const isRoot = process.getuid?.() === 0;

/** Runs a server binary, as the postgres user when we are root (initdb and pg_ctl refuse root). */
function pgRun(binary: string, args: string[]): void {
  const file = join(PG_BIN!, binary);
  if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' });
  else execFileSync(file, args, { stdio: 'pipe' });
}

/** The same, without blocking the event loop (requests keep flowing while the server stops). */
async function pgRunAsync(binary: string, args: string[]): Promise<void> {
  const file = join(PG_BIN!, binary);
  if (isRoot) await promisify(execFile)('runuser', ['-u', 'postgres', '--', file, ...args]);
  else await promisify(execFile)(file, args);
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A scratch server of one test: its URL, and stop / start / remove. */
export interface ScratchPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): void;
}

/**
 * Creates and starts a scratch server in a temporary folder on a free port.
 *
 * @example
 * const pg = await startScratchPostgres();
 * await pg.stop(); await pg.start(); pg.remove();
 */
export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'player-hypermedia-outage-'));
  if (isRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), -1);
  const port = await freePort();
  const data = join(dir, 'data');
  pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '-N']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c fsync=off -c full_page_writes=off`;
  const scratch: ScratchPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => pgRunAsync('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', options, 'start']),
    // Fast shutdown: sessions are terminated, in-flight transactions rolled back, committed ones kept.
    stop: () => pgRunAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    remove: () => {
      try {
        pgRun('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await scratch.start();
  return scratch;
}
