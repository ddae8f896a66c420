import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { pathSegment } from '../src/core/model/urls.js';

// Item URLs put the id through pathSegment: unreserved ids (RFC 3986 section 2.3) as they are, any other
// exactly as encodeURIComponent writes it.
const segment = suite('pathSegment: an id as one URL path segment');

segment('should write what encodeURIComponent writes, for ids of every kind', () => {
  const samples = ['alice', 'ada-01', 'a.b_c~d', '', 'a b', 'a/b', 'a?b#c', '%41', "it's", 'naïve', '日本', '😀', 'a+b', '!*()'];
  const alphabet = ['a', 'Z', '0', '-', '.', '_', '~', ' ', '/', '%', '?', '#', '&', '=', '+', "'", '(', '!', '*', 'é', '中', '😀', ':', '@'];
  for (let i = 0; i < 2000; i++) {
    let id = '';
    for (let k = (i * 7) % 12; k >= 0; k--) id += alphabet[(i * 31 + k * 17) % alphabet.length];
    samples.push(id);
  }
  for (const id of samples) assert.is(pathSegment(id), encodeURIComponent(id), JSON.stringify(id));
});

segment('should refuse a lone surrogate as encodeURIComponent does', () => {
  assert.throws(() => pathSegment('\ud800'), (error: unknown) => error instanceof URIError);
});

segment.run();
