import { suite } from 'uvu';
import { PLAYER } from '../src/player/documents.js';
import * as assert from 'uvu/assert';
import { bearerTokens, HttpError, jsonApiRepresentation } from '../src/index.js';
import { JSON_API_MEDIA_TYPE } from '../src/representations/json-api.js';
import { schemaValidators } from './support/schemas.js';
import { BASE, demoService } from './support/service.js';

const API = { headers: { Accept: JSON_API_MEDIA_TYPE } };
const schemas = schemaValidators();
const ids = (list: { id: string }[]) => list.map((r) => r.id);

const shape = suite('JSON:API shapes');

shape('should render a player as a players resource with the friends relationship and its linkage', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice', API);
  assert.is(res.headers.get('content-type'), JSON_API_MEDIA_TYPE);
  const doc = await res.json();
  assert.is(doc.data.type, 'players');
  assert.is(doc.data.id, 'alice');
  assert.equal(doc.data.attributes, { name: 'Alice Liddell', alternateName: 'alice', image: `${BASE}/player/alice/avatar.png` });
  const friends = doc.data.relationships.friends;
  assert.is(friends.links.self, `${BASE}/player/alice/relationships/friends`);
  assert.is(friends.links.related, `${BASE}/player/alice/friends`);
  assert.is(friends.links.next, `${BASE}/player/alice/relationships/friends?page=2`);
  assert.is(friends.data.length, 10);
  assert.equal(friends.data[0], { type: 'players', id: 'ada-01' });
  assert.equal(friends.meta, { total: 32 });
  assert.equal(doc.links, { self: `${BASE}/player/alice` });
  assert.is(doc.included, undefined);
  assert.match(res.headers.get('link')!, `<${BASE}/player/alice/friends>; rel="friends"`);
});

shape('should render a page with data, paging links and totals in meta', async () => {
  const { call } = await demoService();
  const doc = await (await call('/player/alice/friends?page=2', API)).json();
  assert.is(doc.data.length, 10);
  assert.equal(doc.meta, { total: 32, page: 2, pageSize: 10, lastPage: 4, size: '10' });
  assert.equal(doc.links, {
    self: `${BASE}/player/alice/friends?page=2`,
    first: `${BASE}/player/alice/friends?page=1`,
    prev: `${BASE}/player/alice/friends?page=1`,
    next: `${BASE}/player/alice/friends?page=3`,
    last: `${BASE}/player/alice/friends?page=4`,
  });
  const search = await (await call('/player/alice/friends/search?filter[search]=okafor', API)).json();
  assert.is(search.meta.search, 'okafor');
  assert.ok(search.data.every((p: { attributes: { name: string } }) => p.attributes.name.includes('Okafor')));
  // RFC 3986 has no brackets in a query: the links percent-encode them (as JSON:API advises).
  assert.is(search.links.self, `${BASE}/player/alice/friends/search?filter%5Bsearch%5D=okafor&page=1`);
});

shape('should follow the query parameter rules of JSON:API 1.1: filter[search], and 400 for unknown all-lowercase names', async () => {
  const { call } = await demoService();
  // The list itself can be filtered too; its pages are the search's.
  const filtered = await call('/player/alice/friends?filter[search]=okafor', API);
  assert.is(filtered.status, 200);
  const body = await filtered.json();
  assert.ok(body.data.length > 0 && body.data.every((p: { attributes: { name: string } }) => p.attributes.name.includes('Okafor')));
  for (const [path, parameter] of [
    ['/player/alice/friends/search?search=okafor', 'search'],
    ['/player/alice?foo=1', 'foo'],
    ['/player/alice/friends?filter[alias]=x', 'filter[alias]'],
  ] as const) {
    const res = await call(path, API);
    assert.is(res.status, 400, path);
    assert.is((await res.json()).errors[0].source.parameter, parameter, path);
  }
  // Implementation-specific names (with a character outside a-z) and page are fine; other formats keep ?search=.
  assert.is((await call('/player/alice?camelCase=1&page=1', API)).status, 200);
  assert.is((await call('/player/alice/friends/search?search=okafor', { headers: { Accept: 'application/hal+json' } })).status, 200);
  assert.is((await call('/player/alice?foo=1', { headers: { Accept: 'application/hal+json' } })).status, 200);
});

shape('should make a compound document with include=friends', async () => {
  const { call } = await demoService();
  const doc = await (await call('/player/bob?include=friends', API)).json();
  assert.equal(ids(doc.included), ids(doc.data.relationships.friends.data));
  assert.equal(Object.keys(doc.included[0].attributes), ['name', 'alternateName', 'image']);
});

shape('should restrict attributes with fields[players] everywhere and keep included', async () => {
  const { call } = await demoService();
  const doc = await (await call('/player/bob?include=friends&fields[players]=name', API)).json();
  assert.equal(doc.data.attributes, { name: 'Bob Builder' });
  assert.is(doc.data.relationships, undefined);
  assert.is(doc.included.length, 4);
  for (const r of doc.included) assert.equal(Object.keys(r.attributes), ['name']);
  const page = await (await call('/player/alice/friends?fields[players]=alternateName,friends', API)).json();
  for (const r of page.data) {
    assert.equal(Object.keys(r.attributes), ['alternateName']);
    assert.ok(r.relationships.friends.links.related);
  }
  const none = await (await call('/player/bob?fields[players]=', API)).json();
  assert.is(none.data.attributes, undefined);
});

shape('should give different ETags to different fieldsets and the same to the same set in another order', async () => {
  const { call } = await demoService();
  const etag = async (q: string) => (await call(`/player/bob${q}`, API)).headers.get('etag');
  assert.is.not(await etag(''), await etag('?fields[players]=name'));
  assert.is(await etag('?fields[players]=name,image'), await etag('?fields[players]=image,name'));
  assert.is.not(await etag(''), await etag('?include=friends'));
});


shape('should keep a player’s ETag and Last-Modified when a friend in its linkage changes, and change them when the list does', async () => {
  const { call, store } = await demoService();
  const validators = async (q = '') => {
    const res = await call(`/player/alice${q}`, API);
    return { etag: res.headers.get('etag')!, lastModified: res.headers.get('last-modified')!, tags: res.headers.get('cache-tag'), body: await res.text() };
  };
  const linkage = await validators();
  const included = await validators('?include=friends');
  assert.ok(JSON.parse(linkage.body).data.relationships.friends.data.some((r: { id: string }) => r.id === 'ada-01'));
  await new Promise((r) => setTimeout(r, 1100)); // a later second, so a Last-Modified that followed the friend would move
  await store.putPlayer({ playerId: 'ada-01', alias: 'ada', displayName: 'Ada Renamed' });
  // Ids only: nothing shown changed, so the same validators, and a 304 to the tag a client holds.
  assert.equal(await validators(), linkage);
  assert.is((await call('/player/alice', { headers: { ...API.headers, 'If-None-Match': linkage.etag } })).status, 304);
  // The members themselves: a new ETag.
  const after = await validators('?include=friends');
  assert.is.not(after.etag, included.etag);
  assert.match(after.body, 'Ada Renamed');
  // A change of the list is a change of its owner: a new ETag, the new total shown.
  await store.putPlayer({ playerId: 'late', alias: 'lateo' });
  await store.addFriend('alice', 'late');
  const grown = await validators();
  assert.is.not(grown.etag, linkage.etag);
  assert.is(JSON.parse(grown.body).data.relationships.friends.meta.total, 33);
  await store.removeFriend('alice', 'ada-01');
  const shrunk = await validators();
  assert.is.not(shrunk.etag, grown.etag);
  assert.not.ok(JSON.parse(shrunk.body).data.relationships.friends.data.some((r: { id: string }) => r.id === 'ada-01'));
});
shape('should answer 400 with a JSON:API errors document for unknown fields, types, include paths and sort', async () => {
  const { call } = await demoService();
  for (const [q, parameter] of [
    ['fields[players]=nickname', 'fields[players]'],
    ['fields[teams]=name', 'fields[teams]'],
    ['include=enemies', 'include'],
    ['include=friends.friends', 'include'],
    ['sort=name', 'sort'],
  ]) {
    const res = await call(`/player/alice?${q}`, API);
    assert.is(res.status, 400, q);
    assert.is(res.headers.get('content-type'), JSON_API_MEDIA_TYPE);
    const doc = await res.json();
    assert.is(doc.errors[0].status, '400');
    assert.equal(doc.errors[0].source, { parameter });
  }
  assert.is((await call('/player/alice/friends?include=friends', API)).status, 400);
});

shape('should render every error in the JSON:API errors document once JSON:API is negotiated', async () => {
  const { call } = await demoService();
  const res = await call('/player/nobody', API);
  assert.is(res.status, 404);
  assert.is(res.headers.get('content-type'), JSON_API_MEDIA_TYPE);
  assert.is((await res.json()).errors[0].title, 'Not Found');
  const bad = await call('/player/a%20b', API);
  assert.equal((await bad.json()).errors[0].source, { parameter: 'id' });
});

shape('should validate against the published JSON:API 1.0 schema', async () => {
  const { call } = await demoService();
  for (const path of [
    '/player/alice', '/player/alice?include=friends', '/player/alice?include=friends&fields[players]=image', '/player/elif-05',
    '/player/alice/friends', '/player/alice/friends?page=4', '/player/alice/friends/search?filter[search]=a', '/player/bob/friends?fields[players]=',
    '/player/alice/relationships/friends', '/player/alice/relationships/friends?page=4', '/player/nobody', '/player/alice?fields[x]=y',
  ]) {
    assert.equal(schemas.jsonapi(await (await call(path, API)).json()), [], path);
  }
});

shape.run();

const rel = suite('GET /player/{id}/relationships/friends');

rel('should serve the paged linkage with self and related links', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice/relationships/friends?page=4', API);
  assert.is(res.status, 200);
  const doc = await res.json();
  assert.equal(ids(doc.data), ['kai-31', 'lena-32']);
  assert.equal(doc.data[0], { type: 'players', id: 'kai-31' });
  assert.is(doc.links.self, `${BASE}/player/alice/relationships/friends?page=4`);
  assert.is(doc.links.related, `${BASE}/player/alice/friends`);
  assert.is(doc.links.prev, `${BASE}/player/alice/relationships/friends?page=3`);
  assert.is(doc.meta.total, 32);
  assert.ok(res.headers.get('etag'));
  assert.is((await call('/player/alice/relationships/friends?page=4', { headers: { ...API.headers, 'If-None-Match': res.headers.get('etag')! } })).status, 304);
});

rel('should serve JSON:API for */* and 406 for formats without a linkage document', async () => {
  const { call } = await demoService();
  assert.is((await call('/player/bob/relationships/friends')).headers.get('content-type'), JSON_API_MEDIA_TYPE);
  const res = await call('/player/bob/relationships/friends', { headers: { Accept: 'application/json' } });
  assert.is(res.status, 406);
  assert.equal((await res.json()).available, [JSON_API_MEDIA_TYPE]);
  assert.is((await call('/player/nobody/relationships/friends', API)).status, 404);
  assert.is((await call('/player/bob/relationships/friends?page=2', API)).status, 404);
});

rel.run();

const media = suite('JSON:API media type parameters');

media('should answer 406 when every JSON:API entry in Accept carries other parameters', async () => {
  const { call } = await demoService();
  for (const accept of [`${JSON_API_MEDIA_TYPE}; charset=utf-8`, `${JSON_API_MEDIA_TYPE};version=1, */*`, `${JSON_API_MEDIA_TYPE}; ext="https://x.test/ext"`]) {
    const res = await call('/player/alice', { headers: { Accept: accept } });
    assert.is(res.status, 406, accept);
    assert.is(res.headers.get('content-type'), 'application/problem+json');
  }
});

media('should serve JSON:API when one entry is bare or carries only profile', async () => {
  const { call } = await demoService();
  for (const accept of [`${JSON_API_MEDIA_TYPE};foo=1, ${JSON_API_MEDIA_TYPE}`, `${JSON_API_MEDIA_TYPE}; profile="https://x.test/p"`]) {
    const res = await call('/player/alice', { headers: { Accept: accept } });
    assert.is(res.status, 200, accept);
    assert.is(res.headers.get('content-type'), JSON_API_MEDIA_TYPE);
  }
});

media('should accept request bodies only with ext or profile parameters', () => {
  assert.ok(jsonApiRepresentation.acceptable!({}));
  assert.ok(jsonApiRepresentation.acceptable!({ profile: 'https://x.test/p' }));
  assert.not.ok(jsonApiRepresentation.acceptable!({ charset: 'utf-8' }));
  assert.not.ok(jsonApiRepresentation.acceptable!({ ext: 'https://x.test/atomic' }));
});

media.run();

const body = suite('JSON:API request bodies and errors');

body('should read a resource document into plain field names', () => {
  const input = jsonApiRepresentation.readBody!({ data: { type: 'players', attributes: { name: 'Zed Zero', alternateName: 'zed', image: 'https://cdn.test/z.png' } } }, JSON_API_MEDIA_TYPE, PLAYER);
  assert.equal(input, {
    fields: { displayName: 'Zed Zero', alias: 'zed', image: 'https://cdn.test/z.png' },
    pointers: { displayName: '/data/attributes/name', alias: '/data/attributes/alternateName', image: '/data/attributes/image' },
  });
  const withId = jsonApiRepresentation.readBody!({ data: { type: 'players', id: 'zed', attributes: { alternateName: 'zed' } } }, JSON_API_MEDIA_TYPE, PLAYER);
  assert.equal(withId, { fields: { playerId: 'zed', alias: 'zed' }, pointers: { playerId: '/data/id', alias: '/data/attributes/alternateName' }, newId: 'zed' });
});

body('should create a friend with a client-generated id (201 and its Location), and answer 409 when the id is taken', async () => {
  const { service } = await demoService({ authenticate: bearerTokens(['t']) });
  const post = (id: string) =>
    service.fetch(
      new Request(`${BASE}/player/alice/friends`, {
        method: 'POST',
        body: JSON.stringify({ data: { type: 'players', id, attributes: { alternateName: id, name: 'Chosen Id' } } }),
        headers: { authorization: 'Bearer t', 'content-type': JSON_API_MEDIA_TYPE, accept: JSON_API_MEDIA_TYPE },
      }),
    );
  const created = await post('chosen-by-client');
  assert.is(created.status, 201);
  assert.is(created.headers.get('location'), `${BASE}/player/chosen-by-client`);
  assert.is((await created.json()).data.id, 'chosen-by-client');
  const again = await post('chosen-by-client');
  assert.is(again.status, 409, 'JSON:API "Client-Generated IDs": an id that exists is 409 Conflict');
  assert.is((await post('not a valid id')).status, 422, 'an id the player schema refuses');
  // Dot segments: /player/.. would resolve to the root (RFC 3986 section 5.2.4), never to the player.
  for (const dots of ['.', '..']) assert.is((await post(dots)).status, 422, `"${dots}" is no player id`);
  assert.is((await post('...')).status, 201, 'three dots are an ordinary segment');
});

body('should refuse attributes a player does not have, own members only, with a pointer to each', () => {
  for (const attributes of ['{"__proto__":{"playerId":"bob"}}', '{"alternateName":"a","valueOf":1}', '{"toString":"x"}', '{"playerId":"x"}']) {
    const document = JSON.parse(`{"data":{"type":"players","attributes":${attributes}}}`);
    const name = Object.keys(document.data.attributes).at(-1)!;
    try {
      jsonApiRepresentation.readBody!(document, JSON_API_MEDIA_TYPE, PLAYER);
      assert.unreachable(attributes);
    } catch (e) {
      assert.is((e as HttpError).status, 400, attributes);
      assert.is((e as HttpError).errors?.[0]?.pointer, `/data/attributes/${name}`, attributes);
    }
  }
});

body('should read a resource identifier as a reference to an existing player', () => {
  assert.equal(jsonApiRepresentation.readBody!({ data: { type: 'players', id: 'bob' } }, JSON_API_MEDIA_TYPE, PLAYER), { fields: {}, ref: 'bob' });
});

body('should refuse malformed documents with 400 and a foreign type with 409', () => {
  const status = (doc: unknown) => {
    try {
      jsonApiRepresentation.readBody!(doc, JSON_API_MEDIA_TYPE, PLAYER);
      return 0;
    } catch (e) {
      return (e as HttpError).status;
    }
  };
  assert.is(status({}), 400);
  assert.is(status({ data: [] }), 400);
  assert.is(status({ data: { type: 'teams', attributes: {} } }), 409);
  assert.is(status({ data: { type: 'players', id: 7 } }), 400);
  assert.is(status({ data: { type: 'players', attributes: [] } }), 400);
});

body('should render field errors as error objects with pointers into the request document', () => {
  const problem = new HttpError(422, 'invalid', { errors: [{ pointer: '/alias', detail: 'too long' }, { parameter: 'page', detail: 'bad' }] }).toProblem();
  const doc = JSON.parse(jsonApiRepresentation.renderProblem!(problem, PLAYER));
  assert.equal(doc.errors, [
    { status: '422', title: 'Unprocessable Content', detail: 'too long', source: { pointer: '/data/attributes/alternateName' } },
    { status: '422', title: 'Unprocessable Content', detail: 'bad', source: { parameter: 'page' } },
  ]);
});

body.run();

const writes = suite('JSON:API writes through the service');
const AUTH = { Authorization: 'Bearer s3cret' };

writes('should create a friend from a resource document and answer in JSON:API', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  const res = await call('/player/bob/friends', {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': JSON_API_MEDIA_TYPE, Accept: JSON_API_MEDIA_TYPE },
    body: JSON.stringify({ data: { type: 'players', attributes: { name: 'Zed Zero', alternateName: 'zed' } } }),
  });
  assert.is(res.status, 201);
  const doc = await res.json();
  assert.is(doc.data.attributes.alternateName, 'zed');
  assert.is(res.headers.get('location'), doc.data.links.self);
});

writes('should add an existing player from a resource identifier', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  const res = await call('/player/bob/friends', {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': `${JSON_API_MEDIA_TYPE}; profile="https://x.test/p"` },
    body: JSON.stringify({ data: { type: 'players', id: 'alice' } }),
  });
  assert.ok(res.status === 200 || res.status === 201, String(res.status));
  const linkage = await (await call('/player/bob/relationships/friends', { headers: { Accept: JSON_API_MEDIA_TYPE } })).json();
  assert.ok(ids(linkage.data).includes('alice'));
});

writes('should answer 415 for a JSON:API Content-Type with other parameters, writing nothing', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  for (const type of [`${JSON_API_MEDIA_TYPE}; charset=utf-8`, `${JSON_API_MEDIA_TYPE}; ext="https://jsonapi.org/ext/atomic"`]) {
    const res = await call('/player/bob/friends', {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': type, Accept: JSON_API_MEDIA_TYPE },
      body: JSON.stringify({ data: { type: 'players', attributes: { alternateName: 'zed' } } }),
    });
    assert.is(res.status, 415, type);
    assert.is((await res.json()).errors[0].status, '415');
  }
  assert.is((await (await call('/player/bob/friends', API)).json()).meta.total, 4);
});

writes.run();
