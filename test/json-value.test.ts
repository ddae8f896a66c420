import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cloneJson, isJsonObject, jsonEqual } from '../src/core/json/value.js';

const equal = suite('jsonEqual (RFC 6902 section 4.6)');

equal('should compare by JSON value, objects in any member order', () => {
  assert.ok(jsonEqual({ a: [1, { b: null }], c: 'x' }, { c: 'x', a: [1.0, { b: null }] }));
  assert.ok(jsonEqual([], []));
  assert.ok(jsonEqual(null, null));
});

equal('should tell apart types, lengths, orders and member sets', () => {
  assert.not.ok(jsonEqual(1, '1'));
  assert.not.ok(jsonEqual(0, false));
  assert.not.ok(jsonEqual(null, {}));
  assert.not.ok(jsonEqual([], {}));
  assert.not.ok(jsonEqual([1, 2], [2, 1]));
  assert.not.ok(jsonEqual([1], [1, 1]));
  assert.not.ok(jsonEqual({ a: 1 }, { b: 1 }));
  assert.not.ok(jsonEqual({ a: undefined }, {}));
});

equal.run();

const clone = suite('cloneJson');

clone('should copy deeply, keeping an own __proto__ member as data', () => {
  const source = JSON.parse('{"__proto__": {"x": 1}, "a": [{"b": 2}]}');
  const copy = cloneJson(source);
  assert.equal(copy, source);
  assert.ok(copy.a !== source.a && copy.a[0] !== source.a[0]);
  assert.is(Object.getPrototypeOf(copy), Object.prototype);
  assert.ok(Object.hasOwn(copy, '__proto__'));
  assert.ok(isJsonObject(copy) && !isJsonObject([]) && !isJsonObject(null));
});

clone.run();
