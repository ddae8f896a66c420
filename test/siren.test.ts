import { suite } from 'uvu';
import { PLAYER } from '../src/player/documents.js';
import * as assert from 'uvu/assert';
import { bearerTokens, sirenRepresentation } from '../src/index.js';
import { PLAYER_VOCAB } from '../src/player/api.js';
import { SIREN_MEDIA_TYPE } from '../src/representations/siren.js';
import { schemaValidators } from './support/schemas.js';
import { BASE, demoService } from './support/service.js';

const SIREN = { headers: { Accept: SIREN_MEDIA_TYPE } };
const schemas = schemaValidators();
const rels = (links: { rel: string[]; href: string }[]) => Object.fromEntries(links.map((l) => [l.rel.join(' '), l.href]));

const shape = suite('Siren shapes');

shape('should render a player as an entity of class player with properties and rel arrays', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice', SIREN);
  assert.is(res.status, 200);
  assert.is(res.headers.get('content-type'), SIREN_MEDIA_TYPE);
  const body = await res.json();
  assert.equal(body.class, ['player']);
  assert.equal(body.properties, { playerId: 'alice', name: 'Alice Liddell', alternateName: 'alice', image: `${BASE}/player/alice/avatar.png` });
  assert.equal(rels(body.links), {
    self: `${BASE}/player/alice`,
    [`${PLAYER_VOCAB}friends`]: `${BASE}/player/alice/friends`,
    [`${PLAYER_VOCAB}avatar`]: `${BASE}/player/alice/avatar.png`,
  });
  assert.is(body.actions[0].name, 'search');
  assert.is(body.actions[0].href, `${BASE}/player/alice/friends/search`);
});

shape('should render a friends page with size as a string, item sub-entities and paging links', async () => {
  const { call } = await demoService();
  const body = await (await call('/player/alice/friends?page=2', SIREN)).json();
  assert.equal(body.class, ['friends', 'collection']);
  assert.equal(body.properties, { size: '10', page: 2, pageSize: 10, total: 32, lastPage: 4 });
  assert.is(body.entities.length, 10);
  for (const e of body.entities) {
    assert.equal(e.rel, ['item']);
    assert.equal(e.class, ['player']);
    // Self and friends; the avatar link is left out, as it only repeats the image property.
    assert.equal(rels(e.links), { self: `${BASE}/player/${e.properties.playerId}`, [`${PLAYER_VOCAB}friends`]: `${BASE}/player/${e.properties.playerId}/friends` });
    assert.is(e.properties.image, `${BASE}/player/${e.properties.playerId}/avatar.png`);
  }
  const links = rels(body.links);
  assert.is(links.next, `${BASE}/player/alice/friends?page=3`);
  assert.is(links.prev, `${BASE}/player/alice/friends?page=1`);
  assert.is(links.last, `${BASE}/player/alice/friends?page=4`);
});

shape('should offer the add-friend action with HTML5 field types and a search action', async () => {
  const { call } = await demoService();
  const body = await (await call('/player/alice/friends', SIREN)).json();
  const add = body.actions.find((a: { name: string }) => a.name === 'add-friend');
  assert.equal(add.class, ['add-friend']);
  assert.is(add.method, 'POST');
  assert.is(add.href, `${BASE}/player/alice/friends`);
  assert.is(add.type, 'application/x-www-form-urlencoded');
  assert.equal(
    add.fields.map((f: { name: string; type: string }) => [f.name, f.type]),
    [['name', 'text'], ['alternateName', 'text'], ['image', 'url']],
  );
  const search = body.actions.find((a: { name: string }) => a.name === 'search');
  assert.is(search.method, 'GET');
  const found = await call(`/player/alice/friends/search?${new URLSearchParams({ search: 'okafor' })}`, SIREN);
  assert.is(found.status, 200);
  assert.equal((await found.json()).class, ['search-results', 'collection']);
});

shape('should leave out prev on the first page and next on the last', async () => {
  const { call } = await demoService();
  const first = rels((await (await call('/player/alice/friends?page=1', SIREN)).json()).links);
  const last = rels((await (await call('/player/alice/friends?page=4', SIREN)).json()).links);
  assert.is(first.prev, undefined);
  assert.ok(first.next);
  assert.is(last.next, undefined);
  assert.ok(last.prev);
});

shape('should validate against the published Siren schema', async () => {
  const { call } = await demoService();
  for (const path of ['/player/alice', '/player/elif-05', '/player/alice/friends', '/player/alice/friends?page=4', '/player/alice/friends/search?search=a', '/player/bob/friends']) {
    assert.equal(schemas.siren(await (await call(path, SIREN)).json()), [], path);
  }
});

shape.run();

const body = suite('Siren request bodies');

body('should read form fields into plain field names', async () => {
  const input = await sirenRepresentation.readBody!(new URLSearchParams('name=Zed+Zero&alternateName=zed&image=https%3A%2F%2Fcdn.test%2Fz.png&playerId='), 'application/x-www-form-urlencoded', PLAYER);
  assert.equal(input.fields, { displayName: 'Zed Zero', alias: 'zed', image: 'https://cdn.test/z.png' });
  assert.equal(input.pointers, { displayName: '/name', alias: '/alternateName', image: '/image' });
});

body('should refuse fields an action does not have, own members only, with a pointer to each', () => {
  const cases: [unknown, string][] = [
    [new URLSearchParams('alternateName=a&__proto__=1'), '/__proto__'],
    [new URLSearchParams('alternateName=a&toString=1'), '/toString'],
    [JSON.parse('{"alternateName":"a","__proto__":{"playerId":"bob"}}'), '/__proto__'],
    [{ alternateName: 'a', valueOf: 'x' }, '/valueOf'],
    [{ alias: 'plain names are not action fields' }, '/alias'],
  ];
  for (const [given, pointer] of cases) {
    try {
      sirenRepresentation.readBody!(given, SIREN_MEDIA_TYPE, PLAYER);
      assert.unreachable(pointer);
    } catch (e) {
      assert.is((e as { status: number }).status, 400, pointer);
      assert.is((e as { errors: { pointer: string }[] }).errors[0]!.pointer, pointer);
    }
  }
});

body('should read a JSON object of action fields', async () => {
  const input = await sirenRepresentation.readBody!({ alternateName: 'zed', playerId: 'zed-1' }, SIREN_MEDIA_TYPE, PLAYER);
  assert.equal(input.fields, { alias: 'zed', playerId: 'zed-1' });
});

body('should read a lone playerId as a reference to an existing player', () => {
  assert.equal(sirenRepresentation.readBody!(new URLSearchParams('playerId=bob'), 'application/x-www-form-urlencoded', PLAYER), { fields: {}, ref: 'bob', pointers: { ref: '/playerId' } });
});

body('should refuse a body that is not an object with 400', () => {
  for (const bad of [[], 'x', null, 3]) {
    try {
      sirenRepresentation.readBody!(bad, SIREN_MEDIA_TYPE, PLAYER);
      assert.unreachable(`accepted ${JSON.stringify(bad)}`);
    } catch (e) {
      assert.is((e as { status: number }).status, 400);
    }
  }
});

body.run();

const writes = suite('Siren add-friend action through the service');

writes('should add a friend from the form the add-friend action describes', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  const page = await (await call('/player/bob/friends', SIREN)).json();
  const action = page.actions.find((a: { name: string }) => a.name === 'add-friend');
  const res = await call(action.href.slice(BASE.length), {
    method: action.method,
    headers: { Authorization: 'Bearer s3cret', 'Content-Type': action.type, Accept: SIREN_MEDIA_TYPE },
    body: new URLSearchParams({ name: 'Zed Zero', alternateName: 'zed', image: 'https://cdn.example.test/z.png' }).toString(),
  });
  assert.is(res.status, 201);
  const created = await res.json();
  assert.equal(created.class, ['player']);
  assert.is(created.properties.name, 'Zed Zero');
  assert.is(created.properties.alternateName, 'zed');
  const after = await (await call('/player/bob/friends', SIREN)).json();
  assert.is(after.properties.total, 5);
});

writes.run();
