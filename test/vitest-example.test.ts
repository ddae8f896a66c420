import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/child-server.js';

const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** Runs vitest on examples/snapshot.test.ts under `root` (never writing snapshots: CI mode). */
function vitest(root: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [VITEST, 'run', '--root', root, '--dir', 'examples', 'examples/snapshot.test.ts'], {
    cwd: root,
    env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

const example = suite('examples/snapshot.test.ts: the README snapshot test with vitest');

example('should pass against its committed snapshots', () => {
  const { status, output } = vitest(ROOT);
  assert.is(status, 0, output);
  assert.match(output, /2 passed/);
});

example('should fail when a rendered body no longer matches its snapshot', () => {
  // A copy of the example whose stored snapshot differs by one character: vitest must report it.
  const dir = mkdtempSync(join(tmpdir(), 'player-hypermedia-vitest-'));
  try {
    symlinkSync(join(ROOT, 'src'), join(dir, 'src'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    cpSync(join(ROOT, 'examples', 'snapshot.test.ts'), join(dir, 'examples', 'snapshot.test.ts'));
    const snap = join(dir, 'examples', '__snapshots__', 'snapshot.test.ts.snap');
    cpSync(join(ROOT, 'examples', '__snapshots__', 'snapshot.test.ts.snap'), snap);
    const text = readFileSync(snap, 'utf8');
    assert.ok(text.includes('Bob Builder'));
    writeFileSync(snap, text.replace('Bob Builder', 'Bob Bilder'));
    const { status, output } = vitest(dir);
    assert.is.not(status, 0, output);
    assert.match(output, /Snapshot .* mismatched/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

example.run();
