// A field added to the player (README, "A field of your own"): every format shows it, every write checks
// it, the descriptions list it, and both stores keep it; nothing of the library changed for it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService, defineApi, MemoryStore, playerApiDeclaration, playerType, type Store } from '../src/index.js';
import { POSTGRES_SKIP, watchingPostgresStore } from './support/postgres.js';

const api = defineApi({
  ...playerApiDeclaration,
  types: [{ ...playerType, fields: [...playerType.fields, { name: 'level', title: 'Level', schema: { type: 'integer', minimum: 1, maximum: 100 } }] }],
});
const BASE = 'https://api.example.com';
const AUTH = { Authorization: 'Bearer t' };

function extended(label: string, makeStore: () => Promise<{ store: Store; dispose: () => Promise<void> }>) {
  const it = suite(`a player with a level, on ${label}`);
  let service: ReturnType<typeof createPlayerService>;
  let dispose = async () => undefined as void;
  const call = (path: string, init: RequestInit = {}) => service.fetch(new Request(BASE + path, init));
  const json = async (path: string, accept: string) => (await call(path, { headers: { accept } })).json();

  it.before(async () => {
    const made = await makeStore();
    dispose = made.dispose;
    service = createPlayerService({ baseUrl: BASE, api, store: made.store, authenticate: bearerTokens(['t']) });
    const put = await call('/player/zoe', { method: 'PUT', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ alias: 'zoe', level: 3 }) });
    assert.is(put.status, 201);
  });
  it.after(() => dispose());

  it('every format shows it', async () => {
    assert.is((await json('/player/zoe', 'application/json')).level, 3);
    assert.is((await json('/player/zoe', 'application/hal+json')).level, 3);
    assert.is((await json('/player/zoe', 'application/vnd.api+json')).data.attributes.level, 3);
    assert.is((await json('/player/zoe', 'application/vnd.siren+json')).properties.level, 3);
    const ld = await json('/player/zoe', 'application/ld+json');
    assert.is(ld.level, 3);
    assert.is(ld['@context'].level, 'ph:level');
    const cj = await json('/player/zoe', 'application/vnd.collection+json');
    assert.ok(cj.collection.items[0].data.some((d: { name: string; value: unknown }) => d.name === 'level' && d.value === 3));
    const forms = await json('/player/zoe', 'application/prs.hal-forms+json');
    assert.equal(forms._templates.default.properties.find((p: { name: string }) => p.name === 'level'), { name: 'level', prompt: 'Level', required: false, type: 'number', value: '3' });
    assert.match(await (await call('/player/zoe', { headers: { accept: 'text/html' } })).text(), />3</);
  });

  it('every write checks it', async () => {
    const patch = (ops: unknown) => call('/player/zoe', { method: 'PATCH', headers: { ...AUTH, 'content-type': 'application/json-patch+json' }, body: JSON.stringify(ops) });
    assert.is((await patch([{ op: 'replace', path: '/level', value: 101 }])).status, 422);
    assert.is((await patch([{ op: 'replace', path: '/level', value: 'high' }])).status, 422);
    assert.is((await patch([{ op: 'replace', path: '/level', value: 4 }])).status, 200);
    const jsonApi = await call('/player/zoe', { method: 'PATCH', headers: { ...AUTH, 'content-type': 'application/vnd.api+json' }, body: JSON.stringify({ data: { type: 'players', id: 'zoe', attributes: { level: 5 } } }) });
    assert.is(jsonApi.status, 200);
    assert.is((await json('/player/zoe', 'application/json')).level, 5);
    const added = await call('/player/zoe/friends', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ alternateName: 'kid', level: 0 }) });
    assert.is(added.status, 422, 'a new friend is checked too');
  });

  it('the descriptions list it', async () => {
    const swagger = await json('/swagger.json', 'application/json');
    assert.equal(swagger.definitions.Player.properties.level, { type: 'integer', minimum: 1, maximum: 100 });
    const hydra = await json('/docs.jsonld', 'application/ld+json');
    const person = hydra['hydra:supportedClass'].find((c: { '@id': string }) => c['@id'] === 'schema:Person');
    assert.ok(person['hydra:supportedProperty'].some((p: { 'hydra:property': { '@id': string } }) => p['hydra:property']['@id'] === 'ph:level'));
  });

  it.run();
}

extended('the memory store', async () => ({ store: new MemoryStore(), dispose: async () => undefined }));
if (!POSTGRES_SKIP) {
  extended('PostgreSQL', async () => {
    return watchingPostgresStore(api, 'level', 4);
  });
}
