import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, JsonPatchError } from '../src/index.js';
import { type JsonValue } from '../src/core/json/value.js';

/** The json-patch-tests suite, vendored with its licence (test/fixtures/conformance/README.md). */
const DIR = join(resolve(new URL('.', import.meta.url).pathname), 'fixtures', 'conformance', 'json-patch');

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
  // A missing file throws here: the suite never passes without running its cases.
  const cases = JSON.parse(readFileSync(path, 'utf8')) as Case[];
  assert.ok(cases.length >= 17, `${file}: ${cases.length} cases`);
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
