import { suite } from 'uvu';
import { PLAYER } from '../src/player/documents.js';
import * as assert from 'uvu/assert';
import { Client } from 'ketting';
import { collectionJsonRepresentation, HttpError } from '../src/index.js';
import { readCollectionJsonBody } from '../src/representations/collection-json.js';
import { schemaValidators } from './support/schemas.js';
import { startDemoServer } from './support/http-server.js';
import { walkFriendPages } from './support/ketting-walk.js';
import { unresolved } from './support/links.js';
import { BASE, demoService } from './support/service.js';
import { writableService } from './support/writes.js';

const CJ = 'application/vnd.collection+json';
/** A PlayerInput without its error pointers. */
const plain = ({ pointers: _, ...input }: { pointers?: unknown; fields: object; ref?: string }) => input;

const get = async (path: string) => {
  const { call, service } = await demoService();
  const res = await call(path, { headers: { Accept: CJ } });
  return { res, body: await res.json(), service };
};

/** Every URI of a Collection+JSON document: href, links, items and their links, queries (as GETs). */
function hrefs(doc: any): string[] {
  const c = doc.collection;
  const out: string[] = [c.href];
  for (const l of c.links ?? []) out.push(l.href);
  for (const item of c.items ?? []) out.push(item.href, ...(item.links ?? []).map((l: any) => l.href));
  for (const q of c.queries ?? []) out.push(`${q.href}?${q.data.map((d: any) => `${d.name}=${encodeURIComponent(d.value || 'a')}`).join('&')}`);
  return out;
}

const value = (item: any, name: string) => item.data.find((d: any) => d.name === name)?.value;

const player = suite('Collection+JSON player');

player('should render a collection of one item with data, links and the search query', async () => {
  const { res, body } = await get('/player/alice');
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), CJ);
  const c = body.collection;
  assert.is(c.version, '1.0');
  assert.is(c.href, `${BASE}/player/alice`);
  assert.is(c.items.length, 1);
  assert.equal(c.items[0], {
    href: `${BASE}/player/alice`,
    data: [
      { name: 'playerId', value: 'alice', prompt: 'Player id' },
      { name: 'name', value: 'Alice Liddell', prompt: 'Full name' },
      { name: 'alternateName', value: 'alice', prompt: 'Alias' },
      { name: 'image', value: `${BASE}/player/alice/avatar.png`, prompt: 'Picture URL' },
    ],
    links: [
      { rel: 'friends', href: `${BASE}/player/alice/friends`, prompt: 'Friends', render: 'link' },
      { rel: 'avatar', href: `${BASE}/player/alice/avatar.png`, prompt: 'Avatar', render: 'image' },
    ],
  });
  assert.equal(c.links, c.items[0].links);
  assert.equal(c.queries, [
    {
      rel: 'search',
      href: `${BASE}/player/alice/friends/search`,
      name: 'search',
      prompt: 'Search friends',
      data: [{ name: 'search', value: '', prompt: 'Text in alias or name' }],
    },
  ]);
  assert.not.ok('template' in c);
});

player('should leave out the name entry when the player has no display name', async () => {
  const { body } = await get('/player/elif-05');
  assert.equal(body.collection.items[0].data.map((d: any) => d.name), ['playerId', 'alternateName', 'image']);
});

player.run();

const page = suite('Collection+JSON friends page');

page('should render the friends collection with paging links, items, the query and the template', async () => {
  const { body } = await get('/player/alice/friends?page=2');
  const c = body.collection;
  const at = (n: number) => `${BASE}/player/alice/friends?page=${n}`;
  assert.is(c.href, `${BASE}/player/alice/friends`);
  assert.equal(
    c.links.map((l: any) => [l.rel, l.href]),
    [['self', at(2)], ['first', at(1)], ['prev', at(1)], ['next', at(3)], ['last', at(4)], ['up', `${BASE}/player/alice`]],
  );
  assert.is(c.items.length, 10);
  assert.is(value(c.items[0], 'playerId'), 'kai-11');
  assert.equal(c.template, {
    data: [
      { name: 'playerId', value: '', prompt: 'Player id' },
      { name: 'name', value: '', prompt: 'Full name' },
      { name: 'alternateName', value: '', prompt: 'Alias' },
      { name: 'image', value: '', prompt: 'Picture URL' },
    ],
  });
  assert.is(c.queries[0].rel, 'search');
});

page('should leave out prev on the first page and next on the last, and keep items an array when empty', async () => {
  const rels = (b: any) => b.collection.links.map((l: any) => l.rel);
  assert.not.ok(rels((await get('/player/alice/friends')).body).includes('prev'));
  const last = (await get('/player/alice/friends?page=4')).body;
  assert.not.ok(rels(last).includes('next'));
  assert.is(last.collection.items.length, 2);
  assert.equal((await get('/player/elif-05/friends')).body.collection.items, []);
});

page('should render a search page as its own collection with the query prefilled and no template', async () => {
  const { body } = await get('/player/alice/friends/search?search=okafor');
  const c = body.collection;
  assert.is(c.href, `${BASE}/player/alice/friends/search?search=okafor`);
  assert.equal(c.items.map((i: any) => value(i, 'playerId')), ['ada-01', 'ivo-09', 'quinn-17']);
  assert.is(c.queries[0].data[0].value, 'okafor');
  assert.ok(c.links.some((l: any) => l.rel === 'collection' && l.href === `${BASE}/player/alice/friends`));
  assert.not.ok('template' in c);
});

page.run();

const links = suite('Collection+JSON links');

links('should resolve every href, link and query through the service', async () => {
  for (const path of ['/player/alice', '/player/alice/friends?page=3', '/player/alice/friends?page=4', '/player/alice/friends/search?search=o']) {
    const { body, service } = await get(path);
    assert.equal(await unresolved(service, hrefs(body), CJ), [], path);
  }
});

links.run();

const schema = suite('Collection+JSON against the published schemas');

// The schema is written from the specification (test/fixtures/conformance/README.md says why).
schema('should validate against the Collection+JSON schema of the fixtures', async () => {
  const validators = schemaValidators();
  const checks = [validators.collectionJson];
  for (const path of ['/player/alice', '/player/elif-05', '/player/alice/friends', '/player/alice/friends?page=2', '/player/alice/friends?page=4', '/player/elif-05/friends', '/player/alice/friends/search?search=o']) {
    const { body } = await get(path);
    for (const check of checks) assert.equal(check(body), [], path);
  }
  assert.ok(checks[0]!({ collection: { links: [{ href: 'x:y' }] } }).length > 0, 'the schema rejects a link without rel');
});

schema('should validate the write template a client sends back', async () => {
  const validators = schemaValidators();
  const { body } = await get('/player/alice/friends');
  assert.equal(validators.collectionJson({ template: body.collection.template }), []);
});

schema.run();

const body = suite('Collection+JSON request bodies');

body('should read the rendered template, filled in, to the plain field names', async () => {
  const { body: doc } = await get('/player/alice/friends');
  const data = doc.collection.template.data.map((d: any) => ({ ...d }));
  const fill: Record<string, string> = { name: 'Zoe Quill', alternateName: 'zoe', image: 'https://cdn.test/z.png' };
  for (const d of data) d.value = fill[d.name] ?? '';
  assert.equal(await collectionJsonRepresentation.readBody!({ template: { data } }, CJ, PLAYER), {
    fields: { displayName: 'Zoe Quill', alias: 'zoe', image: 'https://cdn.test/z.png' },
    pointers: { displayName: '/template/data/1/value', alias: '/template/data/2/value', image: '/template/data/3/value' },
  });
});

body('should read an item of a page back, and a reference by playerId', async () => {
  const { body: doc } = await get('/player/alice/friends');
  const item = doc.collection.items[0];
  assert.equal(plain(readCollectionJsonBody({ template: { data: item.data } }, PLAYER)), {
    fields: { playerId: 'ada-01', displayName: 'Ada Okafor', alias: 'ada1', image: `${BASE}/player/ada-01/avatar.png` },
  });
  assert.equal(plain(readCollectionJsonBody({ template: { data: [{ name: 'playerId', value: 'bob' }] } }, PLAYER)), { fields: { playerId: 'bob' } });
});

body('should answer 400 for bodies that are not a template, repeated or unknown names', () => {
  const fails = (b: unknown, pointer: string) => {
    try {
      readCollectionJsonBody(b, PLAYER);
      assert.unreachable(JSON.stringify(b));
    } catch (e) {
      assert.instance(e, HttpError);
      assert.is((e as HttpError).status, 400);
      assert.is((e as HttpError).errors?.[0]?.pointer, pointer, JSON.stringify(b));
    }
  };
  fails({ name: 'x' }, '/name');
  fails({}, '/template');
  fails({ template: {} }, '/template/data');
  fails({ template: { data: {} } }, '/template/data');
  fails({ collection: { template: { data: [] } }, template: { data: [] } }, '/collection');
  // Members named like Object.prototype's are members like any other: unknown, named by a pointer.
  fails(JSON.parse('{"template":{"data":[]},"valueOf":1}'), '/valueOf');
  fails(JSON.parse('{"template":{"data":[{"name":"alternateName","value":"a","__proto__":{"x":1}}]}}'), '/template/data/0/__proto__');
  fails({ template: { data: [{ name: 'toString', value: '' }] } }, '/template/data/0/name');
  fails({ template: { data: [7] } }, '/template/data/0');
  fails({ template: { data: [{ value: 'zoe' }] } }, '/template/data/0/name');
  fails({ template: { data: [{ name: 'alternateName', value: 'a' }, { name: 'alternateName', value: 'b' }] } }, '/template/data/1/name');
  fails({ template: { data: [{ name: 'alias', value: 'zoe' }] } }, '/template/data/0/value');
  fails({ template: { data: [{ name: 'nickname', value: '' }] } }, '/template/data/0/name');
  fails([], '');
});

body.run();

const client = suite('Collection+JSON with a real hypermedia client (ketting) over HTTP');

client('should follow friends, then next until the last page, collecting every item', async () => {
  const server = await startDemoServer();
  try {
    const ketting = new Client(server.origin);
    const pages = await walkFriendPages(ketting, CJ, '/player/alice');
    for (const page of pages) assert.is(page.contentHeaders().get('content-type'), CJ);
    const seen = pages.flatMap((page) => page.links.getMany('item').map((l) => l.href));
    assert.is(pages.length, 4);
    assert.is(new Set(seen).size, 32);
    assert.is(pages[3]!.uri, `${server.origin}/player/alice/friends?page=4`);
    const search = await (await ketting.go('/player/alice').follow('search', { search: 'okafor' })).get();
    assert.is(search.links.getMany('item').length, 3);
  } finally {
    await server.close();
  }
});

client.run();

const post = suite('POST /player/{id}/friends with a Collection+JSON template');

post('should create a friend from the filled-in template and add an existing player by playerId', async () => {
  const { send, call } = await writableService();
  const headers = { 'Content-Type': CJ, Accept: CJ };
  const page = await (await call('/player/bob/friends', { headers: { Accept: CJ } })).json();
  const fill: Record<string, string> = { name: 'Zoe Quill', alternateName: 'zoe' };
  const data = page.collection.template.data.map((d: any) => ({ name: d.name, value: fill[d.name] ?? '' }));
  const res = await send('POST', page.collection.href.replace(BASE, ''), { template: { data } }, headers);
  assert.is(res.status, 201);
  const created = (await res.json()).collection.items[0];
  assert.is(res.headers.get('location'), created.href);
  assert.is(value(created, 'alternateName'), 'zoe');
  const byId = await send('POST', '/player/bob/friends', { template: { data: [{ name: 'playerId', value: 'alice' }] } }, headers);
  assert.is(byId.status, 201);
  assert.is(byId.headers.get('location'), `${BASE}/player/alice`);
  assert.is((await call('/player/bob/friends')).headers.get('total-count'), '6');
});

post('should answer 400 for a body that is not a template and change nothing', async () => {
  const { send, call } = await writableService();
  const res = await send('POST', '/player/bob/friends', { collection: { items: [] } }, { 'Content-Type': CJ });
  assert.is(res.status, 400);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  assert.is((await call('/player/bob/friends')).headers.get('total-count'), '4');
});

post.run();
