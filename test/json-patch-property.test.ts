import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, JsonPatchError, type JsonPatchOperation } from '../src/index.js';
import { formatJsonPointer } from '../src/core/json/pointer.js';
import { applyCompiledPatch } from '../src/core/json/patch.js';
import { compilePatch } from '../src/core/json/patch-document.js';
import { type JsonValue } from '../src/core/json/value.js';
import { deepFreeze } from './support/deep-freeze.js';

// Few member names, so that generated paths often hit existing locations; two need escaping.
const key = fc.constantFrom('a', 'b', 'c', 'x/y', 'm~n');
const leaf = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('s', 't', ''), fc.boolean(), fc.constant(null));
const { value: jsonArb } = fc.letrec<{ value: JsonValue; array: JsonValue[]; object: { [k: string]: JsonValue } }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
}));
const docArb = fc.oneof(fc.array(jsonArb, { maxLength: 4 }), fc.dictionary(key, jsonArb, { maxKeys: 4, noNullPrototype: true }));

/** Every location of a document, as token lists. */
function locations(doc: JsonValue, at: string[] = []): string[][] {
  const out = [at];
  if (Array.isArray(doc)) doc.forEach((v, i) => out.push(...locations(v, [...at, String(i)])));
  else if (doc !== null && typeof doc === 'object') for (const k of Object.keys(doc)) out.push(...locations(doc[k]!, [...at, k]));
  return out;
}

/** Paths worth trying on a document: its locations, children to add under them, and strangers. */
function pathsOf(doc: JsonValue): string[] {
  const paths = new Set<string>(['/zz', '/0/zz']);
  for (const tokens of locations(doc)) {
    paths.add(formatJsonPointer(tokens));
    for (const extra of ['-', '0', 'a', 'c']) paths.add(formatJsonPointer([...tokens, extra]));
  }
  return [...paths];
}

const plain = { noNullPrototype: true };

/** Whether the patch document itself is valid (so that failures can only come from the document). */
function wellFormed(op: JsonPatchOperation): boolean {
  if (op.op === 'remove') return op.path !== '';
  if (op.op === 'move') return op.from === op.path || !(op.path + '/').startsWith(op.from + '/');
  return true;
}

function opArb(paths: string[]): fc.Arbitrary<JsonPatchOperation> {
  const path = fc.constantFrom(...paths);
  return fc.oneof(
    fc.record({ op: fc.constant('add' as const), path, value: jsonArb }, plain),
    fc.record({ op: fc.constant('remove' as const), path }, plain),
    fc.record({ op: fc.constant('replace' as const), path, value: jsonArb }, plain),
    fc.record({ op: fc.constant('move' as const), from: path, path }, plain),
    fc.record({ op: fc.constant('copy' as const), from: path, path }, plain),
    fc.record({ op: fc.constant('test' as const), path, value: jsonArb }, plain),
  ).filter(wellFormed);
}

const caseArb = docArb.chain((doc) => fc.record({ doc: fc.constant(doc), ops: fc.array(opArb(pathsOf(doc)), { maxLength: 6 }) }, plain));

type Outcome = { ok: true; value: JsonValue } | { ok: false; index: number | undefined; reason: string };

function attempt(run: () => JsonValue): Outcome {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (!(error instanceof JsonPatchError)) throw error;
    return { ok: false, index: error.index, reason: error.reason };
  }
}

const property = suite('applyPatch properties (fast-check)');

property('should equal applying its operations one by one, failing at the same operation', () => {
  let failures = 0;
  fc.assert(
    fc.property(caseArb, ({ doc, ops }) => {
      const whole = attempt(() => applyPatch(doc, ops));
      let current: JsonValue = doc;
      let stepwise: Outcome = { ok: true, value: doc };
      for (let i = 0; i < ops.length && stepwise.ok; i++) {
        const one = attempt(() => applyPatch(current, [ops[i]!]));
        if (one.ok) current = one.value;
        else stepwise = { ok: false, index: i, reason: one.reason };
      }
      if (stepwise.ok) stepwise = { ok: true, value: current };
      if (!whole.ok) failures++;
      assert.equal(whole, stepwise);
    }),
    { numRuns: 400, seed: 6902 },
  );
  assert.ok(failures > 20 && failures < 380, `both outcomes are exercised (${failures} failures of 400)`);
});

property('should leave deep-frozen inputs untouched, whether it succeeds or fails', () => {
  fc.assert(
    fc.property(caseArb, ({ doc, ops }) => {
      const before = structuredClone({ doc, ops });
      deepFreeze(doc);
      deepFreeze(ops);
      attempt(() => applyPatch(doc, ops));
      assert.equal({ doc, ops }, before);
    }),
    { numRuns: 400, seed: 7396 },
  );
});

property('should give the same result on a frozen input as on an unshared copy', () => {
  fc.assert(
    fc.property(caseArb, ({ doc, ops }) => {
      const fresh = attempt(() => applyPatch(structuredClone(doc), structuredClone(ops)));
      const frozen = attempt(() => applyPatch(deepFreeze(doc), deepFreeze(ops)));
      assert.equal(frozen, fresh);
    }),
    { numRuns: 200, seed: 6901 },
  );
});

property('should give the same outcome from compiled steps, applied twice, as from the patch', () => {
  // A service compiles a patch once and applies its steps to each attempt of a compare-and-set.
  fc.assert(
    fc.property(caseArb, ({ doc, ops }) => {
      const steps = compilePatch(ops);
      const expected = attempt(() => applyPatch(doc, ops));
      assert.equal(attempt(() => applyCompiledPatch(doc, steps)), expected);
      assert.equal(attempt(() => applyCompiledPatch(doc, steps)), expected);
    }),
    { numRuns: 300, seed: 5789 },
  );
});

property.run();
