import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations } from '../src/index.js';
import { acceptedBodyTypes } from '../src/core/resources/body.js';
import { BASE } from './support/service.js';
import { writableService } from './support/writes.js';

type Case = { format: string; type: string; create: string; reference: string };

const json = (value: unknown) => JSON.stringify(value);
const aliceUrl = `${BASE}/player/alice`;

/** One new friend (Zoe Zed, alias zoe, a picture) and one reference to alice, in each registered body format. */
const cases: Case[] = [
  { format: 'plain JSON', type: 'application/json', create: json({ name: 'Zoe Zed', alternateName: 'zoe', image: 'https://cdn.test/z.png' }), reference: json({ playerId: 'alice' }) },
  {
    format: 'JSON:API',
    type: 'application/vnd.api+json',
    create: json({ data: { type: 'players', attributes: { name: 'Zoe Zed', alternateName: 'zoe', image: 'https://cdn.test/z.png' } } }),
    reference: json({ data: { type: 'players', id: 'alice' } }),
  },
  {
    format: 'Collection+JSON template',
    type: 'application/vnd.collection+json',
    create: json({ template: { data: [{ name: 'playerId', value: '' }, { name: 'name', value: 'Zoe Zed' }, { name: 'alternateName', value: 'zoe' }, { name: 'image', value: 'https://cdn.test/z.png' }] } }),
    reference: json({ template: { data: [{ name: 'playerId', value: 'alice' }] } }),
  },
  { format: 'Siren JSON', type: 'application/vnd.siren+json', create: json({ name: 'Zoe Zed', alternateName: 'zoe', image: 'https://cdn.test/z.png' }), reference: json({ playerId: 'alice' }) },
  {
    format: 'Siren form',
    type: 'application/x-www-form-urlencoded',
    create: new URLSearchParams({ name: 'Zoe Zed', alternateName: 'zoe', image: 'https://cdn.test/z.png' }).toString(),
    reference: 'playerId=alice',
  },
  {
    format: 'JSON-LD',
    type: 'application/ld+json',
    create: json({ '@context': { '@vocab': 'https://schema.org/' }, '@type': 'Person', name: 'Zoe Zed', alternateName: 'zoe', image: { '@id': 'https://cdn.test/z.png' } }),
    reference: json({ '@id': aliceUrl }),
  },
  {
    format: 'JSON-LD, expanded',
    type: 'application/ld+json',
    create: json({ 'https://schema.org/name': 'Zoe Zed', 'https://schema.org/alternateName': [{ '@value': 'zoe' }], 'https://schema.org/image': { '@id': 'https://cdn.test/z.png' } }),
    reference: json({ '@id': aliceUrl }),
  },
  {
    format: 'HAL',
    type: 'application/hal+json',
    create: json({ name: 'Zoe Zed', alternateName: 'zoe', image: 'https://cdn.test/z.png' }),
    reference: json({ _links: { self: { href: aliceUrl } } }),
  },
];

const post = suite('POST /player/{id}/friends in every registered body format');

post('should advertise every format in Accept-Post', async () => {
  const { call } = await writableService();
  const advertised = (await call('/player/bob/friends', { method: 'OPTIONS' })).headers.get('accept-post')!.split(', ');
  assert.equal(advertised, acceptedBodyTypes(defaultRepresentations));
  for (const { type } of cases) assert.ok(advertised.includes(type), type);
});

for (const c of cases) {
  post(`should create a new friend from a ${c.format} body`, async () => {
    const { send, call, store } = await writableService();
    const res = await send('POST', '/player/bob/friends', c.create, { 'Content-Type': c.type });
    assert.is(res.status, 201, await res.clone().text());
    const location = res.headers.get('location')!;
    const id = location.slice(`${BASE}/player/`.length);
    const stored = await store.getPlayer(id);
    assert.equal({ alias: stored?.alias, displayName: stored?.displayName, image: stored?.image }, { alias: 'zoe', displayName: 'Zoe Zed', image: 'https://cdn.test/z.png' });
    const page = await (await call('/player/bob/friends?page=1')).json();
    assert.ok(page.some((p: { playerId: string }) => p.playerId === id));
  });

  post(`should add an existing player named by a ${c.format} reference`, async () => {
    const { send } = await writableService();
    const res = await send('POST', '/player/bob/friends', c.reference, { 'Content-Type': c.type });
    assert.is(res.status, 201, await res.clone().text());
    assert.is(res.headers.get('location'), aliceUrl);
    assert.is((await send('POST', '/player/bob/friends', c.reference, { 'Content-Type': c.type })).status, 409);
  });
}

post('should answer in the negotiated format, with the ETag a GET in that format answers', async () => {
  const { send, call } = await writableService();
  for (const { mediaType } of defaultRepresentations) {
    const res = await send('POST', '/player/bob/friends', { alternateName: `in-${mediaType}` }, { Accept: mediaType });
    assert.is(res.status, 201, mediaType);
    assert.match(res.headers.get('content-type')!, mediaType);
    const get = await call(new URL(res.headers.get('location')!).pathname, { headers: { Accept: mediaType } });
    assert.is(res.headers.get('etag'), get.headers.get('etag'), mediaType);
    assert.is(await res.text(), await get.text(), mediaType);
  }
});

post('should refuse a body of the wrong shape for its format with 400 or 409, adding nothing', async () => {
  const { send, call } = await writableService();
  const before = (await call('/player/bob/friends')).headers.get('total-count');
  assert.is((await send('POST', '/player/bob/friends', json({ name: 'x' }), { 'Content-Type': 'application/vnd.collection+json' })).status, 400);
  assert.is((await send('POST', '/player/bob/friends', json({ data: { type: 'cats', attributes: { alternateName: 'x' } } }), { 'Content-Type': 'application/vnd.api+json' })).status, 409);
  assert.is((await send('POST', '/player/bob/friends', json({ data: [] }), { 'Content-Type': 'application/vnd.api+json' })).status, 400);
  assert.is((await send('POST', '/player/bob/friends', json({ nickname: 'x' }), { 'Content-Type': 'application/hal+json' })).status, 400);
  assert.is((await send('POST', '/player/bob/friends', json({ alternateName: 'x' }), { 'Content-Type': 'application/vnd.api+json; ext="https://x.test/ext"' })).status, 415);
  assert.is((await call('/player/bob/friends')).headers.get('total-count'), before);
});

post('should validate alternate-format values against the player schema (422)', async () => {
  const { send } = await writableService();
  const long = 'x'.repeat(65);
  assert.is((await send('POST', '/player/bob/friends', `alternateName=${long}`, { 'Content-Type': 'application/x-www-form-urlencoded' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', json({ name: 'No alias' }), { 'Content-Type': 'application/hal+json' })).status, 422);
  assert.is((await send('POST', '/player/bob/friends', 'alternateName=ok&image=javascript:alert(1)', { 'Content-Type': 'application/x-www-form-urlencoded' })).status, 422);
});

post.run();

const roundTrip = suite('PUT of a representation read with GET');

roundTrip('should take back what GET gave, with one field changed, in the formats that read a single player', async () => {
  const { send, call, store } = await writableService();
  const edits: [string, (doc: Record<string, any>) => void][] = [
    ['application/json', (d) => (d.displayName = 'Bob (json)')],
    ['application/hal+json', (d) => (d.name = 'Bob (hal)')],
    ['application/ld+json', (d) => (d.name = 'Bob (ld)')],
    ['application/vnd.api+json', (d) => (d.data.attributes.name = 'Bob (jsonapi)')],
  ];
  await store.putPlayer({ playerId: 'bob', alias: 'bobby', displayName: 'Bob', image: 'https://cdn.test/bob.png' });
  for (const [type, edit] of edits) {
    const get = await call('/player/bob', { headers: { Accept: type } });
    const doc = await get.json();
    edit(doc);
    const res = await send('PUT', '/player/bob', json(doc), { 'Content-Type': type, Accept: type, 'If-Match': get.headers.get('etag')! });
    assert.is(res.status, 200, `${type}: ${await res.clone().text()}`);
    const stored = await store.getPlayer('bob');
    assert.match(stored!.displayName!, /^Bob \(/);
    assert.is(stored!.image, 'https://cdn.test/bob.png', type);
    assert.is(stored!.alias, 'bobby');
  }
});

roundTrip('should refuse a representation of another player', async () => {
  const { send, call } = await writableService();
  const doc = await (await call('/player/alice', { headers: { Accept: 'application/hal+json' } })).json();
  assert.is((await send('PUT', '/player/bob', json(doc), { 'Content-Type': 'application/hal+json' })).status, 422);
});

roundTrip.run();
