import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, JsonPatchError, type JsonPatchLimits } from '../src/index.js';
import { DEFAULT_JSON_PATCH_LIMITS } from '../src/core/json/patch.js';
import { type JsonPatchErrorReason } from '../src/core/json/patch-document.js';
import { type JsonValue } from '../src/core/json/value.js';
import { deepFreeze } from './support/deep-freeze.js';

/** The error of a patch that must fail, with the time it took to fail. */
function failure(doc: unknown, ops: unknown, limits?: JsonPatchLimits): { error: JsonPatchError; ms: number } {
  const input = deepFreeze(structuredClone(doc)) as JsonValue;
  const started = performance.now();
  try {
    applyPatch(input, ops as never, limits);
  } catch (error) {
    if (!(error instanceof JsonPatchError)) throw error;
    assert.equal(input, doc, 'the input is unchanged');
    return { error, ms: performance.now() - started };
  }
  throw new Error('expected the patch to fail');
}

function assertReason(error: JsonPatchError, reason: JsonPatchErrorReason, index: number): void {
  assert.is(error.reason, reason, error.message);
  assert.is(error.index, index, error.message);
}

/** 28 copies of /x into /x/cN: each doubles the document (2^28 times the first /x). */
const COPY_CHAIN = Array.from({ length: 28 }, (_, n) => ({ op: 'copy', from: '/x', path: `/x/c${n}` }));
const SEED = { x: { payload: 'a'.repeat(40) } };

const limits = suite('applyPatch: limits on the work of a patch');

limits('should stop a doubling copy chain within milliseconds at the default budget', () => {
  const { error, ms } = failure(SEED, COPY_CHAIN);
  assert.is(error.reason, 'too-large');
  assert.ok(error.index! > 10 && error.index! < 28, `stopped at ${error.index}`);
  assert.ok(ms < 500, `took ${ms} ms`);
});

limits('should stop the chain at the first copy past maxAddedBytes', () => {
  // /x measures 2 + "payload" (7 + 4) + 42 = 55; after n copies it is about 55 * 2^n.
  const { error } = failure(SEED, COPY_CHAIN, { maxAddedBytes: 64 * 1024 });
  assertReason(error, 'too-large', 10);
  assert.match(error.message, /more than 65536 bytes/);
  assert.is(error.pointer, '/10');
});

limits('should count every value added, and give nothing back for removals', () => {
  const add = (n: number) => ({ op: 'add', path: `/k${n}`, value: 'x'.repeat(98) });
  const ops = [add(0), { op: 'remove', path: '/k0' }, add(1), { op: 'remove', path: '/k1' }, add(2)];
  assertReason(failure({}, ops, { maxAddedBytes: 250 }).error, 'too-large', 4);
  assert.equal(applyPatch({}, ops.slice(0, 4) as never, { maxAddedBytes: 250 }), {});
});

limits('should refuse more operations than maxOperations before applying any', () => {
  const ops = Array.from({ length: 11 }, () => ({ op: 'test', path: '', value: {} }));
  const { error } = failure({}, ops, { maxOperations: 10 });
  assertReason(error, 'too-many-operations', 10);
  assert.not.throws(() => applyPatch({}, ops.slice(1) as never, { maxOperations: 10 }));
  assert.is(DEFAULT_JSON_PATCH_LIMITS.maxOperations, 10_000);
});

limits('should refuse a result nested deeper than maxDepth, by add, copy or move', () => {
  const nested = (levels: number): JsonValue => (levels === 0 ? 1 : { n: nested(levels - 1) });
  assertReason(failure({ a: {} }, [{ op: 'add', path: '/a/b', value: nested(4) }], { maxDepth: 5 }).error, 'too-deep', 0);
  assert.equal(applyPatch({ a: {} }, [{ op: 'add', path: '/a/b', value: nested(3) }], { maxDepth: 5 }), { a: { b: nested(3) } });
  // Copying a value into its own child nests the document one level deeper each time.
  const copies = Array.from({ length: 8 }, () => ({ op: 'copy', from: '/x', path: '/x/x' }));
  assertReason(failure({ x: {} }, copies, { maxDepth: 6 }).error, 'too-deep', 4);
  const moveDown = [{ op: 'move', from: '/deep', path: '/a/b/c/d' }];
  assertReason(failure({ a: { b: { c: {} } }, deep: nested(3) }, moveDown, { maxDepth: 6 }).error, 'too-deep', 0);
  assert.not.throws(() => applyPatch({ a: { b: { c: {} } }, deep: nested(2) }, moveDown as never, { maxDepth: 6 }));
});

limits('should keep copies independent of each other and of the input while sharing them', () => {
  const doc = deepFreeze({ x: { list: [1], o: { k: 'v' } } }) as JsonValue;
  const next = applyPatch(doc, [
    { op: 'copy', from: '/x', path: '/y' },
    { op: 'copy', from: '/y', path: '/z' },
    { op: 'add', path: '/y/list/-', value: 2 },
    { op: 'replace', path: '/z/o/k', value: 'w' },
    { op: 'remove', path: '/x/list/0' },
  ]);
  assert.equal(next, { x: { list: [], o: { k: 'v' } }, y: { list: [1, 2], o: { k: 'v' } }, z: { list: [1], o: { k: 'w' } } });
  assert.equal(doc, { x: { list: [1], o: { k: 'v' } } });
});

limits.run();
