import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VALIDATOR_FILE, validatorSource } from '../scripts/generate-validators.js';

// The player validator is ajv's code generated ahead of time: current with PLAYER_SCHEMA, and nothing
// in src compiles code at run time (Workers refuse `new Function`).
const generated = suite('the generated player validator');

generated('should be what scripts/generate-validators.ts writes from PLAYER_SCHEMA today', () => {
  assert.is(readFileSync(VALIDATOR_FILE, 'utf8'), validatorSource(), 'run `npm run generate:validators`');
});

generated('should leave no ajv compile and no code from strings in src', () => {
  const root = new URL('../src/', import.meta.url).pathname;
  const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
  for (const file of walk(root).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(file, 'utf8').replace(/^\s*\*.*$/gm, '').replace(/\/\/.*$/gm, '');
    assert.not.match(text, /new Ajv\(|\.compile\(|new Function\(|\beval\(/, file);
  }
});

generated.run();
