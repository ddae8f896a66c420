import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { headerPairs } from '../src/core/http/request-head.js';
import { Answer } from '../src/core/respond/answer.js';

const head = suite('headerPairs and Answer: a request head and a complete answer as plain data');

head('should read header pairs as Headers does: any case, repeated fields joined, values trimmed', () => {
  const pairs = ['Host', 'x.test', 'X-Thing', ' a ', 'Accept', 'application/json', 'x-thing', 'b\t', 'EMPTY', ''];
  const h = headerPairs(pairs);
  const reference = new Headers();
  for (let i = 0; i < pairs.length; i += 2) reference.append(pairs[i]!, pairs[i + 1]!);
  for (const name of ['host', 'X-THING', 'accept', 'empty', 'missing']) {
    assert.is(h.get(name), reference.get(name), name);
    assert.is(h.has(name), reference.has(name), name);
  }
});

head('should give the UTF-8 length of a string body as Content-Length', () => {
  for (const text of ['plain', 'é', '日本', '😀', 'a\ud800b', '\udc00', 'x'.repeat(1000) + '€']) {
    const flat = new Answer(200, new Map([['content-type', 'text/plain']]), text).flatFields();
    assert.equal(flat, ['content-type', 'text/plain', 'content-length', String(new TextEncoder().encode(text).byteLength)], JSON.stringify(text));
  }
  assert.equal(new Answer(304, new Map([['etag', '"1"']]), null).flatFields(), ['etag', '"1"']);
});

head('should become a standard Response with the same status, fields and body', async () => {
  const answer = new Answer(200, new Map([['content-type', 'application/json'], ['etag', '"1"']]), new TextEncoder().encode('{"a":1}'));
  const res = answer.toResponse();
  // A genuine Response: what a runtime's own server reads (not a subclass overriding the readers).
  assert.is(Object.getPrototypeOf(res), Response.prototype);
  assert.is(res.status, 200);
  assert.is(res.headers.get('etag'), '"1"');
  assert.equal(await res.json(), { a: 1 });
  const empty = new Answer(304, new Map([['etag', '"1"']]), null).toResponse();
  assert.is(empty.status, 304);
  assert.is(empty.body, null);
});

head.run();
