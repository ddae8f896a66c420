import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from 'ketting';
import { halRepresentation, HttpError } from '../src/index.js';
import { PLAYER, playerResource } from '../src/player/documents.js';
import { readHalBody } from '../src/representations/hal.js';
import { PLAYER_VOCAB } from '../src/player/api.js';
import { schemaValidators } from './support/schemas.js';
import { startDemoServer } from './support/http-server.js';
import { walkFriendPages } from './support/ketting-walk.js';
import { unresolved } from './support/links.js';
import { BASE, demoService } from './support/service.js';
import { writableService } from './support/writes.js';

const HAL = 'application/hal+json';
/** A PlayerInput without its error pointers. */
const plain = ({ pointers: _, ...input }: { pointers?: unknown; fields: object; ref?: string }) => input;

const get = async (path: string) => {
  const { call, service } = await demoService();
  const res = await call(path, { headers: { Accept: HAL } });
  return { res, body: await res.json(), service };
};

/** Every href in a HAL document (links of the root and of embedded resources), curies left out. */
function hrefs(doc: any): string[] {
  const out: string[] = [];
  for (const [rel, links] of Object.entries(doc._links ?? {})) {
    if (rel === 'curies') continue;
    for (const link of ([] as any[]).concat(links)) out.push(link.href);
  }
  for (const list of Object.values(doc._embedded ?? {})) for (const item of ([] as any[]).concat(list)) out.push(...hrefs(item));
  return out;
}

const player = suite('HAL player');

player('should render a player with self, curies, friends, avatar, search and the alternate field names', async () => {
  const { res, body } = await get('/player/alice');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), HAL);
  assert.is(res.headers.get('vary'), 'Accept, Authorization, Api-Version');
  assert.equal(body, {
    _links: {
      self: { href: `${BASE}/player/alice` },
      curies: [{ name: 'ph', href: `${PLAYER_VOCAB}{rel}`, templated: true }],
      friends: { href: `${BASE}/player/alice/friends` },
      avatar: { href: `${BASE}/player/alice/avatar.png`, type: 'image/png' },
      search: { href: `${BASE}/player/alice/friends/search{?search}`, templated: true },
    },
    playerId: 'alice',
    name: 'Alice Liddell',
    alternateName: 'alice',
    image: `${BASE}/player/alice/avatar.png`,
  });
});

player('should leave out name when the player has no display name', async () => {
  const { body } = await get('/player/elif-05');
  assert.equal(Object.keys(body), ['_links', 'playerId', 'alternateName', 'image']);
});

player('should give a different ETag than the plain JSON player', async () => {
  const { call } = await demoService();
  const json = await call('/player/alice');
  const hal = await call('/player/alice', { headers: { Accept: HAL } });
  assert.is.not(json.headers.get('etag'), hal.headers.get('etag'));
});

player.run();

const page = suite('HAL friends page');

page('should render a middle page with paging links, size as a string and an _embedded.player array', async () => {
  const { body } = await get('/player/alice/friends?page=2');
  const at = (n: number) => `${BASE}/player/alice/friends?page=${n}`;
  assert.equal(body._links.self, { href: at(2) });
  assert.equal(body._links.first, { href: at(1) });
  assert.equal(body._links.prev, { href: at(1) });
  assert.equal(body._links.next, { href: at(3) });
  assert.equal(body._links.last, { href: at(4) });
  assert.equal(body._links.search, { href: `${BASE}/player/alice/friends/search{?search}`, templated: true });
  assert.is(body.size, '10');
  assert.is(body.total, 32);
  assert.ok(Array.isArray(body._embedded.player));
  assert.is(body._embedded.player.length, 10);
  const first = body._embedded.player[0];
  // Embedded players are partial (section 4.1.2): self and friends; the avatar URL is their `image`.
  assert.equal(Object.keys(first._links), ['self', 'friends']);
  assert.is(first._links.self.href, `${BASE}/player/${first.playerId}`);
  assert.is(first._links.friends.href, `${BASE}/player/${first.playerId}/friends`);
  assert.is(first.image, `${BASE}/player/${first.playerId}/avatar.png`);
});

page('should declare curies on the root resource only', async () => {
  const { body } = await get('/player/alice/friends');
  assert.equal(body._links.curies, [{ name: 'ph', href: `${PLAYER_VOCAB}{rel}`, templated: true }]);
  for (const item of body._embedded.player) assert.not.ok('curies' in item._links, item.playerId);
});

page('should leave out prev on the first page and next on the last', async () => {
  const first = (await get('/player/alice/friends')).body;
  assert.not.ok('prev' in first._links);
  const last = (await get('/player/alice/friends?page=4')).body;
  assert.not.ok('next' in last._links);
  assert.is(last.size, '2');
  assert.is(last._embedded.player.length, 2);
});

page('should keep _embedded.player an array on an empty page', async () => {
  const { body } = await get('/player/elif-05/friends');
  assert.equal(body._embedded, { player: [] });
  assert.is(body.size, '0');
});

page('should render search results with their query and the owner collection', async () => {
  const { body } = await get('/player/alice/friends/search?search=okafor');
  assert.is(body.query, 'okafor');
  assert.equal(body._embedded.player.map((p: any) => p.playerId), ['ada-01', 'ivo-09', 'quinn-17']);
  assert.is(body._links.collection.href, `${BASE}/player/alice/friends`);
  assert.is(body._links.self.href, `${BASE}/player/alice/friends/search?search=okafor&page=1`);
});

page.run();

const links = suite('HAL links');

links('should resolve every link of a player, a page and a search page through the service', async () => {
  for (const path of ['/player/alice', '/player/alice/friends?page=2', '/player/alice/friends?page=4', '/player/alice/friends/search?search=a']) {
    const { body, service } = await get(path);
    assert.equal(await unresolved(service, hrefs(body), HAL), [], path);
  }
});

links('should keep the curies its own in a hand-built resource that names a link so', () => {
  const doc = playerResource(BASE, { playerId: 'bob', alias: 'bobby', revision: '1', modifiedAt: 0 });
  const text = halRepresentation.render({ ...doc, links: [...doc.links, { rel: 'curies', href: 'https://x.test/{rel}' }] });
  assert.is(text.split('"curies":').length - 1, 1);
  assert.is(JSON.parse(text)._links.curies[0].name, 'ph');
});

links.run();

const schema = suite('HAL against the published hyperschema.org schema');

schema('should validate a player, first, middle, last, empty and search pages', async () => {
  const validators = schemaValidators();
  const check = validators.hal;
  for (const path of ['/player/alice', '/player/elif-05', '/player/alice/friends', '/player/alice/friends?page=2', '/player/alice/friends?page=4', '/player/elif-05/friends', '/player/alice/friends/search?search=o']) {
    assert.equal(check((await get(path)).body), [], path);
  }
  assert.ok(check({ _links: { self: { name: 1 } } }).length > 0, 'the schema rejects a link without href');
});

schema.run();

const body = suite('HAL request bodies');

body('should read a rendered player back to the plain field names', async () => {
  const { body: doc } = await get('/player/alice');
  const input = await halRepresentation.readBody!(doc, HAL, PLAYER);
  assert.equal(plain(input), {
    fields: { playerId: 'alice', displayName: 'Alice Liddell', alias: 'alice', image: `${BASE}/player/alice/avatar.png` },
    ref: `${BASE}/player/alice`,
  });
});

body('should read the add-friend payload and the references', () => {
  assert.equal(readHalBody({ name: 'Zoe Quill', alternateName: 'zoe', image: 'https://cdn.test/z.png' }, PLAYER), {
    fields: { displayName: 'Zoe Quill', alias: 'zoe', image: 'https://cdn.test/z.png' },
    pointers: { displayName: '/name', alias: '/alternateName', image: '/image' },
  });
  assert.equal(plain(readHalBody({ playerId: 'bob' }, PLAYER)), { fields: { playerId: 'bob' } });
  assert.equal(readHalBody({ _links: { self: { href: `${BASE}/player/bob` } }, _embedded: {} }, PLAYER), {
    fields: {},
    pointers: { ref: '/_links/self/href' },
    ref: `${BASE}/player/bob`,
  });
});

body('should answer 400 for unknown fields, a bad self link or a body that is not an object', () => {
  const status = (b: unknown) => {
    try {
      readHalBody(b, PLAYER);
      return 0;
    } catch (e) {
      assert.instance(e, HttpError);
      return (e as HttpError).status;
    }
  };
  assert.is(status({ alias: 'zoe' }), 400);
  assert.is(status({ _links: { self: { href: 3 } } }), 400);
  assert.is(status({ _links: [] }), 400);
  assert.is(status([]), 400);
  assert.is(status('zoe'), 400);
  try {
    readHalBody({ alternateName: 'zoe', 'a/b': 1 }, PLAYER);
  } catch (e) {
    assert.equal((e as HttpError).errors, [{ pointer: '/a~1b', detail: 'unknown field "a/b"; expected playerId, name, alternateName or image' }]);
  }
});

body.run();

const client = suite('HAL with a real hypermedia client (ketting) over HTTP');

client('should follow friends, then next until the last page, collecting every embedded friend', async () => {
  const server = await startDemoServer();
  try {
    const ketting = new Client(server.origin);
    const pages = await walkFriendPages(ketting, HAL, '/player/alice');
    for (const page of pages) assert.is(page.contentHeaders().get('content-type'), HAL);
    const seen = pages.flatMap((page) => page.getEmbedded().map((e) => (e.data as { playerId: string }).playerId));
    assert.is(pages.length, 4);
    assert.is(seen.length, 32);
    assert.is(new Set(seen).size, 32);
    assert.is(pages[3]!.uri, `${server.origin}/player/alice/friends?page=4`);
    const search = await (await ketting.go('/player/alice').follow('search', { search: 'okafor' })).get();
    assert.is(search.getEmbedded().length, 3);
  } finally {
    await server.close();
  }
});

client.run();

const post = suite('POST /player/{id}/friends with a HAL body');

post('should create a friend from the HAL payload, answer 201 with its HAL representation, and add a reference', async () => {
  const { send, call } = await writableService();
  const headers = { 'Content-Type': HAL, Accept: HAL };
  const res = await send('POST', '/player/bob/friends', { name: 'Zoe Quill', alternateName: 'zoe', image: 'https://cdn.test/z.png' }, headers);
  assert.is(res.status, 201);
  const created = await res.json();
  assert.is(res.headers.get('location'), created._links.self.href);
  assert.is(created.name, 'Zoe Quill');
  assert.is(created.alternateName, 'zoe');
  const byLink = await send('POST', '/player/bob/friends', { _links: { self: { href: `${BASE}/player/alice` } } }, headers);
  assert.is(byLink.status, 201);
  assert.is(byLink.headers.get('location'), `${BASE}/player/alice`);
  const page = await (await call('/player/bob/friends', { headers: { Accept: HAL } })).json();
  assert.is(page.total, 6);
});

post('should answer 400 for an unknown member and change nothing', async () => {
  const { send, call } = await writableService();
  const res = await send('POST', '/player/bob/friends', { alias: 'zoe' }, { 'Content-Type': HAL });
  assert.is(res.status, 400);
  assert.is((await res.json()).errors[0].pointer, '/alias');
  assert.is((await call('/player/bob/friends')).headers.get('total-count'), '4');
});

post.run();
