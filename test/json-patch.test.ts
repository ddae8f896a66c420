import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPatch, JsonPatchError } from '../src/index.js';
import { type JsonPatchErrorReason } from '../src/core/json/patch-document.js';
import { type JsonValue } from '../src/core/json/value.js';
import { deepFreeze } from './support/deep-freeze.js';

/** Applies to a deep-frozen copy of `doc` (so any mutation would throw) and returns the result. */
function patch(doc: unknown, ops: unknown): unknown {
  return applyPatch(deepFreeze(structuredClone(doc)) as JsonValue, deepFreeze(structuredClone(ops)) as never);
}

/** Asserts that the patch fails with `reason` at operation `index`, leaving the frozen input as it was. */
function fails(doc: unknown, ops: unknown, reason: JsonPatchErrorReason, index?: number): JsonPatchError {
  const input = deepFreeze(structuredClone(doc));
  try {
    applyPatch(input as JsonValue, ops as never);
  } catch (error) {
    if (!(error instanceof JsonPatchError)) throw error;
    assert.is(error.reason, reason, error.message);
    assert.is(error.index, index);
    assert.equal(input, doc);
    return error;
  }
  assert.unreachable(`expected ${reason}`);
  throw new Error('unreachable');
}

const add = suite('applyPatch: add (RFC 6902 section 4.1)');

add('should create a member that does not exist (interface rule 2)', () => {
  assert.equal(patch({ a: 1 }, [{ op: 'add', path: '/b', value: { c: [1] } }]), { a: 1, b: { c: [1] } });
});

add('should give an existing member the new value (interface rule 3)', () => {
  assert.equal(patch({ a: 1 }, [{ op: 'add', path: '/a', value: null }]), { a: null });
});

add('should append to an existing list with "-" (interface rule 1)', () => {
  assert.equal(patch({ list: [1, 2] }, [{ op: 'add', path: '/list/-', value: 3 }]), { list: [1, 2, 3] });
  assert.equal(patch({ list: [1, 2] }, [{ op: 'add', path: '/list/2', value: 3 }]), { list: [1, 2, 3] });
});

add('should replace a list named by its own path, as an existing member', () => {
  assert.equal(patch({ list: [1, 2] }, [{ op: 'add', path: '/list', value: [3] }]), { list: [3] });
});

add('should insert at an array index, shifting later elements', () => {
  assert.equal(patch(['a', 'c'], [{ op: 'add', path: '/1', value: 'b' }]), ['a', 'b', 'c']);
  assert.equal(patch(['b'], [{ op: 'add', path: '/0', value: 'a' }]), ['a', 'b']);
});

add('should replace the whole document at the empty path', () => {
  assert.equal(patch({ a: 1 }, [{ op: 'add', path: '', value: [1] }]), [1]);
});

add('should refuse an index past the end, a leading zero, a sign or a member name on an array', () => {
  fails({ a: [1] }, [{ op: 'add', path: '/a/2', value: 0 }], 'invalid-index', 0);
  fails({ a: [1] }, [{ op: 'add', path: '/a/01', value: 0 }], 'invalid-index', 0);
  fails({ a: [1] }, [{ op: 'add', path: '/a/-1', value: 0 }], 'invalid-index', 0);
  fails({ a: [1] }, [{ op: 'add', path: '/a/x', value: 0 }], 'invalid-index', 0);
});

add('should not create missing parents, nor add inside a scalar', () => {
  fails({ q: {} }, [{ op: 'add', path: '/a/b', value: 1 }], 'path-not-found', 0);
  fails({ a: 1 }, [{ op: 'add', path: '/a/b', value: 1 }], 'path-not-found', 0);
  fails({ a: 'text' }, [{ op: 'add', path: '/a/0', value: 1 }], 'path-not-found', 0);
});

add('should ignore members an operation does not define (RFC 6902 section 4)', () => {
  assert.equal(patch({}, [{ op: 'add', path: '/a', value: 1, from: '/nowhere', extra: true }]), { a: 1 });
});

add.run();

const remove = suite('applyPatch: remove, replace (sections 4.2, 4.3)');

remove('should remove a member and shift later array elements toward the start (interface rule 4)', () => {
  assert.equal(patch({ a: 1, b: 2 }, [{ op: 'remove', path: '/a' }]), { b: 2 });
  assert.equal(patch({ orders: ['x', 'y', 'z'] }, [{ op: 'remove', path: '/orders/1' }]), { orders: ['x', 'z'] });
});

remove('should fail on a missing member, a missing index or "-"', () => {
  fails({ a: 1 }, [{ op: 'remove', path: '/b' }], 'path-not-found', 0);
  fails({ a: 1 }, [{ op: 'remove', path: '/x/y' }], 'path-not-found', 0);
  fails([1], [{ op: 'remove', path: '/1' }], 'path-not-found', 0);
  fails([1], [{ op: 'remove', path: '/-' }], 'invalid-index', 0);
});

remove('should refuse to remove the whole document', () => {
  fails({ a: 1 }, [{ op: 'remove', path: '' }], 'invalid-patch', 0);
});

remove('should replace an existing member, array element or the whole document (interface rule 5)', () => {
  assert.equal(patch({ a: 1 }, [{ op: 'replace', path: '/a', value: [2] }]), { a: [2] });
  assert.equal(patch([1, 2], [{ op: 'replace', path: '/1', value: 3 }]), [1, 3]);
  assert.equal(patch({ a: 1 }, [{ op: 'replace', path: '', value: 'all' }]), 'all');
});

remove('should not replace what does not exist', () => {
  fails({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }], 'path-not-found', 0);
  fails([1], [{ op: 'replace', path: '/1', value: 2 }], 'path-not-found', 0);
  fails([1], [{ op: 'replace', path: '/-', value: 2 }], 'invalid-index', 0);
});

remove.run();

const move = suite('applyPatch: move, copy (sections 4.4, 4.5)');

move('should remove the value at "from" and add it at "path" (interface rule 6)', () => {
  assert.equal(patch({ a: { b: 1 }, c: {} }, [{ op: 'move', from: '/a/b', path: '/c/d' }]), { a: {}, c: { d: 1 } });
  // Remove first: indices of "path" are read after the element left.
  assert.equal(patch({ l: [1, 2, 3, 4] }, [{ op: 'move', from: '/l/1', path: '/l/3' }]), { l: [1, 3, 4, 2] });
  assert.equal(patch({ a: 1, b: 2 }, [{ op: 'move', from: '/a', path: '/b' }]), { b: 1 });
});

move('should accept a move onto itself as a no-op, but only from an existing location', () => {
  assert.equal(patch({ a: 1 }, [{ op: 'move', from: '/a', path: '/a' }]), { a: 1 });
  fails({ a: 1 }, [{ op: 'move', from: '/b', path: '/b' }], 'path-not-found', 0);
});

move('should refuse a move into its own child, and a missing "from"', () => {
  fails({ a: { b: {} } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], 'invalid-patch', 0);
  fails({ a: 1 }, [{ op: 'move', from: '', path: '/b' }], 'invalid-patch', 0);
  fails({ a: 1 }, [{ op: 'move', from: '/x', path: '/b' }], 'path-not-found', 0);
});

move('should copy a value leaving the original in place (interface rule 7)', () => {
  assert.equal(patch({ a: { b: [1] } }, [{ op: 'copy', from: '/a', path: '/c' }]), { a: { b: [1] }, c: { b: [1] } });
  assert.equal(patch({ l: [1, 2] }, [{ op: 'copy', from: '/l/0', path: '/l/-' }]), { l: [1, 2, 1] });
  fails({ a: 1 }, [{ op: 'copy', from: '/x', path: '/b' }], 'path-not-found', 0);
});

move('should keep a copy independent of its original in later operations', () => {
  const ops = [
    { op: 'copy', from: '/a', path: '/c' },
    { op: 'add', path: '/c/b/-', value: 2 },
    { op: 'replace', path: '/a/x', value: 'changed' },
  ];
  assert.equal(patch({ a: { b: [1], x: 0 } }, ops), { a: { b: [1], x: 'changed' }, c: { b: [1, 2], x: 0 } });
});

move.run();

const test = suite('applyPatch: test (section 4.6)');

test('should pass on JSON-equal values (interface rule 8)', () => {
  const doc = { s: 'x', n: 1, o: { a: 1, b: [1, { c: null }] }, t: true, z: null };
  assert.equal(
    patch(doc, [
      { op: 'test', path: '/s', value: 'x' },
      { op: 'test', path: '/n', value: 1.0 },
      { op: 'test', path: '/o', value: { b: [1, { c: null }], a: 1 } },
      { op: 'test', path: '/t', value: true },
      { op: 'test', path: '/z', value: null },
      { op: 'test', path: '', value: doc },
    ]),
    doc,
  );
});

test('should fail on a different type, order, extra member or missing location', () => {
  fails({ n: 10 }, [{ op: 'test', path: '/n', value: '10' }], 'test-failed', 0);
  fails({ l: [1, 2] }, [{ op: 'test', path: '/l', value: [2, 1] }], 'test-failed', 0);
  fails({ o: { a: 1 } }, [{ op: 'test', path: '/o', value: { a: 1, b: 2 } }], 'test-failed', 0);
  fails({ z: null }, [{ op: 'test', path: '/z', value: false }], 'test-failed', 0);
  fails({}, [{ op: 'test', path: '/missing', value: null }], 'path-not-found', 0);
});

test('should discard the whole patch when a test fails (interface rule 9)', () => {
  const ops = [
    { op: 'replace', path: '/a', value: 2 },
    { op: 'add', path: '/b', value: 3 },
    { op: 'test', path: '/a', value: 1 },
  ];
  const error = fails({ a: 1 }, ops, 'test-failed', 2);
  assert.equal(error.operation, ops[2]);
  assert.is(error.pointer, '/2/path');
  assert.match(error.message, /^Operation 2 \(test "\/a"\)/);
});

test.run();

const validation = suite('applyPatch: the patch document (sections 3, 4)');

validation('should refuse a patch that is not an array of objects', () => {
  fails({}, { op: 'add', path: '/a', value: 1 }, 'invalid-patch', undefined);
  fails({}, [null], 'invalid-patch', 0);
  fails({}, [['add', '/a', 1]], 'invalid-patch', 0);
});

validation('should require exactly one of the six ops', () => {
  const error = fails({ a: 1 }, [{ op: 'test', path: '/a', value: 1 }, { op: 'spam', path: '/a', value: 1 }], 'invalid-patch', 1);
  assert.is(error.pointer, '/1/op');
  fails({}, [{ path: '/a', value: 1 }], 'invalid-patch', 0);
  fails({}, [{ op: 'ADD', path: '/a', value: 1 }], 'invalid-patch', 0);
  fails({}, [Object.create({ op: 'add', path: '/a', value: 1 })], 'invalid-patch', 0);
});

validation('should require "path" as a JSON Pointer string', () => {
  fails({}, [{ op: 'add', value: 1 }], 'invalid-patch', 0);
  fails({}, [{ op: 'add', path: null, value: 1 }], 'invalid-patch', 0);
  fails({}, [{ op: 'add', path: 'a', value: 1 }], 'invalid-patch', 0);
  fails({}, [{ op: 'add', path: '/a~2', value: 1 }], 'invalid-patch', 0);
});

validation('should require "value" for add, replace and test, and "from" for move and copy', () => {
  for (const op of ['add', 'replace', 'test']) fails({ a: 1 }, [{ op, path: '/a' }], 'invalid-patch', 0);
  fails({ a: 1 }, [{ op: 'add', path: '/a', value: undefined }], 'invalid-patch', 0);
  for (const op of ['move', 'copy']) fails({ a: 1 }, [{ op, path: '/b' }], 'invalid-patch', 0);
  fails({ a: 1 }, [{ op: 'copy', path: '/b', from: 7 }], 'invalid-patch', 0);
});

validation('should validate every operation before applying any', () => {
  fails({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }, { op: 'nope' }], 'invalid-patch', 1);
});

validation.run();

const escaping = suite('applyPatch: JSON Pointer escaping (RFC 6901)');

escaping('should unescape ~1 to "/" and ~0 to "~", in that order', () => {
  const doc = { 'a/b': 1, 'm~n': 2, '~1': 3, '': 4 };
  assert.equal(
    patch(doc, [
      { op: 'replace', path: '/a~1b', value: 10 },
      { op: 'replace', path: '/m~0n', value: 20 },
      { op: 'replace', path: '/~01', value: 30 },
      { op: 'replace', path: '/', value: 40 },
    ]),
    { 'a/b': 10, 'm~n': 20, '~1': 30, '': 40 },
  );
});

escaping.run();

const safety = suite('applyPatch: immutability, atomicity, prototypes');

safety('should never change its inputs, and copy only the containers on changed paths', () => {
  const doc = deepFreeze({ a: { x: [1, 2] }, b: { y: { z: 1 } }, l: [{ k: 1 }, { k: 2 }] });
  const ops = deepFreeze([
    { op: 'add', path: '/a/x/-', value: { fresh: [] } },
    { op: 'add', path: '/a/x/2/fresh/-', value: 1 },
    { op: 'replace', path: '/l/1/k', value: 3 },
  ]);
  const next = applyPatch(doc as JsonValue, ops as never) as typeof doc & { a: { x: unknown[] } };
  assert.equal(next, { a: { x: [1, 2, { fresh: [1] }] }, b: { y: { z: 1 } }, l: [{ k: 1 }, { k: 3 }] });
  assert.equal(ops[0]!.value, { fresh: [] });
  assert.ok(next !== doc && next.a !== doc.a && next.a.x !== doc.a.x && next.l !== doc.l && next.l[1] !== doc.l[1]);
  assert.ok(next.b === doc.b && next.l[0] === doc.l[0], 'unchanged parts are shared');
});

safety('should return a new root even when nothing changes', () => {
  const doc = { a: 1 };
  const next = applyPatch(doc, [{ op: 'test', path: '/a', value: 1 }]);
  assert.equal(next, doc);
  assert.ok(next !== doc);
});

safety('should leave the input untouched when a late operation fails', () => {
  const ops = [
    { op: 'add', path: '/a/-', value: 9 },
    { op: 'remove', path: '/b' },
    { op: 'move', from: '/c', path: '/d' },
    { op: 'replace', path: '/nope', value: 1 },
  ];
  fails({ a: [1], b: 2, c: 3 }, ops, 'path-not-found', 3);
});

safety('should refuse __proto__, constructor and prototype in path and from, for every op', () => {
  for (const token of ['__proto__', 'constructor', 'prototype']) {
    for (const path of [`/${token}`, `/a/${token}`, `/${token}/polluted`]) {
      for (const op of [
        { op: 'add', path, value: { polluted: true } },
        { op: 'remove', path },
        { op: 'replace', path, value: 1 },
        { op: 'test', path, value: 1 },
        { op: 'move', from: '/a', path },
        { op: 'copy', from: '/a', path },
        { op: 'move', from: path, path: '/b' },
        { op: 'copy', from: path, path: '/b' },
      ]) {
        fails({ a: {} }, [op], 'prototype-path', 0);
      }
    }
  }
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

safety('should never read inherited members', () => {
  fails({}, [{ op: 'test', path: '/toString', value: {} }], 'path-not-found', 0);
  fails({}, [{ op: 'replace', path: '/hasOwnProperty', value: 1 }], 'path-not-found', 0);
  fails({}, [{ op: 'copy', from: '/valueOf', path: '/x' }], 'path-not-found', 0);
  fails({ a: [] }, [{ op: 'test', path: '/a/length', value: 0 }], 'invalid-index', 0);
});

safety('should keep an own "__proto__" member of a parsed document as plain data', () => {
  const doc = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
  const next = applyPatch(doc, [{ op: 'replace', path: '/a', value: 2 }]) as Record<string, unknown>;
  assert.is(Object.getPrototypeOf(next), Object.prototype);
  assert.is(next.polluted, undefined);
  assert.is(JSON.stringify(next), '{"__proto__":{"polluted":true},"a":2}');
});

safety.run();
