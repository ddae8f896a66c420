import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeJsonPointerToken, formatJsonPointer, getByJsonPointer, hasPrototypeToken, isArrayIndexToken, parseJsonPointer } from '../src/core/json/pointer.js';

const parse = suite('parseJsonPointer (RFC 6901)');

parse('should split tokens and unescape ~1 then ~0 (section 4)', () => {
  assert.equal(parseJsonPointer(''), []);
  assert.equal(parseJsonPointer('/'), ['']);
  assert.equal(parseJsonPointer('/a~1b/m~0n/~01/0'), ['a/b', 'm~n', '~1', '0']);
  assert.equal(parseJsonPointer('/a//b'), ['a', '', 'b']);
});

parse('should refuse a pointer without a leading slash or with a bad escape (section 3)', () => {
  for (const bad of ['a', '#/a', '/a~', '/a~2', '/~x']) assert.throws(() => parseJsonPointer(bad), SyntaxError, bad);
});

parse('should round-trip through formatJsonPointer', () => {
  const tokens = ['a/b', 'm~n', '~1', '', '0'];
  assert.equal(parseJsonPointer(formatJsonPointer(tokens)), tokens);
  assert.is(escapeJsonPointerToken('~/'), '~0~1');
  for (const [token, escaped] of [['alias', 'alias'], ['', ''], ['a/b', 'a~1b'], ['a~b', 'a~0b'], ['/~/', '~1~0~1'], ['~01', '~001']]) {
    assert.is(escapeJsonPointerToken(token!), escaped);
  }
  assert.is(formatJsonPointer([]), '');
  assert.is(formatJsonPointer(['friends', 3]), '/friends/3');
});

parse.run();

const tokens = suite('JSON Pointer tokens');

tokens('should accept array indices without leading zeros only', () => {
  for (const ok of ['0', '1', '10', '987']) assert.ok(isArrayIndexToken(ok), ok);
  for (const bad of ['', '00', '01', '-', '-1', '+1', '1e0', '1.0', ' 1', 'a', '9999999999999999']) assert.not.ok(isArrayIndexToken(bad), bad);
});

tokens('should spot prototype tokens', () => {
  assert.ok(hasPrototypeToken(['a', '__proto__']));
  assert.ok(hasPrototypeToken(['constructor']));
  assert.ok(hasPrototypeToken(['prototype', 'x']));
  assert.not.ok(hasPrototypeToken(['proto', '__proto', 'Constructor']));
});

tokens.run();

const get = suite('getByJsonPointer');

get('should read own members and array elements (section 5 examples)', () => {
  const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };
  const expected: [string, unknown][] = [
    ['', doc], ['/foo', ['bar', 'baz']], ['/foo/0', 'bar'], ['/', 0], ['/a~1b', 1], ['/c%d', 2], ['/e^f', 3],
    ['/g|h', 4], ['/i\\j', 5], ['/k"l', 6], ['/ ', 7], ['/m~0n', 8],
  ];
  for (const [pointer, value] of expected) assert.equal(getByJsonPointer(doc, pointer), value, pointer);
});

get('should name nothing for missing, inherited or out-of-range locations', () => {
  assert.is(getByJsonPointer({ a: [1] }, '/a/1'), undefined);
  assert.is(getByJsonPointer({ a: [1] }, '/a/-'), undefined);
  assert.is(getByJsonPointer({ a: [1] }, '/a/length'), undefined);
  assert.is(getByJsonPointer({}, '/toString'), undefined);
  assert.is(getByJsonPointer({ a: 1 }, '/a/b'), undefined);
  assert.throws(() => getByJsonPointer({}, '/__proto__'), TypeError);
});

get.run();
