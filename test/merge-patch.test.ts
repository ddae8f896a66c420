import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyMergePatch, MergePatchError } from '../src/index.js';
import { checkMergePatch } from '../src/core/json/merge-patch.js';
import { type JsonValue } from '../src/core/json/value.js';
import { deepFreeze } from './support/deep-freeze.js';

// RFC 7396 appendix A: [original, patch, result].
const APPENDIX_A: [JsonValue, JsonValue, JsonValue][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

const rfc = suite('applyMergePatch: RFC 7396');

APPENDIX_A.forEach(([original, patch, result], n) => {
  rfc(`should pass appendix A example ${n + 1}: ${JSON.stringify(patch)}`, () => {
    assert.equal(applyMergePatch(deepFreeze(structuredClone(original)), deepFreeze(structuredClone(patch))), result);
  });
});

rfc('should merge the section 3 example', () => {
  const target = {
    title: 'Goodbye!',
    author: { givenName: 'John', familyName: 'Doe' },
    tags: ['example', 'sample'],
    content: 'This will be unchanged',
  };
  const patch = { title: 'Hello!', phoneNumber: '+01-123-456-7890', author: { familyName: null }, tags: ['example'] };
  assert.equal(applyMergePatch(deepFreeze(target), deepFreeze(patch)), {
    title: 'Hello!',
    author: { givenName: 'John' },
    tags: ['example'],
    content: 'This will be unchanged',
    phoneNumber: '+01-123-456-7890',
  });
});

rfc('should treat a missing target as an empty object', () => {
  assert.equal(applyMergePatch(undefined, { a: { b: null, c: 1 } }), { a: { c: 1 } });
});

rfc.run();

const safety = suite('applyMergePatch: immutability and prototypes');

safety('should never change its inputs and share unchanged members', () => {
  const target = deepFreeze({ a: { x: 1 }, b: { y: 2 } });
  const next = applyMergePatch(target, deepFreeze({ a: { x: 2 } })) as typeof target;
  assert.equal(next, { a: { x: 2 }, b: { y: 2 } });
  assert.ok(next !== target && next.a !== target.a && next.b === target.b);
});

safety('should refuse members named __proto__, constructor or prototype, at any depth', () => {
  for (const text of ['{"__proto__": {"polluted": true}}', '{"a": {"constructor": {"prototype": {"polluted": true}}}}', '{"prototype": 1}']) {
    assert.throws(() => applyMergePatch({ a: {} }, JSON.parse(text)), (e: unknown) => e instanceof MergePatchError && e.reason === 'prototype-path');
  }
  const error = (() => {
    try {
      applyMergePatch({}, JSON.parse('{"a/b": {"__proto__": 1}}'));
    } catch (e) {
      return e as MergePatchError;
    }
  })();
  assert.is(error?.pointer, '/a~1b/__proto__');
  assert.is(({} as Record<string, unknown>).polluted, undefined);
});

safety('should never read inherited members of the target', () => {
  assert.equal(applyMergePatch({}, { toString: { a: 1 } }), { toString: { a: 1 } });
});

safety('checkMergePatch should refuse exactly what a merge into anything refuses, at the same pointer', () => {
  const patches = [
    '{"alias": "a", "displayName": null}',
    '{"__proto__": 1}',
    '{"a": null, "b": {"c": {"constructor": 2}}}',
    '{"a~b": {"x/y": {"prototype": null}}}',
    '{"a": [{"__proto__": 1}]}',
    '{"constructor": null}',
    '[{"__proto__": 1}]',
    '"text"',
    '{"a": {"b": null, "c": [1]}, "d": {"e/f~g": {}}}',
  ];
  const outcome = (run: () => unknown) => {
    try {
      run();
      return 'fine';
    } catch (e) {
      return e instanceof MergePatchError ? e.pointer : `other: ${String(e)}`;
    }
  };
  for (const text of patches) {
    const merged = outcome(() => applyMergePatch(undefined, JSON.parse(text) as JsonValue));
    assert.is(outcome(() => checkMergePatch(JSON.parse(text) as JsonValue)), merged, text);
    // The target does not change what is refused.
    assert.is(outcome(() => applyMergePatch({ a: { b: 1 }, b: { c: {} } }, JSON.parse(text) as JsonValue)), merged, text);
  }
  assert.is(outcome(() => checkMergePatch(JSON.parse('{"a~b": {"x/y": {"prototype": null}}}') as JsonValue)), '/a~0b/x~1y/prototype');
  // An array is a value, not walked into: its members are not merged (RFC 7396 section 2).
  assert.is(outcome(() => checkMergePatch(JSON.parse('{"a": [{"__proto__": 1}]}') as JsonValue)), 'fine');
});

safety.run();
