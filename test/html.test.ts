import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryPlayerStore, createPlayerService } from '../src/index.js';
import { escapeHtml } from '../src/representations/html.js';
import { BASE, demoService } from './support/service.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const hrefs = (body: string) => [...body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

const html = suite('text/html representation');

html('should be chosen by a browser Accept but never by */* or a missing Accept', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice', { headers: { Accept: BROWSER } });
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(res.headers.get('vary')!, 'Accept');
  assert.ok(res.headers.get('etag'));
  for (const accept of ['*/*', '', 'application/*']) {
    const other = await call('/player/alice', accept ? { headers: { Accept: accept } } : {});
    assert.is.not(other.headers.get('content-type'), 'text/html; charset=utf-8', accept);
  }
});

html('should show the player with its fields, real links and a search form', async () => {
  const { call } = await demoService();
  const body = await (await call('/player/alice', { headers: { Accept: 'text/html' } })).text();
  assert.match(body, '<!doctype html>');
  assert.match(body, '<h1>Alice Liddell</h1>');
  assert.match(body, `<a rel="friends" href="${BASE}/player/alice/friends">`);
  assert.match(body, `<form class="search" name="search" method="get" action="${BASE}/player/alice/friends/search">`);
  for (const href of hrefs(body)) assert.ok(href.startsWith(`${BASE}/player/`), href);
});

html('should page the friends with first/prev/next/last links and carry both forms', async () => {
  const { call } = await demoService();
  const body = await (await call('/player/alice/friends?page=2', { headers: { Accept: 'text/html' } })).text();
  assert.match(body, `<a rel="next" href="${BASE}/player/alice/friends?page=3">Next</a>`);
  assert.match(body, `<a rel="prev" href="${BASE}/player/alice/friends?page=1">Previous</a>`);
  assert.match(body, '<ol class="friends" start="11">');
  assert.is(body.match(/<a class="member"/g)?.length, 10);
  assert.match(body, `method="post" action="${BASE}/player/alice/friends" enctype="application/x-www-form-urlencoded"`);
  assert.match(body, '<input name="alternateName" type="text" required>');
  assert.match(body, '<input name="image" type="url">');
  const last = await (await call('/player/alice/friends?page=4', { headers: { Accept: 'text/html' } })).text();
  assert.not.match(last, 'rel="next"');
});

html('should keep the search text in the search page and its form, escaped', async () => {
  const { call } = await demoService();
  const body = await (await call('/player/alice/friends/search?search=%22%3Ca%26', { headers: { Accept: 'text/html' } })).text();
  assert.match(body, 'value="&quot;&lt;a&amp;"');
  assert.match(body, 'matching “&quot;&lt;a&amp;”');
  assert.not.match(body, '<a&');
});

html('should escape every player field', async () => {
  const store = new MemoryPlayerStore();
  await store.putPlayer({ playerId: 'x', alias: '<script>alert(1)</script>', displayName: `"Bobby" & 'Tables'` });
  const service = createPlayerService({ baseUrl: BASE, store });
  const body = await (await service.fetch(new Request(`${BASE}/player/x`, { headers: { Accept: 'text/html' } }))).text();
  assert.not.match(body, '<script>');
  assert.match(body, '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.match(body, '<h1>&quot;Bobby&quot; &amp; &#39;Tables&#39;</h1>');
});

html('should render errors as an HTML page with the problem status', async () => {
  const { call } = await demoService();
  const res = await call('/player/nobody', { headers: { Accept: 'text/html' } });
  assert.is(res.status, 404);
  assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await res.text(), '<h1>404 Not Found</h1>');
});

html('should link every page to its raw representation in every other format, which a browser then gets', async () => {
  const { service, call } = await demoService();
  const others = service.config.representations.filter((r) => r.mediaType !== 'text/html');
  for (const path of ['/player/alice', '/player/alice/friends?page=2', '/player/alice/friends/search?search=ada']) {
    const body = await (await call(path, { headers: { Accept: BROWSER } })).text();
    const nav = /<nav class="formats">(.*?)<\/nav>/.exec(body)?.[1] ?? '';
    const links = [...nav.matchAll(/type="([^"]+)" href="([^"]+)"/g)].map((m) => ({ type: m[1]!, href: m[2]!.replace(/&amp;/g, '&') }));
    assert.equal(links.map((l) => l.type), others.map((r) => r.mediaType), path);
    for (const { type, href } of links) {
      // A browser follows the link with its own Accept: the URL names the format.
      const raw = await service.fetch(new Request(href, { headers: { Accept: BROWSER } }));
      assert.is(raw.status, 200, href);
      assert.is(raw.headers.get('content-type')?.split(';')[0], type, href);
      const plain = new URL(href);
      plain.searchParams.delete('mediaType');
      const negotiated = await service.fetch(new Request(plain, { headers: { Accept: type } }));
      assert.is(await raw.text(), await negotiated.text(), `${href}: the same body as Accept: ${type}`);
      assert.is(raw.headers.get('etag'), negotiated.headers.get('etag'));
    }
  }
  const unknown = await call('/player/alice?mediaType=image%2Fgif');
  assert.is(unknown.status, 406);
  assert.match((await unknown.json()).detail, 'mediaType parameter');
});

html('should escape the five special characters', () => {
  assert.is(escapeHtml(`<a href="x">Tom & 'J'</a>`), '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;J&#39;&lt;/a&gt;');
});

html.run();
