import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations } from '../src/index.js';
import { playerRoutes } from './support/player-routes.js';
const apiRoutes = playerRoutes();
import { BASE, demoService } from './support/service.js';

/** Members whose URLs are not links to GET: relation types, forms and their targets, templates, contexts. */
const NOT_LINKS = new Set(['rel', 'actions', 'queries', 'template', 'operation', 'operations', '@context', 'curies', 'expects', 'search']);
const avatarServed = apiRoutes.some((r) => r.path.endsWith('/avatar.png'));

function urlsIn(value: unknown, out: Set<string>, key = ''): Set<string> {
  if (NOT_LINKS.has(key)) return out;
  if (typeof value === 'string') {
    if (value.startsWith(BASE) && !value.includes('{')) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) urlsIn(v, out, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) urlsIn(v, out, k);
  return out;
}

const links = suite('links in every format');

for (const format of defaultRepresentations) {
  links(`should resolve every link of ${format.name} through service.fetch`, async () => {
    const { call } = await demoService();
    const accept = { headers: { Accept: format.mediaType } };
    const urls = new Set<string>();
    const search = `/player/bob/friends/search?${encodeURIComponent(format.searchParameter ?? 'search')}=a`;
    for (const path of ['/player/alice', '/player/alice/friends?page=2', '/player/alice/friends?page=4', search]) {
      const res = await call(path, accept);
      assert.is(res.status, 200, path);
      const text = await res.text();
      if (/json/.test(res.headers.get('content-type') ?? '')) urlsIn(JSON.parse(text), urls);
      // Markup formats: every href attribute (entities decoded), forms excepted.
      else for (const m of text.matchAll(/<a [^>]*href="([^"]+)"/g)) urlsIn(m[1]!.replace(/&amp;/g, '&'), urls);
      for (const m of (res.headers.get('link') ?? '').matchAll(/<([^>]+)>/g)) urls.add(m[1]!);
    }
    assert.ok(urls.size > 10);
    for (const url of urls) {
      if (url.endsWith('/avatar.png') && !avatarServed) continue;
      // Linkage documents exist only in the formats that render them.
      const res = await call(url.slice(BASE.length), url.includes('/relationships/') ? {} : url.endsWith('.png') ? {} : accept);
      assert.ok(res.status < 400, `${format.name}: ${url} answered ${res.status}`);
    }
  });
}

links.run();
