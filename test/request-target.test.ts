import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { requestTarget } from '../src/core/http/request-target.js';

// The path and query of a request's URL are read off the string when the WHATWG URL parser would
// change nothing (src/core/http/request-target.ts): whatever the string, they must be what `URL` reads.
const target = suite('requestTarget: what new URL(href) reads, without it where nothing would change');

/** What URL makes of `href`, or undefined where the service answers 400 (not a URL, credentials, another scheme). */
function byUrl(href: string) {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  return { pathname: url.pathname, search: url.search, params: [...url.searchParams], href: url.href };
}

function same(href: string) {
  const t = requestTarget(href);
  const expected = byUrl(href);
  const actual = t && { pathname: t.pathname, search: t.search, params: [...t.searchParams], href: t.url.href };
  assert.equal(actual, expected, href);
}

const TRICKY = [
  'http://x.test/player/alice',
  'http://x.test/player/alice/friends?page=2&search=ada',
  'https://x.test:8443/api/v2/player/p0001?mediaType=application%2Fhal%2Bjson',
  'http://x.test/a/../b', 'http://x.test/a/./b', 'http://x.test/a/%2e%2E/b', 'http://x.test/a/.%2e/b', 'http://x.test/.well-known/x',
  'http://x.test/a\\b', 'http://x.test/a b', 'http://x.test/a"b', 'http://x.test/a<b>', 'http://x.test/a`b', 'http://x.test/a{b}', 'http://x.test/a^b|c[d]',
  'http://x.test/ü', 'http://x.test/a?ü=1', "http://x.test/a?b='c'", 'http://x.test/a?b=1#frag', 'http://x.test/a#frag',
  'http://x.test/a?', 'http://x.test/a??b=1', 'http://x.test/a?b=1?c=2', 'http://x.test/a?%zz=%41&+=+', 'http://x.test/%41%zz',
  'HTTP://x.test/a', 'http://X.TEST/a', 'http://x.test', 'http://x.test?a=1', 'http://x.test:80/a', 'http://x.test:99999/a', 'http://x.test:/a',
  'http://user:pw@x.test/a', 'http://@x.test/a', 'http://x.test@y.test/a', 'http://[::1]:3000/a', 'http://[::1/a', 'http:///a', 'http://x y/a',
  'ftp://x.test/a', 'mailto:a@x.test', '', '/player/alice', 'http://x.test/a\tb', 'http://x.test/a\nb', ' http://x.test/a', 'http://x.test/a ',
  'http://x.test//a//b', 'http://x.test/a;b=c/d:e@f', "http://x.test/!$&'()*+,;=:@-._~",
];

target('should read what URL reads of tricky targets', () => {
  for (const href of TRICKY) same(href);
});

target('should read what URL reads of generated targets (fast-check)', () => {
  const piece = fc.constantFrom('a', 'Z', '0', '-', '.', '..', '_', '~', '%', '%2e', '%2E', '%41', '/', '//', '\\', '?', '#', '&', '=', '+', ' ', "'", '"', '@', ':', ';', 'ü', '☃', '\t', '[', ']', '|', '^', '`');
  const host = fc.constantFrom('x.test', 'X.Test:8080', '127.0.0.1:3000', '[::1]', 'a@b', 'x.test:70000', 'bad host', '');
  fc.assert(
    fc.property(fc.constantFrom('http://', 'https://', 'HTTP://', 'ws://'), host, fc.array(piece, { maxLength: 12 }), (scheme, h, pieces) => {
      same(`${scheme}${h}/${pieces.join('')}`);
    }),
    { numRuns: 3000, seed: 3986 },
  );
});

target('should parse no URL for a plain target until one is asked for, then one', () => {
  requestTarget('http://lazy.test/'); // its authority checked once (kept)
  const Real = globalThis.URL;
  let made = 0;
  globalThis.URL = class extends Real {
    constructor(url: string | URL, base?: string | URL) {
      super(url, base);
      made++;
    }
  };
  try {
    const t = requestTarget('http://lazy.test/player/alice/friends?page=2')!;
    assert.is(t.pathname, '/player/alice/friends');
    assert.is(t.searchParams.get('page'), '2');
    assert.is(made, 0);
    assert.is(t.url, t.url);
    assert.is(made, 1);
    // A target the parser would rewrite is parsed at once.
    assert.is(requestTarget('http://lazy.test/a/../b')!.pathname, '/b');
    assert.is(made, 2);
  } finally {
    globalThis.URL = Real;
  }
});

target('should read a query parameter as URLSearchParams does, building none for a query needing no decoding', () => {
  const queries = ['', '?', '?page=2', '?page=2&page=3', '?page', '?page=&x=1', '?x=1&page=a=b', '?&&page=4&', '??page=1', '?pag=1&pages=2&page=7',
    '?page=%32', '?pa%67e=5', '?page=1+1', '?a+b=1&page=2', '?filter[search]=ali&page=2', '?cacheBuster=3&page=5'];
  const Real = globalThis.URLSearchParams;
  for (const query of queries) {
    for (const href of [`http://q.test/player/alice/friends${query}`, `http://q.test/player/./alice/friends${query}`]) {
      const t = requestTarget(href)!;
      const expected = new Real(t.search);
      for (const name of ['page', 'pa', 'x', 'filter[search]', '?page', 'a b', '']) {
        assert.equal(t.getAll(name), expected.getAll(name), `${href} ${name}`);
        assert.is(t.has(name), expected.has(name), `${href} ${name}`);
      }
    }
  }
  let made = 0;
  globalThis.URLSearchParams = class extends Real {
    constructor(init?: ConstructorParameters<typeof Real>[0]) {
      super(init);
      made++;
    }
  };
  try {
    const t = requestTarget('http://q.test/player/alice/friends?page=2&cacheBuster=9')!;
    assert.equal(t.getAll('page'), ['2']);
    assert.is(made, 0);
    assert.equal(requestTarget('http://q.test/player/alice/friends?page=%32')!.getAll('page'), ['2']);
    assert.is(made, 1);
  } finally {
    globalThis.URLSearchParams = Real;
  }
});

target.run();
