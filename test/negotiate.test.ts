import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Negotiator from 'negotiator';
import { type Representation } from '../src/index.js';
import { createNegotiation, parseAccept } from '../src/core/http/negotiate.js';
import { demoService } from './support/service.js';

const fake = (name: string, mediaType: string): Representation => ({ name, mediaType, render: () => name });
const json = fake('json', 'application/json');
const hal = fake('hal', 'application/hal+json');

const neg = suite('createNegotiation');

neg('should serve the first format for a missing Accept or */*', () => {
  const choose = createNegotiation([json, hal]);
  assert.is(choose(null), json);
  assert.is(choose(''), json);
  assert.is(choose('*/*'), json);
});

neg('should honour q-values, specificity and q=0', () => {
  const choose = createNegotiation([json, hal]);
  assert.is(choose('application/json;q=0.5, application/hal+json'), hal);
  assert.is(choose('application/*;q=0.2, application/hal+json;q=0.1'), json);
  assert.is(choose('*/*, application/json;q=0'), hal);
  assert.is(choose('text/html'), undefined);
});

neg('should answer the same for a repeated header (cached)', () => {
  const choose = createNegotiation([json, hal]);
  for (let i = 0; i < 3; i++) assert.is(choose('application/hal+json'), hal);
  for (let i = 0; i < 1000; i++) choose(`application/x-${i}`);
  assert.is(choose('application/hal+json'), hal);
});

neg('should choose as negotiator does for headers without parameters', () => {
  const siren = fake('siren', 'application/vnd.siren+json');
  const list = [json, hal, siren];
  const choose = createNegotiation(list);
  const headers = [
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    'application/vnd.siren+json, application/hal+json',
    'application/hal+json;q=0.9, application/vnd.siren+json;q=0.9, application/json;q=0.8',
    'application/*;q=0.3, application/vnd.siren+json;q=0.3, */*;q=0.1',
    'text/*, image/png', '*/*;q=0', 'application/json;q=0, application/*;q=0.5', 'APPLICATION/HAL+JSON',
    'application/hal+json;q=0.0001, application/json;q=0.001', '*/*, application/hal+json;q=0.5',
  ];
  for (const h of headers) {
    const expected = new Negotiator({ headers: { accept: h } }).mediaType(list.map((r) => r.mediaType));
    assert.is(choose(h)?.mediaType, expected, h);
  }
});

neg('should parse quoted parameters and weights, and skip malformed ranges', () => {
  assert.equal(parseAccept('a/b;p="x,y";q=0.5, nonsense, */b, c/*;Q=1.5'), [
    { type: 'a', subtype: 'b', params: { p: 'x,y' }, q: 0.5, index: 0 },
    { type: 'c', subtype: '*', params: {}, q: 0, index: 1 },
  ]);
});

neg('should skip members holding only parameters or separators', () => {
  assert.equal(parseAccept(';'), []);
  assert.equal(parseAccept('a/b,;, ;q=1 ,;;'), [{ type: 'a', subtype: 'b', params: {}, q: 1, index: 0 }]);
  const choose = createNegotiation([json, hal]);
  assert.is(choose(';'), json);
  assert.is(choose('a/b,;'), undefined);
});

neg('should match a range with parameters only when the format accepts them', () => {
  const choose = createNegotiation([json, hal]);
  assert.is(choose('application/json; charset=utf-8'), json);
  assert.is(choose('application/json; charset=latin1'), undefined);
  assert.is(choose('application/json; version=2, application/hal+json;q=0.1'), hal);
  const strict: Representation = { ...fake('api', 'application/vnd.api+json'), acceptable: (p) => Object.keys(p).every((k) => k === 'profile') };
  const withStrict = createNegotiation([json, strict]);
  assert.is(withStrict('application/vnd.api+json;profile=x'), strict);
  // The JSON:API rule: every entry naming the type carries refused parameters, so 406 despite */*.
  assert.is(withStrict('application/vnd.api+json;v=1, */*'), undefined);
  assert.is(withStrict('application/vnd.api+json;v=1, application/vnd.api+json;q=0.5'), strict);
});

neg.run();

const http = suite('negotiation through the service');

http('should answer 406 problem+json listing the available types', async () => {
  const { call } = await demoService();
  const res = await call('/player/alice', { headers: { Accept: 'text/csv' } });
  assert.is(res.status, 406);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  const problem = await res.json();
  assert.ok(problem.available.includes('application/json'));
});

http('should send Vary: Accept on negotiated responses', async () => {
  const { call } = await demoService();
  // Authorization is named too (docs/decisions.md, caching): credentials change the answer.
  assert.is((await call('/player/alice')).headers.get('vary'), 'Accept, Authorization, Api-Version');
  assert.is((await call('/player/alice/friends')).headers.get('vary'), 'Accept, Authorization, Api-Version');
});

http('should let a user add a format without touching the core', async () => {
  const { defaultRepresentations } = await import('../src/index.js');
  const csv: Representation = {
    name: 'csv',
    mediaType: 'text/csv',
    render: (r) => (r.kind === 'item' ? `${r.id},${String(r.fields.alias)}\n` : r.items.map((i) => `${i.id}`).join('\n')),
  };
  const { call } = await demoService({ representations: [...defaultRepresentations, csv] });
  const res = await call('/player/bob', { headers: { Accept: 'text/csv' } });
  assert.is(res.headers.get('content-type'), 'text/csv');
  assert.is(await res.text(), 'bob,bobby\n');
  const etagCsv = res.headers.get('etag');
  const etagJson = (await call('/player/bob')).headers.get('etag');
  assert.is.not(etagCsv, etagJson);
});

http('should plan each query once per type and kind, keeping a bounded number of queries', async () => {
  const { defaultRepresentations } = await import('../src/index.js');
  const queries: string[] = [];
  const csv: Representation = {
    name: 'csv',
    mediaType: 'text/csv',
    plan: (query, kind) => (queries.push(`${kind}?${query}`), { variant: query.get('sep') ?? '' }),
    render: (r, plan) => (r.kind === 'item' ? `${r.id}${plan?.variant || ','}${String(r.fields.alias)}\n` : ''),
  };
  // Every request computed: no kept answer stands in for planning.
  const { call } = await demoService({ representations: [...defaultRepresentations, csv], memoizeAnswers: false, bodyCacheBytes: 0 });
  const get = async (path: string) => (await call(path, { headers: { Accept: 'text/csv' } })).text();
  assert.is(await get('/player/bob'), 'bob,bobby\n');
  assert.match(await get('/player/alice'), /^alice,/);
  assert.is(await get('/player/bob?sep=;'), 'bob;bobby\n');
  assert.is(await get('/player/bob?sep=:'), 'bob:bobby\n');
  assert.is(await get('/player/bob'), 'bob,bobby\n');
  assert.is(await get('/player/alice?sep=;'), `alice;${(await get('/player/alice')).slice('alice,'.length)}`);
  assert.equal(queries, ['item?', 'item?sep=%3B', 'item?sep=%3A']);
  // A client inventing queries: each is planned, and the first ones are forgotten, not kept for ever.
  for (let i = 0; i < 40; i++) await get(`/player/bob?sep=${i}`);
  assert.is(queries.length, 43);
  await get('/player/bob?sep=;');
  assert.is(queries.length, 44);
});

http('should never answer an error with 406, and vary errors on Accept', async () => {
  const { call } = await demoService();
  const missing = await call('/nowhere', { headers: { Accept: 'text/csv' } });
  assert.is(missing.status, 404);
  assert.is(missing.headers.get('content-type'), 'application/problem+json');
  assert.match(missing.headers.get('vary')!, /\bAccept\b/);
  const badId = await call('/player/a%20b', { headers: { Accept: 'image/png' } });
  assert.is(badId.status, 400);
  assert.is(badId.headers.get('content-type'), 'application/problem+json');
  const notAllowed = await call('/player/alice/friends/search?search=a', { method: 'PUT', headers: { Accept: 'application/vnd.api+json' } });
  assert.is(notAllowed.headers.get('content-type'), 'application/vnd.api+json');
});

http('should serve the right format for a browser Accept header and q-values', async () => {
  const { call } = await demoService();
  const xmlClient = 'application/xml;q=0.9,*/*;q=0.8';
  assert.is((await call('/player/alice', { headers: { Accept: xmlClient } })).headers.get('content-type'), 'application/json');
  const res = await call('/player/alice', { headers: { Accept: 'application/json;q=0.5, application/vnd.siren+json' } });
  assert.is(res.headers.get('content-type'), 'application/vnd.siren+json');
});

http.run();
