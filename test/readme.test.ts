import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startChild, type ChildServer } from './support/child-server.js';

const TOKEN = 'readme-test-token';

/** Every curl command in the README's sh blocks, in order, with continuation lines joined. */
function readmeCurlLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines: string[] = [];
  for (const block of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) if (/^curl\s/.test(line.trim())) lines.push(line.trim());
  }
  return lines;
}

const readme = suite('README: every curl line, run as written against npm start');
let server: ChildServer;
let dir: string;

readme.before(async () => {
  server = await startChild(['examples/server.ts'], { API_TOKEN: TOKEN });
  dir = mkdtempSync(join(tmpdir(), 'player-hypermedia-readme-'));
  // A wrapper that fails on an HTTP error (>= 400) and reports the status on stderr.
  writeFileSync(join(dir, 'curl'), `#!/bin/sh\nexec ${JSON.stringify(spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim())} --fail-with-body -w '%{stderr}status %{http_code}\\n' "$@"\n`);
  chmodSync(join(dir, 'curl'), 0o755);
});

readme.after(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

readme('should answer every curl line of the README without an HTTP error', async () => {
  const lines = readmeCurlLines();
  assert.ok(lines.length >= 15, `found ${lines.length} curl lines`);
  const statuses: string[] = [];
  for (const line of lines) {
    // The README's placeholders: the address of `npm start`, and an ETag to be copied from an earlier answer.
    const etag = (await fetch(`${server.origin}/player/alice`)).headers.get('etag')!;
    const command = line.replaceAll('http://127.0.0.1:3000', server.origin).replace(/"<[^>]*etag[^>]*>"/, etag);
    if (command.includes('@me.png')) writeFileSync(join(dir, 'me.png'), Buffer.from(await (await fetch(`${server.origin}/player/bob/avatar.png`)).arrayBuffer()));
    const run = spawnSync('bash', ['-c', command], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, TOKEN, API_TOKEN: TOKEN },
      timeout: 10_000,
    });
    const status = /status (\d{3})/.exec(run.stderr)?.[1];
    statuses.push(`${status} ${line}`);
    assert.is(run.status, 0, `${line}\nexit ${run.status}\n${run.stdout.slice(0, 500)}\n${run.stderr.slice(0, 500)}`);
    assert.ok(status && Number(status) < 400, `${line}: status ${status}`);
  }
  // The caching example's second line is the revalidation: 304.
  assert.ok(statuses.some((s) => s.startsWith('304 ') && s.includes('If-None-Match')), statuses.join('\n'));
});

readme.run();
