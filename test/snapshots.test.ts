import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, defaultRepresentations, MemoryPlayerStore, render, renderAll, seedDemoData } from '../src/index.js';
import { demoResources } from '../src/player/demo/demo-resources.js';
import { checkSnapshot, snapshotExtension, snapshotText } from './support/snapshot.js';

const BASE = 'https://api.example.com';
const snapshots = suite('snapshots of every format');

snapshots('should match the stored snapshot of a player, a first, a middle and a last page in every format', async () => {
  const resources = await demoResources(BASE);
  const cases = { player: resources.player, 'first-page': resources.firstPage, 'middle-page': resources.middlePage, 'last-page': resources.lastPage };
  const failures: string[] = [];
  for (const [name, resource] of Object.entries(cases)) {
    for (const [format, { body, contentType }] of Object.entries(renderAll(resource))) {
      const problem = checkSnapshot(`${format}/${name}.${snapshotExtension(contentType)}`, snapshotText(body, contentType));
      if (problem) failures.push(problem);
    }
  }
  assert.equal(failures, []);
});

snapshots('should detect a changed body', async () => {
  const { lastPage } = await demoResources(BASE);
  const { body, contentType } = render(lastPage, 'json');
  const changed = snapshotText(body.replace('kai31', 'kai32'), contentType);
  if (process.env.UPDATE_SNAPSHOTS === '1') return;
  assert.type(checkSnapshot(`json/last-page.${snapshotExtension(contentType)}`, changed), 'string');
});

snapshots.run();

const api = suite('render and renderAll');

api('should render by name or media type, as the service serves it', async () => {
  const { player } = await demoResources(BASE);
  const byName = render(player, 'siren');
  assert.equal(byName, render(player, 'application/vnd.siren+json; charset=utf-8'));
  assert.is(byName.contentType, 'application/vnd.siren+json');
  assert.equal(Object.keys(renderAll(player)), defaultRepresentations.map((r) => r.name));
});

api('should plan from a query string like a request', async () => {
  const { player } = await demoResources(BASE);
  const doc = JSON.parse(render(player, 'jsonapi', { query: 'include=friends&fields[players]=name' }).body);
  assert.is(doc.included.length, 10);
  assert.equal(Object.keys(doc.included[0].attributes), ['name']);
  assert.throws(() => render(player, 'jsonapi', { query: 'include=enemies' }), (e: Error & { status?: number }) => e.status === 400);
});

api('should throw a TypeError naming the known formats for an unknown one', async () => {
  const { player } = await demoResources(BASE);
  assert.throws(() => render(player, 'text/csv'), (e: Error) => e instanceof TypeError && e.message.includes('siren'));
});

api('should render what a user has (a plain player or page) exactly as the service serves it, with its header fields', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: BASE, store });
  const plain = (p: { playerId: string; alias: string; displayName?: string }) =>
    p.displayName === undefined ? { playerId: p.playerId, alias: p.alias } : { playerId: p.playerId, alias: p.alias, displayName: p.displayName };
  const friends = (await store.listFriends('alice', { offset: 10, limit: 10 }))!.items.map(plain);
  for (const r of defaultRepresentations) {
    const served = await service.fetch(new Request(`${BASE}/player/alice/friends?page=2`, { headers: { Accept: r.mediaType } }));
    const page = render({ playerId: 'alice', page: 2, total: 32, friends }, r.name);
    assert.is(page.body, await served.text(), r.name);
    assert.is(page.contentType, served.headers.get('content-type'), r.name);
    assert.equal(page.headers, { link: served.headers.get('link'), 'total-count': '32' }, r.name);
    const player = await service.fetch(new Request(`${BASE}/player/bob`, { headers: { Accept: r.mediaType } }));
    // JSON:API embeds the first page of friends: the plain player carries it.
    const bobsFriends = (await store.listFriends('bob', { offset: 0, limit: 10 }))!.items.map(plain);
    const rendered = render({ ...plain((await store.getPlayer('bob'))!), friends: bobsFriends }, r.mediaType);
    assert.is(rendered.body, await player.text(), r.name);
    assert.equal(rendered.headers, { link: player.headers.get('link') }, r.name);
  }
});

api('should build links from the given base URL and page size', () => {
  const page = render({ playerId: 'alice', page: 2, total: 7, friends: [{ playerId: 'bob', alias: 'bobby' }] }, 'hal', { baseUrl: 'https://games.test/api/', pageSize: 5 });
  const doc = JSON.parse(page.body);
  assert.is(doc._links.self.href, 'https://games.test/api/player/alice/friends?page=2');
  assert.is(doc._links.prev.href, 'https://games.test/api/player/alice/friends?page=1');
  assert.not.ok(doc._links.next);
  assert.is(page.headers['total-count'], '7');
});

api('should indent JSON bodies when asked, and leave HTML as it is', () => {
  const input = { playerId: 'bob', alias: 'bobby' };
  for (const r of defaultRepresentations) {
    const compact = render(input, r.name);
    const pretty = render(input, r.name, { pretty: true });
    if (r.name === 'html') assert.is(pretty.body, compact.body);
    else {
      assert.is(pretty.body, JSON.stringify(JSON.parse(compact.body), null, 2), r.name);
      assert.ok(pretty.body.includes('\n  '), r.name);
    }
  }
});

api('should refuse a plain input that is neither a player nor a page, saying why', () => {
  for (const bad of [[], 'bob', { playerId: 'a/b', alias: 'x' }, { playerId: 'bob' }, { playerId: 'alice', friends: 'no' }] as unknown[]) {
    assert.throws(() => render(bad as never, 'json'), (e: unknown) => e instanceof TypeError, JSON.stringify(bad));
  }
});

api.run();
