// The second API of examples/teams.ts through the same core, on memory and on PostgreSQL, over a real
// node:http server: every format, conditional requests, writes (PUT, POST member, JSON Patch, JSON:API
// relationship writes, the to-one captain), and the clients the Player API is tested with: ketting (HAL-FORMS,
// Siren, Collection+JSON), devour and jsona (JSON:API), alcaeus and hydra-validator (Hydra), swagger-parser.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { bearerAuth, Ketting } from 'ketting';
import { Jsona } from 'jsona';
import JsonApi from 'devour-client';
import SwaggerParser from '@apidevtools/swagger-parser';
import create from 'alcaeus';
import Environment from '@zazuko/env/Environment.js';
import rdf from '@zazuko/env-node';
import { bearerTokens, MemoryStore, type Store } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { createTeamsService, seedTeams, teamsApi } from '../examples/teams.js';
import { serviceRoutes } from '../src/core/service/service.js';
import { allowedMethods } from '../src/core/service/router.js';
import { POSTGRES_SKIP, noteSkip, watchingPostgresStore } from './support/postgres.js';

const run = promisify(execFile);
const VALIDATOR = fileURLToPath(new URL('../node_modules/.bin/hydra-validator', import.meta.url));
const TOKEN = 'teams-test-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const FORMATS = [
  'application/json',
  'application/ld+json',
  'application/hal+json',
  'application/prs.hal-forms+json',
  'application/vnd.collection+json',
  'application/vnd.siren+json',
  'application/vnd.api+json',
  'text/html',
];
const J = 'application/vnd.api+json';
const TEAMS = teamsApi.type('team');
const PLAYERS = teamsApi.type('player');
const MEMBERS = TEAMS.relation('members')!;

interface Served {
  origin: string;
  store: Store;
  close: () => Promise<void>;
}

async function serve(store: Store): Promise<Served> {
  await seedTeams(store);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(createTeamsService({ baseUrl: origin, store, authenticate: bearerTokens([TOKEN]) })));
  return {
    origin,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function teamsSuite(label: string, makeStore: () => Promise<{ store: Store; dispose: () => Promise<void> }>) {
  const it = suite(`examples/teams.ts on ${label}`);
  let served: Served;
  let dispose: () => Promise<void> = async () => undefined;
  const call = (path: string, init: RequestInit = {}) => fetch(served.origin + path, init);
  const send = (method: string, path: string, type: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method, headers: { ...AUTH, 'content-type': type, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const members = async (team: string) => (await served.store.list(MEMBERS, team, { offset: 0, limit: 100 }))!;

  it.before(async () => {
    const made = await makeStore();
    dispose = made.dispose;
    served = await serve(made.store);
  });
  it.after(async () => {
    await served.close();
    await dispose();
  });

  it('every format answers a team, a player, a page of members and a search', async () => {
    for (const accept of FORMATS) {
      const search = accept === J ? '/teams/reds/members?filter[search]=nick1' : '/teams/reds/members/search?search=nick1';
      for (const path of ['/teams/reds', '/players/p2', '/teams/reds/members?page=2', search]) {
        const res = await call(path, { headers: { accept } });
        assert.is(res.status, 200, `${accept} ${path}`);
        assert.ok(res.headers.get('content-type')!.startsWith(accept), `${accept} ${path}: ${res.headers.get('content-type')}`);
        const text = await res.text();
        const shown = path.startsWith('/players') ? 'p2' : path.includes('page=2') ? 'p23' : path.includes('search') ? 'p11' : 'reds';
        assert.ok(text.includes(shown), `${accept} ${path}`);
      }
    }
    const plain = await (await call('/teams/reds', { headers: { accept: 'application/json' } })).json();
    assert.equal(plain, { teamId: 'reds', name: 'The Reds', motto: 'Forward', founded: 1901, captainId: 'p1' });
    const page = await (await call('/teams/reds/members?page=2', { headers: { accept: 'application/json' } })).json();
    assert.equal(page.map((p: { playerId: string }) => p.playerId), ['p21', 'p23']);
  });

  it('ETags and conditional requests: 304 on GET, 412 on a stale If-Match, the write compare-and-set', async () => {
    const first = await call('/teams/blues', { headers: { accept: 'application/hal+json' } });
    const etag = first.headers.get('etag')!;
    assert.is((await call('/teams/blues', { headers: { accept: 'application/hal+json', 'if-none-match': etag } })).status, 304);
    const patched = await send('PATCH', '/teams/blues', 'application/json-patch+json', [{ op: 'add', path: '/motto', value: 'Onward' }], { 'if-match': etag });
    assert.is(patched.status, 200);
    assert.is((await patched.json()).motto, 'Onward');
    assert.is((await send('PATCH', '/teams/blues', 'application/json-patch+json', [{ op: 'remove', path: '/motto' }], { 'if-match': etag })).status, 412);
    assert.is(((await served.store.get(TEAMS, 'blues')) as unknown as { motto: string }).motto, 'Onward', 'nothing written by the 412');
  });

  it('PUT creates and replaces; the schema of the declaration is enforced (422, 400)', async () => {
    const created = await send('PUT', '/teams/greens', 'application/json', { name: 'The Greens', founded: 1950 });
    assert.is(created.status, 201);
    assert.is(created.headers.get('location'), `${served.origin}/teams/greens`);
    assert.is((await send('PUT', '/teams/greens', 'application/json', { name: 'The Greens', founded: 1700 })).status, 422);
    assert.is((await send('PUT', '/teams/greens', 'application/json', { name: 'The Greens', founded: 'soon' })).status, 400);
    const merged = await send('PATCH', '/teams/greens', 'application/merge-patch+json', { motto: 'Grow', founded: null });
    assert.equal(await merged.json(), { teamId: 'greens', name: 'The Greens', motto: 'Grow' });
  });

  it('POST to the members: a new player, or an existing one by id; idempotent with a key; DELETE takes one off', async () => {
    const before = (await members('blues')).total;
    const key = { 'idempotency-key': 'teams-1' };
    const added = await send('POST', '/teams/blues/members', 'application/json', { name: 'New Kid', alternateName: 'kid' }, key);
    assert.is(added.status, 201);
    const location = added.headers.get('location')!;
    assert.match(location, new RegExp(`^${served.origin}/players/`));
    const again = await send('POST', '/teams/blues/members', 'application/json', { name: 'New Kid', alternateName: 'kid' }, key);
    assert.is(again.headers.get('idempotent-replayed'), 'true');
    assert.is(again.headers.get('location'), location);
    assert.is((await send('POST', '/teams/blues/members', 'application/json', { playerId: 'p1' })).status, 201);
    assert.is((await send('POST', '/teams/blues/members', 'application/json', { playerId: 'p1' })).status, 409, 'listed already');
    assert.is((await send('POST', '/teams/blues/members', 'application/json', { playerId: 'nobody' })).status, 422);
    assert.is((await members('blues')).total, before + 2);
    assert.is((await call('/teams/blues/members/p1', { method: 'DELETE', headers: AUTH })).status, 204);
    assert.is((await call('/teams/blues/members/p1', { method: 'DELETE', headers: AUTH })).status, 404);
    assert.is((await members('blues')).total, before + 1);
  });

  it('JSON:API: devour adds and removes members at the relationship URL, sets the captain; jsona reads a compound document', async () => {
    const api = new (JsonApi as unknown as new (o: object) => any)({ apiUrl: served.origin, pluralize: false, logger: false });
    api.headers.Authorization = `Bearer ${TOKEN}`;
    api.define('teams', { name: '', motto: '', founded: 0, members: { jsonApi: 'hasMany', type: 'players' }, captain: { jsonApi: 'hasOne', type: 'players' } }, { collectionPath: 'teams' });
    api.define('players', { name: '', alternateName: '' }, { collectionPath: 'players' });
    const relationship = () => api.one('teams', 'reds').relationships('members');
    const before = (await members('reds')).total;
    await relationship().post([{ id: 'p2', type: 'players' }, { id: 'p1', type: 'players' }]);
    assert.is((await members('reds')).total, before + 1, 'p2 added; p1 is a member already');
    await relationship().destroy([{ id: 'p2', type: 'players' }]);
    assert.is((await members('reds')).total, before);
    const updated = await api.update('teams', { id: 'reds', motto: 'Ever forward' });
    assert.is(updated.data.motto, 'Ever forward');
    assert.is(updated.data.name, 'The Reds');
    // Section "Updating To-One Relationships": PATCH the relationship URL, or the relationship in the resource.
    assert.is((await send('PATCH', '/teams/reds/relationships/captain', J, { data: { type: 'players', id: 'p3' } })).status, 204);
    assert.is(((await served.store.get(TEAMS, 'reds')) as unknown as { captainId: string }).captainId, 'p3');
    const linkage = await (await call('/teams/reds/relationships/captain', { headers: { accept: J } })).json();
    assert.equal(linkage.data, { type: 'players', id: 'p3' });
    assert.is((await send('PATCH', '/teams/reds/relationships/captain', J, { data: { type: 'players', id: 'nobody' } })).status, 404);
    assert.is((await send('PATCH', '/teams/reds', J, { data: { type: 'teams', id: 'reds', relationships: { captain: { data: { type: 'players', id: 'p5' } } } } })).status, 200);
    assert.is(((await served.store.get(TEAMS, 'reds')) as unknown as { captainId: string }).captainId, 'p5');
    assert.is((await send('PATCH', '/teams/reds/relationships/members', J, { data: [] })).status, 403, 'a list is not replaced in full');
    const team = new Jsona().deserialize(await (await call('/teams/reds?include=members', { headers: { accept: J } })).json()) as any;
    assert.is(team.name, 'The Reds');
    assert.is(team.members.length, 10);
    assert.is(team.members[0].id, 'p1');
    assert.is(team.captain.id, 'p5');
  });

  it('HAL-FORMS: ketting reads the templates of a team and submits addMember and the search', async () => {
    const client = new Ketting(served.origin);
    client.use(bearerAuth(TOKEN));
    client.contentTypeMap = { 'application/prs.hal-forms+json': client.contentTypeMap['application/prs.hal-forms+json']! };
    const reds = await client.go('/teams/reds').get();
    assert.equal(reds.actions().map((a) => a.name).sort(), ['addMember', 'default', 'search']);
    const add = reds.action('addMember');
    assert.equal(add.fields.map((f) => [f.name, f.required]), [['name', true], ['alternateName', false]]);
    const before = (await members('reds')).total;
    const added = await add.submit({ name: 'Formed Player', alternateName: 'former' });
    assert.is(added.data.name, 'Formed Player');
    assert.is((await members('reds')).total, before + 1);
    const found = await reds.action('search').submit({ search: 'former' });
    assert.is(found.data.total, 1);
    const update = reds.action('default');
    assert.is(update.method, 'PUT');
    assert.is(update.field('founded')!.type, 'number');
  });

  it('Siren and Collection+JSON: ketting follows members and next to the last page', async () => {
    for (const [type, rel] of [
      // Siren names a relation of the API by an extension relation URI: the vocabulary's IRI and its name.
      ['application/vnd.siren+json', 'https://example.com/teams/vocab#members'],
      ['application/vnd.collection+json', 'members'],
    ] as const) {
      const client = new Ketting(served.origin);
      client.contentTypeMap = { [type]: client.contentTypeMap[type]! };
      let resource = await client.go('/teams/blues').follow(rel);
      const ids: string[] = [];
      for (;;) {
        const state = await resource.get();
        ids.push(...state.links.getMany('item').map((l) => l.href.split('/').pop()!));
        if (!state.links.has('next')) break;
        resource = await resource.follow('next');
      }
      assert.is(ids.length, (await members('blues')).total, type);
    }
    const sirenClient = new Ketting(served.origin);
    sirenClient.contentTypeMap = { 'application/vnd.siren+json': sirenClient.contentTypeMap['application/vnd.siren+json']! };
    const siren = await sirenClient.go('/teams/blues/members').get();
    assert.equal(siren.action('add-member').fields.map((f) => f.name), ['name', 'alternateName']);
  });

  it('Hydra: hydra-validator finds no failure; alcaeus finds the POST of a member list and invokes it', async () => {
    for (const path of ['/', '/teams/reds', '/teams/reds/members', '/teams/reds/members/search?search=nick']) {
      const result = await run(VALIDATOR, ['analyse', served.origin + path], { timeout: 60_000 }).catch((error: { stdout: string; stderr: string }) => {
        throw new Error(`hydra-validator failed on ${path}:\n${error.stdout}${error.stderr}`);
      });
      const out = result.stdout + result.stderr;
      assert.not.match(out, /FAILURE|ERROR|WARNING/, out);
      assert.match(out, /Found \d+ Supported Classes/);
    }
    const env = new Environment(create(), { parent: rdf });
    const { representation } = await env.hydra.loadResource(`${served.origin}/teams/blues/members`);
    const list = representation!.root!;
    assert.ok([...list.types.values()].some((t: { id: { value: string } }) => t.id.value === 'https://example.com/teams/vocab#MemberList'));
    const post = list.operations.find((o) => o.method === 'POST')!;
    assert.match(post.title ?? '', /^Add a member: /);
    const before = (await members('blues')).total;
    const { response } = await post.invoke(JSON.stringify({ '@context': 'https://schema.org', name: 'Linked Player' }), { 'content-type': 'application/ld+json', ...AUTH });
    assert.is(response!.xhr.status, 201);
    assert.is((await members('blues')).total, before + 1);
  });

  it('Swagger: a valid 2.0 document describing every route the declarations imply, with every method', async () => {
    const doc = await (await call('/swagger.json')).json();
    assert.is(doc.info.title, 'Teams API');
    await SwaggerParser.validate(structuredClone(doc));
    const routes = serviceRoutes({ api: teamsApi });
    assert.equal(Object.keys(doc.paths).sort(), routes.map((r) => r.path).sort());
    for (const route of routes) assert.equal(Object.keys(doc.paths[route.path]).sort(), allowedMethods(route).map((m) => m.toLowerCase()).sort(), route.path);
    assert.ok(doc.definitions.Team && doc.definitions.Player && doc.definitions.MemberPayload);
    assert.equal(doc.definitions.Team.properties.founded, { type: 'integer', minimum: 1800, maximum: 2100 });
  });

  it('deleting a player takes it off every team, and its own lists go with a team', async () => {
    assert.is((await call('/players/p4', { method: 'DELETE', headers: AUTH })).status, 204);
    assert.not.ok((await members('blues')).items.some((p) => (p as unknown as { playerId: string }).playerId === 'p4'));
    assert.is((await call('/teams/greens', { method: 'DELETE', headers: AUTH })).status, 204);
    assert.is((await call('/teams/greens/members')).status, 404);
    assert.ok(await served.store.get(PLAYERS, 'p6'), 'a member is not deleted with a team');
  });

  it.run();
}

teamsSuite('the memory store', async () => ({ store: new MemoryStore(), dispose: async () => undefined }));

if (POSTGRES_SKIP) noteSkip();
else {
  teamsSuite('PostgreSQL', async () => {
    return watchingPostgresStore(teamsApi, 'teams', 8);
  });
}
