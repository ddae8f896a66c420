import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendVary, copyFields, mergeFields, varyWith, type Fields } from '../src/core/respond/fields.js';

// Response header fields as the service builds them (src/core/respond/fields.ts).
const fields = suite('response fields: copies, Vary and merged request fields');

fields('copyFields: the same fields in the same order, changed without changing the original', () => {
  const original: Fields = new Map([
    ['api-version', '1.0'],
    ['vary', 'Accept'],
    ['link', '<https://x.test/docs.jsonld>; rel="doc"'],
  ]);
  const copy = copyFields(original);
  assert.equal([...copy], [...original]);
  copy.set('vary', 'Accept, Origin');
  copy.delete('link');
  copy.set('etag', '"1-a"');
  assert.equal([...original], [['api-version', '1.0'], ['vary', 'Accept'], ['link', '<https://x.test/docs.jsonld>; rel="doc"']]);
});

fields('Vary: a name is added once, whatever its case, and never beside *', () => {
  assert.is(varyWith(null, 'Accept'), 'Accept');
  assert.is(varyWith('Accept', 'accept'), 'Accept');
  assert.is(varyWith('Accept, Api-Version', 'Api-Version'), 'Accept, Api-Version');
  assert.is(varyWith('Accept', 'Origin'), 'Accept, Origin');
  assert.is(varyWith('*', 'Origin'), '*');
  // Worked out once per pair, and right past the bound of what is remembered.
  for (let i = 0; i < 200; i++) {
    assert.is(varyWith(`X-${i}`, 'Accept'), `X-${i}, Accept`);
    assert.is(varyWith(`X-${i}, Accept`, 'accept'), `X-${i}, Accept`);
    assert.is(varyWith('Accept', `X-${i}`), `Accept, X-${i}`);
  }
  assert.is(varyWith('Accept', 'Origin'), 'Accept, Origin');
  const f: Fields = new Map();
  appendVary(f, 'Accept');
  appendVary(f, 'Accept');
  assert.is(f.get('vary'), 'Accept');
});

fields('mergeFields: the request fields join an answer, its Link after the answer own, none on a 304', () => {
  const request = new Map([
    ['api-version', '2.0'],
    ['link', '<https://x.test/docs.jsonld>; rel="doc"'],
  ]);
  const ok: Fields = new Map([['link', '<https://x.test/a>; rel="self"']]);
  mergeFields(ok, request, 'Api-Version');
  assert.equal([...ok], [['link', '<https://x.test/a>; rel="self", <https://x.test/docs.jsonld>; rel="doc"'], ['vary', 'Api-Version'], ['api-version', '2.0']]);
  // Idempotent.
  mergeFields(ok, request, 'Api-Version');
  assert.is(ok.get('link'), '<https://x.test/a>; rel="self", <https://x.test/docs.jsonld>; rel="doc"');
  const notModified: Fields = new Map();
  mergeFields(notModified, request, 'Api-Version', 304);
  assert.is(notModified.has('link'), false);
});

fields('mergeFields: one link or several, each added once, whatever the spaces around them', () => {
  const ok: Fields = new Map([['link', '<https://x.test/a>; rel="self", <https://x.test/docs.jsonld>; rel="doc"']]);
  mergeFields(ok, new Map([['link', ' <https://x.test/docs.jsonld>; rel="doc" ']]), 'Api-Version');
  assert.is(ok.get('link'), '<https://x.test/a>; rel="self", <https://x.test/docs.jsonld>; rel="doc"');
  mergeFields(ok, new Map([['link', '<https://x.test/v2>; rel="successor-version"']]), 'Api-Version');
  assert.is(ok.get('link'), '<https://x.test/a>; rel="self", <https://x.test/docs.jsonld>; rel="doc", <https://x.test/v2>; rel="successor-version"');
  mergeFields(ok, new Map([['link', '<https://x.test/a>; rel="self",  <https://x.test/b>; rel="next"']]), 'Api-Version');
  assert.is(ok.get('link'), '<https://x.test/a>; rel="self", <https://x.test/docs.jsonld>; rel="doc", <https://x.test/v2>; rel="successor-version", <https://x.test/b>; rel="next"');
});

fields.run();
