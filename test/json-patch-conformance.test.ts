import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, JsonPatchError } from '../src/index.js';
import { type JsonValue } from '../src/core/json/value.js';

/** The json-patch-tests suite beside the repository (../shared/conformance), or CONFORMANCE_DIR. */
const ROOT = resolve(new URL('..', import.meta.url).pathname);
const DIR = join(process.env.CONFORMANCE_DIR ?? resolve(ROOT, '../shared/conformance'), 'json-patch');

interface Case {
  comment?: string;
  doc: JsonValue;
  patch: unknown;
  expected?: JsonValue;
  error?: string;
  disabled?: boolean;
}

for (const file of ['tests.json', 'spec_tests.json']) {
  const path = join(DIR, file);
  const conformance = suite(`json-patch-tests ${file}`);
  if (!existsSync(path)) {
    console.log(`note: ${path} is absent; skipping the ${file} conformance cases (the project's own JSON Patch tests still run)`);
    conformance.skip('should pass every enabled case (suite absent)', () => {});
    conformance.run();
    continue;
  }
  const cases = JSON.parse(readFileSync(path, 'utf8')) as Case[];
  cases.forEach((c, n) => {
    if (c.disabled) return;
    const name = `should pass case ${n}: ${c.comment ?? c.error ?? JSON.stringify(c.patch)}`.slice(0, 160);
    conformance(name, () => {
      const doc = structuredClone(c.doc);
      if (c.error !== undefined) {
        assert.throws(() => applyPatch(doc, c.patch as never), (e: unknown) => e instanceof JsonPatchError);
      } else {
        const result = applyPatch(doc, c.patch as never);
        if ('expected' in c) assert.equal(result, c.expected);
      }
      assert.equal(doc, c.doc, 'the input document is unchanged');
    });
  });
  conformance.run();
}
