import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, defaultRepresentations, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { hashString, RENDER_GENERATION, revisionOfEtag, TagInput } from '../src/core/respond/etag.js';
import { demoService } from './support/service.js';
import { TINY_MEDIA_TYPE, tinyRepresentation } from './support/tiny-format.js';

const units = suite('etag helpers');

// The tags as first written: the route's key, revisions and slice joined into one text, then hashed.
// TagInput must give exactly these (clients and caches hold them).
const representationKey = (format: string, planVariant: string | undefined, requestVariant: string | undefined, url: string) =>
  `${format}|${planVariant ?? ''}|${requestVariant ?? ''}|${url}`;
const sliceKey = (slice: { total: number; items: readonly Record<string, string>[] }, idField: string) =>
  String(slice.total) + slice.items.map((p) => `|${p[idField]}:${p.revision}`).join('');
const itemEtag = (revision: string, dependsOn: string) => `"${revision}-${hashString(`${RENDER_GENERATION}|${dependsOn}`)}"`;
const pageEtag = (dependsOn: string, ownerRevision = '') => `"p${ownerRevision}-${hashString(`${RENDER_GENERATION}|${dependsOn}`)}"`;

units('should put the revision first in a player tag, and read it back from strong tags only', () => {
  const tag = new TagInput().add('json|||https://x.test/player/bob').itemTag('17');
  assert.is(tag, itemEtag('17', 'json|||https://x.test/player/bob'));
  assert.match(tag, /^"17-[0-9a-z]+"$/);
  assert.is(revisionOfEtag(tag), '17');
  assert.is(revisionOfEtag(`W/${tag}`), undefined);
  assert.is(revisionOfEtag(new TagInput().add('x').pageTag()), undefined);
});

units('should name players by id and revision in a slice key', () => {
  const two = { total: 2, items: [{ playerId: 'a', revision: '1' }, { playerId: 'b', revision: '1' }] };
  assert.is(new TagInput(false).addSlice(two, 'playerId').digest(), hashString('2|a:1|b:1'));
  // Any ids and revisions: the hash of the concatenation, after what was added before, and before what follows.
  const ids = ['p0001', 'ünï-☃', 'x'.repeat(70), '9f8e7d6c-5b4a-4321-8765-0123456789ab', '', '🎲🎲'];
  const items = ids.map((id, i) => ({ bookId: id, revision: String(i * 977 + 1) }));
  const text = `head|${ids.length + 3}${items.map((m) => `|${m.bookId}:${m.revision}`).join('')}|tail`;
  assert.is(new TagInput(false).add('head|').addSlice({ total: ids.length + 3, items }, 'bookId').add('|tail').digest(), hashString(text));
  assert.is.not(
    new TagInput().addSlice({ total: 2, items: [{ playerId: 'a', revision: '1' }] } as never, 'playerId').pageTag(),
    new TagInput().addSlice({ total: 2, items: [{ playerId: 'c', revision: '1' }] } as never, 'playerId').pageTag(),
  );
  assert.is(hashString('hello'), hashString('hello'));
  assert.is.not(hashString('hello'), hashString('hellp'));
});

units('should keep every tag it ever gave: the hash is cyrb53 written in base 36, as Number#toString(36) writes it', () => {
  // The reference: cyrb53 as first shipped, its 53 bits converted by the engine.
  const reference = (input: string) => {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < input.length; i++) {
      h1 = Math.imul(h1 ^ input.charCodeAt(i), 2654435761);
      h2 = Math.imul(h2 ^ input.charCodeAt(i), 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  assert.is(hashString('hello'), reference('hello'));
  assert.is(hashString(''), reference(''));
  for (let i = 0; i < 5_000; i++) {
    const input = `2|hal|||https://x.test/player/p${i}|${i * 7919}`;
    assert.is(hashString(input), reference(input), input);
  }
});

units('should give the same tags from pieces as from the joined text', () => {
  const slice = { total: 12, items: [{ playerId: 'bob', revision: '7' }, { playerId: 'carol', revision: '9' }] };
  const key = representationKey('hal', 'fields=x', undefined, 'https://x.test/player/alice');
  assert.is(new TagInput().addRepresentation('hal', 'fields=x', undefined, 'https://x.test/player/alice').itemTag('17'), itemEtag('17', key));
  assert.is(
    new TagInput().addRepresentation('hal', undefined, 'v2', 'https://x.test/player/alice').add('|41|friends||2|10|').addSlice(slice, 'playerId').pageTag('41'),
    pageEtag(`${representationKey('hal', undefined, 'v2', 'https://x.test/player/alice')}|41|friends||2|10|${sliceKey(slice, 'playerId')}`, '41'),
  );
  assert.is.not(new TagInput().add('ab').digest(), new TagInput().add('ba').digest());
});

units.run();

const tags = suite('ETags through the service');
const formats = [...defaultRepresentations, tinyRepresentation];
const etagOf = async (res: Response | Promise<Response>) => (await res).headers.get('etag');

tags('should differ between representations and between variants of one representation', async () => {
  const { call } = await demoService({ representations: formats });
  const seen = new Set<string | null>();
  for (const [path, accept] of [
    ['/player/alice', 'application/json'],
    ['/player/alice', TINY_MEDIA_TYPE],
    ['/player/alice?shout=1', TINY_MEDIA_TYPE],
    ['/player/alice?embed=friends', TINY_MEDIA_TYPE],
    ['/player/alice?shout=1&embed=friends', TINY_MEDIA_TYPE],
    ['/player/alice/friends', 'application/json'],
    ['/player/alice/friends', TINY_MEDIA_TYPE],
    ['/player/alice/friends?shout=1', TINY_MEDIA_TYPE],
  ] as const) {
    seen.add(await etagOf(call(path, { headers: { Accept: accept } })));
  }
  assert.is(seen.size, 8);
});

tags('should be the same for GET and HEAD, and for repeated requests', async () => {
  const { call } = await demoService();
  const a = await etagOf(call('/player/alice/friends?page=2'));
  assert.is(await etagOf(call('/player/alice/friends?page=2', { method: 'HEAD' })), a);
  assert.is(await etagOf(call('/player/alice/friends?page=2')), a);
});

tags('should change when an embedded friend changes, and only then', async () => {
  const { call, store } = await demoService({ representations: formats });
  const embedded = { headers: { Accept: TINY_MEDIA_TYPE } };
  const before = await etagOf(call('/player/alice?embed=friends', embedded));
  const plain = await etagOf(call('/player/alice', embedded));
  await store.putPlayer({ playerId: 'ada-01', alias: 'ada-renamed' });
  const after = await call('/player/alice?embed=friends', embedded);
  assert.is.not(after.headers.get('etag'), before);
  assert.match(await after.text(), 'ada-renamed');
  assert.is(await etagOf(call('/player/alice', embedded)), plain);
});

tags('should change a page when the owner\'s list changes, also off the page (total, order)', async () => {
  const { call, store } = await demoService();
  const page1 = await etagOf(call('/player/alice/friends?page=1'));
  const page4 = await etagOf(call('/player/alice/friends?page=4'));
  await store.putPlayer({ playerId: 'new-friend', alias: 'newbie' });
  await store.addFriend('alice', 'new-friend');
  // Page 1 keeps its ten players but the total (and the last link) changed.
  assert.is.not(await etagOf(call('/player/alice/friends?page=1')), page1);
  assert.is.not(await etagOf(call('/player/alice/friends?page=4')), page4);
  const mid = await etagOf(call('/player/alice/friends?page=2'));
  await store.removeFriend('alice', 'ada-01');
  assert.is.not(await etagOf(call('/player/alice/friends?page=2')), mid);
});

tags('should change with the base URL, its path prefix, and the request variant', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const tagAt = async (baseUrl: string, path: string) =>
    etagOf(createPlayerService({ baseUrl, store }).fetch(new Request(baseUrl + path)));
  const seen = new Set<string | null>();
  for (const path of ['/player/alice', '/player/alice/friends']) {
    seen.add(await tagAt('https://a.test', path));
    seen.add(await tagAt('https://b.test', path));
    seen.add(await tagAt('https://a.test/games/api', path));
  }
  assert.is(seen.size, 6);
  // The same body from another service instance on the same store has the same tag.
  assert.is(await tagAt('https://a.test', '/player/alice'), await tagAt('https://a.test', '/player/alice'));
});

tags('should change when the search text, page or page size changes', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const seen = new Set<string | null>();
  for (const pageSize of [5, 10]) {
    const s = createPlayerService({ baseUrl: 'https://a.test', store, pageSize });
    for (const path of ['/player/alice/friends?page=2', '/player/alice/friends/search?search=a', '/player/alice/friends/search?search=a%7C1']) {
      seen.add(await etagOf(s.fetch(new Request(`https://a.test${path}`))));
    }
  }
  assert.is(seen.size, 6);
});

tags.run();

const proxied = suite('ETags and Vary behind a trusted proxy');

proxied('should change the ETag with the forwarded host and prefix, and name the forwarding fields in Vary', async () => {
  const { call } = await demoService({ trustProxy: true });
  const a = await call('/player/alice', { headers: { 'X-Forwarded-Host': 'a.example', 'X-Forwarded-Proto': 'https' } });
  const b = await call('/player/alice', { headers: { 'X-Forwarded-Host': 'b.example', 'X-Forwarded-Proto': 'https' } });
  const c = await call('/player/alice', { headers: { Forwarded: 'host=a.example;proto=https', 'X-Forwarded-Prefix': '/games' } });
  assert.is(new Set([a, b, c].map((r) => r.headers.get('etag'))).size, 3);
  assert.is(a.headers.get('vary'), 'Accept, Authorization, Forwarded, X-Forwarded-Proto, X-Forwarded-Host, X-Forwarded-Prefix, Api-Version');
  const { call: direct } = await demoService();
  assert.is((await direct('/player/alice')).headers.get('vary'), 'Accept, Authorization, Api-Version');
});

proxied.run();

const oneBody = suite('one ETag, one body');

oneBody('should never give two different bodies the same ETag, in any format, across changes', async () => {
  const { call, store } = await demoService({ representations: formats, pageSize: 5 });
  const bodies = new Map<string, string>();
  let observations = 0;
  const observe = async () => {
    for (const r of formats) {
      const paths = ['/player/alice', '/player/ada-01', '/player/alice/friends?page=1', '/player/alice/friends?page=2', `/player/alice/friends/search?${encodeURIComponent(r.searchParameter ?? 'search')}=o`];
      if (r.mediaType === 'application/vnd.api+json') {
        // JSON:API variants: sparse fieldsets and include, alone and together.
        paths.push('/player/alice?include=friends', '/player/alice?fields[players]=name', '/player/alice?include=friends&fields[players]=alternateName,friends');
        paths.push('/player/alice/friends?fields[players]=name', '/player/alice/relationships/friends');
      }
      if (r.mediaType === TINY_MEDIA_TYPE) paths.push('/player/alice?embed=friends', '/player/alice?shout=1&embed=friends');
      for (const path of paths) {
        const res = await call(path, { headers: { Accept: r.mediaType } });
        assert.is(res.status, 200, `${r.name} ${path}`);
        const etag = res.headers.get('etag')!;
        const body = await res.text();
        const seen = bodies.get(etag);
        if (seen !== undefined) assert.is(body, seen, `${r.name} ${path}: one ETag, two bodies`);
        bodies.set(etag, body);
        observations++;
      }
    }
  };
  await observe();
  await store.putPlayer({ playerId: 'ada-01', alias: 'ada', displayName: 'Ada Renamed' });
  await observe();
  await store.putPlayer({ playerId: 'late', alias: 'lateo' });
  await store.addFriend('alice', 'late');
  await observe();
  await store.removeFriend('alice', 'brook-02');
  await observe();
  await store.putPlayer({ playerId: 'alice', alias: 'alice', displayName: 'Alice Renamed' });
  await observe();
  // Enough distinct bodies were seen for the check to mean something.
  assert.ok(new Set(bodies.values()).size > formats.length * 10, String(bodies.size));
  assert.ok(observations > bodies.size);
});

oneBody.run();
