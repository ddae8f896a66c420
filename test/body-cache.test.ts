import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultRepresentations, type Representation } from '../src/index.js';
import { BodyCache, renderedBody } from '../src/core/caches/body-cache.js';
import { demoService } from './support/service.js';

const cache = suite('BodyCache: rendered bodies by target and strong ETag');

/** The plain JSON format, counting its renders. */
function counted(): { representation: Representation; renders: () => number } {
  const json = defaultRepresentations.find((r) => r.name === 'json')!;
  let n = 0;
  const representation: Representation = {
    ...json,
    render: (resource, plan) => {
      n++;
      return json.render(resource, plan);
    },
  };
  return { representation, renders: () => n };
}

cache('should be off with bodyCacheBytes 0: every computed answer is rendered', async () => {
  const { representation, renders } = counted();
  const { call } = await demoService({ representations: [representation], memoizeAnswers: false, bodyCacheBytes: 0 });
  await (await call('/player/alice')).arrayBuffer();
  await (await call('/player/alice')).arrayBuffer();
  assert.is(renders(), 2);
});

cache('should render a body once per strong ETag and again after a change', async () => {
  const { representation, renders } = counted();
  // The answer memo off, so that every request reaches the route and its renderer.
  const { call, store } = await demoService({ representations: [representation], memoizeAnswers: false });
  const first = new Uint8Array(await (await call('/player/alice')).arrayBuffer());
  const second = new Uint8Array(await (await call('/player/alice')).arrayBuffer());
  assert.is(renders(), 1);
  assert.equal(second, first);
  const headRes = await call('/player/alice', { method: 'HEAD' });
  assert.is(headRes.headers.get('content-length'), String(first.byteLength));
  assert.is(renders(), 1);
  await store.putPlayer({ playerId: 'alice', alias: 'ali-2' });
  assert.is((await (await call('/player/alice')).json()).alias, 'ali-2');
  assert.is(renders(), 2);
});

cache('should keep one copy of a body: in the answer memo for anonymous reads, here for credentialed ones', async () => {
  const { representation, renders } = counted();
  const { call, service } = await demoService({ representations: [representation], authenticate: (r) => (r.headers.get('authorization') === 'Bearer t' ? { id: 'me' } : null) });
  const bodies = service.config.bodyCache!;
  await (await call('/player/alice')).arrayBuffer();
  await (await call('/player/alice')).arrayBuffer();
  assert.is(renders(), 1, 'the second read answered by the memo');
  assert.is(bodies.size, 0, 'an anonymous body kept by the memo only');
  const auth = { headers: { Authorization: 'Bearer t' } };
  await (await call('/player/bob', auth)).arrayBuffer();
  await (await call('/player/bob', auth)).arrayBuffer();
  assert.is(renders(), 2, 'the memo keeps no credentialed answer: the body cache gives the second body');
  assert.is(bodies.size, 1);
});

cache('should render every time when turned off', async () => {
  const { representation, renders } = counted();
  const { call } = await demoService({ representations: [representation], memoizeAnswers: false, bodyCacheBytes: 0 });
  await call('/player/alice');
  await call('/player/alice');
  assert.is(renders(), 2);
});

cache('should keep bodies within its byte budget, oldest first, and skip large ones', () => {
  // Each entry counts its body, its key and about 450 bytes of its own objects: four fit in 3,000.
  const c = new BodyCache(3000);
  const body = (n: number) => renderedBody('x'.repeat(n), 'application/json');
  c.set('/a "1"', body(200));
  c.set('/b "1"', body(200));
  c.set('/c "1"', body(200));
  c.set('/d "1"', body(200));
  c.set('/e "1"', body(200));
  assert.ok(c.size < 5);
  assert.is(c.get('/a "1"'), undefined);
  assert.ok(c.get('/e "1"'));
  c.set('/big "1"', body(300));
  assert.is(c.get('/big "1"'), undefined);
});

cache('should reject two representations with one name (the name is part of every ETag)', async () => {
  const json = defaultRepresentations.find((r) => r.name === 'json')!;
  let error: unknown;
  try {
    await demoService({ representations: [json, { ...json, mediaType: 'application/x-other+json' }] });
  } catch (e) {
    error = e;
  }
  assert.instance(error, TypeError);
  assert.match((error as Error).message, 'named "json"');
});

cache.run();
