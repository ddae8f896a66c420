import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startChild, type ChildServer } from './support/child-server.js';

/** The token the README's write examples start the server with (`API_TOKEN=dev-token npm start`). */
const TOKEN = 'dev-token';

/**
 * The README's sh blocks as the shell lines a reader runs after `npm start`: curl commands and shell
 * variable assignments (`TOKEN=...`, `ETAG=$(curl ...)`), continuation lines joined, in order. Lines that
 * start servers or run npm are left out.
 */
function readmeShellBlocks(): string[][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks: string[][] = [];
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    const lines = joined.split('\n').map((l) => l.trim()).filter((l) => /^curl\s/.test(l) || /^[A-Z_]+=(\$\(.*\)|\S*)\s*(#.*)?$/.test(l));
    if (lines.some((l) => l.startsWith('curl'))) blocks.push(lines);
  }
  return blocks;
}
const readme = suite('README: every curl line, run as written against npm start');
let server: ChildServer;
let dir: string;

readme.before(async () => {
  server = await startChild(['examples/server.ts'], { API_TOKEN: TOKEN, CORS_ORIGINS: 'https://game.example' });
  dir = mkdtempSync(join(tmpdir(), 'player-hypermedia-readme-'));
  // A wrapper that fails on an HTTP error (>= 400) and reports the status on stderr.
  writeFileSync(join(dir, 'curl'), `#!/bin/sh\nexec ${JSON.stringify(spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim())} --fail-with-body -w '%{stderr}status %{http_code}\\n' "$@"\n`);
  chmodSync(join(dir, 'curl'), 0o755);
});

readme.after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

readme('should answer every curl line of the README, each block run as written in one shell, without an HTTP error', async () => {
  const blocks = readmeShellBlocks();
  const curls = blocks.flat().filter((l) => l.startsWith('curl'));
  assert.ok(curls.length >= 15, `found ${curls.length} curl lines`);
  assert.ok(blocks.flat().some((l) => l.startsWith(`TOKEN=${TOKEN}`)), 'the README sets the token the server was started with');
  // One shell for the whole README, as a reader's terminal: a variable set in one block (TOKEN) is
  // there in the next. Only the address differs from `npm start`'s: the test's server has a free port.
  const lines = blocks.flat();
  const script = ['set -e', ...lines.map((l) => l.replaceAll('http://127.0.0.1:3000', server.origin))].join('\n');
  const run = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${dir}:${process.env.PATH}` }, timeout: 60_000 });
  const statuses = [...run.stderr.matchAll(/status (\d{3})/g)].map((m) => m[1]!);
  assert.is(run.status, 0, `exit ${run.status} after ${statuses.length} answers\n${run.stdout.slice(-500)}\n${run.stderr.slice(-800)}`);
  assert.ok(statuses.length >= curls.length, `${statuses.length} answers for ${curls.length} curl lines`);
  assert.ok(statuses.every((s) => Number(s) < 400), statuses.join(' '));
  // The caching example's second line is the revalidation: 304.
  assert.ok(statuses.includes('304'), statuses.join(' '));
});

readme.run();
