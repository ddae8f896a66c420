import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations, type Representation } from '../src/index.js';
import { keptPairs } from '../src/core/http/query-pairs.js';
import { readsParameter } from '../src/representations/json-api-query.js';
import { Agent, get as httpGet } from 'node:http';
import { demoService } from './support/service.js';
import { startDemoServer } from './support/http-server.js';

const pairs = suite('keptPairs: the query pairs whose names a test keeps');

pairs('should keep the pairs as written, in order, after an ampersand each', () => {
  const keep = (name: string) => name === 'include' || name.startsWith('fields[');
  assert.is(keptPairs('?page=2&include=friends&cacheBuster=7&fields[players]=alias', keep), '&include=friends&fields[players]=alias');
  assert.is(keptPairs('?page=2&cacheBuster=7', keep), '');
  assert.is(keptPairs('', keep), '');
  assert.is(keptPairs('?', keep), '');
});

pairs('should test names decoded as URLSearchParams decodes them', () => {
  const seen: string[] = [];
  keptPairs('?fields%5Bplayers%5D=alias&a+b=1&%zz=2&&=3&plain', (name) => (seen.push(name), false));
  assert.equal(seen, ['fields[players]', 'a b', '%zz', '', 'plain']);
  assert.equal(seen, [...new URLSearchParams('fields%5Bplayers%5D=alias&a+b=1&%zz=2&&=3&plain').keys()]);
  assert.is(keptPairs('?fields%5Bplayers%5D=alias', (name) => name.startsWith('fields[')), '&fields%5Bplayers%5D=alias');
});

const plans = suite('Render plans: made once per query the format reads alike');

/** JSON:API, counting its plans. */
function countedJsonApi(): { representation: Representation; plans: () => number } {
  const jsonApi = defaultRepresentations.find((r) => r.name === 'jsonapi')!;
  let n = 0;
  const representation: Representation = {
    ...jsonApi,
    plan: (query, kind, type) => {
      n++;
      return jsonApi.plan!(query, kind, type);
    },
  };
  return { representation, plans: () => n };
}

const JSON_API = { headers: { Accept: 'application/vnd.api+json' } };

plans('should plan a JSON:API item once for queries that differ only in parameters it does not read', async () => {
  const { representation, plans: count } = countedJsonApi();
  const { call } = await demoService({ representations: [representation], memoizeAnswers: false, bodyCacheBytes: 0 });
  for (let i = 0; i < 50; i++) assert.is((await call(`/player/alice?cacheBuster=${i}`, JSON_API)).status, 200);
  assert.is(count(), 1);
  // A parameter it reads makes another plan, and its answer follows it.
  const sparse = await call('/player/alice?cacheBuster=99&fields[players]=alternateName', JSON_API);
  assert.equal(Object.keys(((await sparse.json()) as { data: { attributes: object } }).data.attributes), ['alternateName']);
  assert.is(count(), 2);
  const whole = await call('/player/alice?cacheBuster=100', JSON_API);
  assert.ok(Object.keys(((await whole.json()) as { data: { attributes: object } }).data.attributes).length > 1);
  assert.is(count(), 2);
});

plans('should still refuse a parameter JSON:API reserves, whatever plan was kept before', async () => {
  const { call } = await demoService({ memoizeAnswers: false });
  assert.is((await call('/player/alice?cacheBuster=1', JSON_API)).status, 200);
  for (const query of ['cacheBuster=1&bogus=2', 'sort=alias', 'filter[alias]=x', 'fields[nobody]=x']) {
    const res = await call(`/player/alice?${query}`, JSON_API);
    assert.is(res.status, 400, query);
  }
  assert.is((await call('/player/alice/friends?page=2&cacheBuster=3', JSON_API)).status, 200);
});

plans('should key a format without readsParameter by its whole query', async () => {
  const json = defaultRepresentations.find((r) => r.name === 'json')!;
  let n = 0;
  const planned: Representation = { ...json, plan: () => (n++, { variant: '' }) };
  const { call } = await demoService({ representations: [planned], memoizeAnswers: false, bodyCacheBytes: 0 });
  for (let i = 0; i < 3; i++) await (await call(`/player/alice?x=${i}`)).arrayBuffer();
  await (await call('/player/alice?x=0')).arrayBuffer();
  assert.is(n, 3);
});

plans('should say which JSON:API parameters it reads', () => {
  for (const name of ['include', 'fields[players]', 'sort', 'filter[alias]', 'bogus']) assert.ok(readsParameter(name), name);
  for (const name of ['page', 'filter[search]', 'cacheBuster', 'page[number]', 'mediaType']) assert.not.ok(readsParameter(name), name);
});

plans('should build a relation shown by ids only without the page links and operations it does not render', async () => {
  const jsonApi = defaultRepresentations.find((r) => r.name === 'jsonapi')!;
  const seen: { links: number; operations: number; items: number; total: number }[] = [];
  const spying: Representation = {
    ...jsonApi,
    render: (resource, plan) => {
      const friends = resource.kind === 'item' ? resource.relations?.friends : undefined;
      if (friends) seen.push({ links: friends.links.length, operations: friends.operations.length, items: friends.items.length, total: friends.paging.total });
      return jsonApi.render(resource, plan);
    },
  };
  const { call } = await demoService({ representations: [spying], memoizeAnswers: false, bodyCacheBytes: 0 });
  const linked = await (await call('/player/alice', JSON_API)).json() as { data: { relationships: { friends: { data: unknown[]; meta: { total: number }; links: Record<string, string> } } } };
  const included = await call('/player/alice?include=friends', JSON_API);
  assert.is(included.status, 200);
  assert.equal(seen.length, 2);
  assert.equal(seen[0], { links: 0, operations: 0, items: linked.data.relationships.friends.data.length, total: linked.data.relationships.friends.meta.total });
  assert.ok(seen[0]!.items > 0);
  assert.ok(seen[1]!.links > 0 && seen[1]!.operations > 0, 'an included relation gets its whole page');
  // The relationship's own links are the item's, not the page's.
  assert.ok(linked.data.relationships.friends.links.self?.endsWith('/player/alice/relationships/friends'));
});

plans('should hold over a real keep-alive socket: shared plans, refused parameters, pages read off the query or decoded', async () => {
  const server = await startDemoServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  const get = (path: string, accept = 'application/vnd.api+json') =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      httpGet(`${server.origin}${path}`, { agent, headers: { accept } }, (res) => {
        sockets.add(res.socket);
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
  try {
    for (let i = 0; i < 5; i++) assert.is((await get(`/player/alice?cacheBuster=${i}`)).status, 200);
    assert.is((await get('/player/alice?cacheBuster=9&bogus=1')).status, 400);
    assert.is((await get('/player/alice?fields%5Bnobody%5D=x')).status, 400, 'a percent-encoded name is decoded before it is judged');
    for (const query of ['page=2&cacheBuster=3', 'page=%32', 'cacheBuster=4&page=2']) {
      const { status, body } = await get(`/player/alice/friends?${query}`);
      assert.is(status, 200, query);
      assert.match((JSON.parse(body) as { links: { self: string } }).links.self, /page=2$/, query);
    }
    assert.is((await get('/player/alice/friends?page=0')).status, 400);
    assert.is((await get('/player/alice/friends?page=2&page=3', 'application/hal+json')).status, 400, 'page given twice');
    assert.is(sockets.size, 1, 'every request over one kept-alive connection');
  } finally {
    agent.destroy();
    await server.close();
  }
});

pairs.run();
plans.run();
