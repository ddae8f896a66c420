// The API reference builds without a warning (typedoc.json treats warnings as errors): every type a
// public export names is exported too, or listed as intentionally internal.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './support/child-server.js';

const typedoc = suite('TypeDoc');

typedoc('should build the API reference without warnings', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typedoc/bin/typedoc'), '--emit', 'none'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
  const output = `${run.stdout}${run.stderr}`;
  assert.not.match(output, /\[warning\]/, output);
  assert.is(run.status, 0, output);
});

typedoc.run();
