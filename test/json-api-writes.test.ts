// JSON:API updates as a JSON:API client makes them (devour-client over a real node:http server): PATCH of a
// resource's attributes, POST/DELETE of relationship members, and the 403/409/404 the specification names.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import JsonApi from 'devour-client';
import type { PlayerStore } from '../src/index.js';
import { startAdapterServers, WRITE_TOKEN, type AdapterServer } from './support/adapter-servers.js';

const J = 'application/vnd.api+json';

const writes = suite('JSON:API updates with devour-client');
let served: AdapterServer;
let origin = '';
let store: PlayerStore;

interface Devour {
  headers: Record<string, string>;
  define(name: string, attributes: object, options: object): void;
  find(model: string, id: string): Promise<{ data: Record<string, unknown> }>;
  update(model: string, payload: object): Promise<{ data: Record<string, unknown> }>;
  one(model: string, id: string): { relationships(name: string): { get(): Promise<{ data: { id: string }[] }>; post(p: object[]): Promise<unknown>; patch(p: object[]): Promise<unknown>; destroy(p: object[]): Promise<unknown> } };
}

function client(): Devour {
  const api = new (JsonApi as unknown as new (o: object) => Devour)({ apiUrl: origin, pluralize: false, logger: false });
  api.headers.Authorization = `Bearer ${WRITE_TOKEN}`;
  api.define('players', { name: '', alternateName: '', image: '', friends: { jsonApi: 'hasMany', type: 'players' } }, { collectionPath: 'player' });
  return api;
}

/** devour rejects with the errors of the JSON:API error document, keyed by index or by pointer. */
const firstErrorTitle = (error: unknown) => (error as Record<string, { title?: string }>)[0]?.title;

writes.before(async () => {
  served = (await startAdapterServers(['node']))[0]!;
  origin = served.origin;
  store = served.store;
});
writes.after(() => served.close());

writes('devour updates a player: PATCH with the resource document, attributes left out kept', async () => {
  const api = client();
  assert.is((await api.find('players', 'bob')).data.alternateName, 'bobby');
  const updated = await api.update('players', { id: 'bob', alternateName: 'the-builder' });
  assert.is(updated.data.alternateName, 'the-builder');
  assert.is(updated.data.name, 'Bob Builder', 'an attribute not sent keeps its value');
  const stored = (await store.getPlayer('bob'))!;
  assert.is(stored.alias, 'the-builder');
  assert.is(stored.displayName, 'Bob Builder');
});

writes('devour adds and removes friends through the relationship URL; replacing the list is 403', async () => {
  const api = client();
  const friends = () => api.one('players', 'bob').relationships('friends');
  const before = (await store.listFriends('bob', { offset: 0, limit: 100 }))!.total;
  await friends().post([{ id: 'alice', type: 'players' }, { id: 'ada-01', type: 'players' }]);
  const after = (await store.listFriends('bob', { offset: 0, limit: 100 }))!;
  assert.is(after.total, before + 1, 'alice added; ada-01 was a friend already and is not added again');
  assert.ok(after.items.some((p) => p.playerId === 'alice'));
  const linkage = await friends().get();
  assert.ok(linkage.data.some((r) => r.id === 'alice'));
  await friends().destroy([{ id: 'alice', type: 'players' }, { id: 'zoe-nobody', type: 'players' }]);
  assert.is((await store.listFriends('bob', { offset: 0, limit: 100 }))!.total, before, 'removed; a member not in the list is ignored');
  try {
    await friends().patch([{ id: 'alice', type: 'players' }]);
    assert.unreachable('a full replacement is refused');
  } catch (error) {
    assert.is(firstErrorTitle(error), 'Forbidden', JSON.stringify(error));
  }
});

const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(origin + path, { method, headers: { authorization: `Bearer ${WRITE_TOKEN}`, 'content-type': J, accept: J, ...headers }, body: JSON.stringify(body) });

writes('the statuses JSON:API names: 409 for another id or type, 403 for relationships in the resource, 404 for a member that does not exist', async () => {
  const other = await send('PATCH', '/player/bob', { data: { type: 'players', id: 'alice', attributes: { alternateName: 'x' } } });
  assert.is(other.status, 409);
  assert.is((await other.json()).errors[0].source.pointer, '/data/id');
  assert.is((await send('PATCH', '/player/bob', { data: { type: 'teams', id: 'bob', attributes: {} } })).status, 409);
  const withRelationships = await send('PATCH', '/player/bob', { data: { type: 'players', id: 'bob', relationships: { friends: { data: [] } } } });
  assert.is(withRelationships.status, 403);
  assert.is((await withRelationships.json()).errors[0].source.pointer, '/data/relationships/friends/data');
  const linksOnly = await send('PATCH', '/player/bob', { data: { type: 'players', id: 'bob', relationships: { friends: { links: { related: '/x' } } } } });
  assert.is(linksOnly.status, 200, 'a relationship with links only, as GET gives it, is no change');
  const missing = await send('POST', '/player/bob/relationships/friends', { data: [{ type: 'players', id: 'alice' }, { type: 'players', id: 'no-such-player' }] });
  assert.is(missing.status, 404);
  assert.not.ok((await store.listFriends('bob', { offset: 0, limit: 100 }))!.items.some((p) => p.playerId === 'alice'), 'nothing was added');
  assert.is((await send('POST', '/player/bob/relationships/friends', { data: [{ type: 'players', id: 'bob' }] })).status, 422, 'not its own friend');
  assert.is((await send('POST', '/player/bob/relationships/friends', { data: { type: 'players', id: 'alice' } })).status, 400, 'data must be an array');
  assert.is((await send('POST', '/player/bob/relationships/friends', { data: [] }, { 'content-type': 'application/json' })).status, 415);
  const many = Array.from({ length: 101 }, (_, i) => ({ type: 'players', id: `p${i}` }));
  assert.is((await send('POST', '/player/bob/relationships/friends', { data: many })).status, 413, 'at most 100 members at once');
  const noCredentials = await fetch(`${origin}/player/bob/relationships/friends`, { method: 'POST', headers: { 'content-type': J }, body: '{"data":[]}' });
  assert.is(noCredentials.status, 401);
});

writes('null removes an optional attribute; a required one cannot go (422); If-Match guards relationship writes', async () => {
  const removed = await send('PATCH', '/player/bob', { data: { type: 'players', id: 'bob', attributes: { name: null } } });
  assert.is(removed.status, 200);
  assert.is((await store.getPlayer('bob'))!.displayName, undefined);
  assert.is((await send('PATCH', '/player/bob', { data: { type: 'players', id: 'bob', attributes: { alternateName: null } } })).status, 422);
  const stale = await send('POST', '/player/bob/relationships/friends', { data: [{ type: 'players', id: 'alice' }] }, { 'if-match': '"stale"' });
  assert.is(stale.status, 412);
  const tag = (await fetch(`${origin}/player/bob`, { headers: { accept: J } })).headers.get('etag')!;
  assert.is((await send('POST', '/player/bob/relationships/friends', { data: [{ type: 'players', id: 'alice' }] }, { 'if-match': tag })).status, 204);
  const options = await fetch(`${origin}/player/bob`, { method: 'OPTIONS' });
  assert.match(options.headers.get('accept-patch')!, J);
  const unsupported = await send('PATCH', '/player/bob', {}, { 'content-type': 'text/plain' });
  assert.is(unsupported.status, 415);
  assert.match(unsupported.headers.get('accept-patch')!, 'application/merge-patch+json');
});

writes.run();
