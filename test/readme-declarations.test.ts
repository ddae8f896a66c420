import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './support/child-server.js';

// The README's "Your own fields and resources" and "Snapshot tests of whole HTTP answers" programs, run as written (the package name pointing at
// this checkout): each `console.log(...); // expected` prints what its comment says.
const blocks = suite("README: a field of your own and a resource of your own, run as written");

function programUnder(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.search(new RegExp(`\n#{2,3} ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n`));
  assert.ok(at >= 0, heading);
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(at))![1]!;
}

function runProgram(source: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'player-hypermedia-readme-'));
  try {
    const file = join(dir, 'program.mts');
    writeFileSync(file, source.replaceAll("from 'player-hypermedia'", `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`));
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    assert.is(run.status, 0, run.stderr);
    return run.stdout.trimEnd().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What each console.log line's comment promises: its text up to the first ": " (an explanation follows). */
function promised(source: string): string[] {
  return [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]!.split(': ')[0]!);
}

for (const heading of ['A field of your own: a player\'s level', 'A resource of your own', 'Snapshot tests of whole HTTP answers', 'Add your own format']) {
  blocks(`"${heading}" prints what its comments say`, () => {
    const source = programUnder(heading);
    const expected = promised(source);
    assert.ok(expected.length >= 3, `${expected.length} promises`);
    assert.equal(runProgram(source), expected);
  });
}

blocks.run();
