import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createNegotiation, type Representation } from '../src/index.js';
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
    render: (r) => (r.kind === 'player' ? `${r.player.playerId},${r.player.alias}\n` : r.items.map((i) => `${i.player.playerId}`).join('\n')),
  };
  const { call } = await demoService({ representations: [...defaultRepresentations, csv] });
  const res = await call('/player/bob', { headers: { Accept: 'text/csv' } });
  assert.is(res.headers.get('content-type'), 'text/csv');
  assert.is(await res.text(), 'bob,bobby\n');
  const etagCsv = res.headers.get('etag');
  const etagJson = (await call('/player/bob')).headers.get('etag');
  assert.is.not(etagCsv, etagJson);
});

http.run();
