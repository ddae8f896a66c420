// Reads without I/O: the memory store's synchronous reads (Store.readsNow), and the service answering a
// computed read with no promise when its store gives them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerService } from '../src/index.js';
import { MemoryStore } from '../src/stores/memory.js';
import { answererOf } from '../src/core/service/answerer.js';
import { headerPairs, type RequestHead } from '../src/core/http/request-head.js';
import type { Answer } from '../src/core/respond/answer.js';

const readsNow = suite('reads without I/O: Store.readsNow and synchronous computed answers');
const BASE = 'http://reads-now.test';
const HAL = 'application/hal+json';
const NO_REQUEST = () => {
  throw new Error('a read needs no Request');
};

const head = (path: string, fields: string[] = []): RequestHead => ({ method: 'GET', url: BASE + path, headers: headerPairs(['Host', 'reads-now.test', ...fields]) });

/** A demo service that keeps nothing between requests: every answer is computed. */
async function computing(store: MemoryPlayerStore = new MemoryPlayerStore()): Promise<PlayerService> {
  await seedDemoData(store);
  return createPlayerService({ baseUrl: BASE, store, memoizeAnswers: false, bodyCacheBytes: 0 });
}

/** The body of an answer, as text. */
function text(answer: Answer): string {
  const body = answer.body;
  return body === null ? '' : typeof body === 'string' ? body : new TextDecoder().decode(body);
}

readsNow('should give what get and list resolve to, and nothing for a subclass that overrides a read', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = await computing();
  const player = service.config.api.type('player');
  const friends = player.relation('friends')!;
  const now = store.readsNow()!;
  assert.ok(now);
  assert.is(now.get(player, 'alice'), await store.get(player, 'alice'));
  assert.is(now.get(player, 'nobody'), undefined);
  for (const page of [{ offset: 0, limit: 2 }, { offset: 2, limit: 5 }, { offset: 100, limit: 5 }]) {
    assert.equal(now.list(friends, 'alice', page), await store.list(friends, 'alice', page));
  }
  assert.is(now.list(friends, 'nobody', { offset: 0, limit: 2 }), undefined);
  class OwnGet extends MemoryStore {
    override async get(...args: Parameters<MemoryStore['get']>) {
      return super.get(...args);
    }
  }
  class OwnList extends MemoryStore {
    override async list(...args: Parameters<MemoryStore['list']>) {
      return super.list(...args);
    }
  }
  assert.is(new OwnGet().readsNow(), undefined);
  assert.is(new OwnList().readsNow(), undefined);
});

readsNow('should answer a computed item and page synchronously, with the bytes fetch gives', async () => {
  const service = await computing();
  const answer = answererOf(service)!;
  for (const [path, accept] of [
    ['/player/alice', 'application/json'],
    ['/player/alice/friends?page=1', HAL],
    ['/player/alice/friends?page=2', 'application/vnd.api+json'],
    ['/player/bob/friends', 'text/html'],
    // JSON:API's compound document: the item with its list's first page embedded.
    ['/player/alice?include=friends', 'application/vnd.api+json'],
  ] as const) {
    const answered = answer(head(path, ['Accept', accept]), NO_REQUEST);
    assert.not.instance(answered, Promise, path);
    const res = await service.fetch(new Request(BASE + path, { headers: { accept } }));
    assert.is((answered as Answer).status, res.status, path);
    assert.is(text(answered as Answer), await res.text(), path);
  }
  const compound = JSON.parse(text(answer(head('/player/alice?include=friends', ['Accept', 'application/vnd.api+json']), NO_REQUEST) as Answer));
  assert.ok(compound.included.length > 0, 'the embedded page is there');
});

readsNow('should answer a read it refuses synchronously too, with its problem', async () => {
  const service = await computing();
  const answer = answererOf(service)!;
  for (const [path, status] of [
    ['/player/nobody', 404],
    ['/player/nobody/friends?page=1', 404],
    ['/player/alice/friends?page=99', 404],
    ['/player/alice/friends?page=0', 400],
    ['/player/nobody?include=friends', 404],
  ] as const) {
    const answered = answer(head(path), NO_REQUEST);
    assert.not.instance(answered, Promise, path);
    assert.is((answered as Answer).status, status, path);
    assert.is((answered as Answer).fields.get('content-type'), 'application/problem+json', path);
  }
});

readsNow('should read through a promise from a store whose reads are its own, with the same answer', async () => {
  class Delayed extends MemoryPlayerStore {
    override async list(...args: Parameters<MemoryPlayerStore['list']>) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return super.list(...args);
    }
  }
  const delayed = await computing(new Delayed());
  const plain = await computing();
  for (const path of ['/player/alice/friends?page=2', '/player/alice']) {
    const answered = answererOf(delayed)!(head(path, ['Accept', HAL]), NO_REQUEST);
    // Its reads are its own (one is overridden): none is given at once, every answer waits on a promise.
    assert.instance(answered, Promise, path);
    const expected = answererOf(plain)!(head(path, ['Accept', HAL]), NO_REQUEST) as Answer;
    assert.is(text(await answered), text(expected), path);
  }
});

readsNow('should answer a read after a write with what the write left', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: BASE, store, memoizeAnswers: false, bodyCacheBytes: 0, authenticate: bearerTokens(['t']) });
  const answer = answererOf(service)!;
  const before = answer(head('/player/alice/friends?page=1', ['Accept', HAL]), NO_REQUEST) as Answer;
  const patched = await service.fetch(
    new Request(`${BASE}/player/ada-01`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json', authorization: 'Bearer t' }, body: '{"alias":"ada-2"}' }),
  );
  assert.is(patched.status, 200);
  const player = answer(head('/player/ada-01', ['Accept', 'application/json']), NO_REQUEST) as Answer;
  assert.is(JSON.parse(text(player)).alias, 'ada-2');
  const after = answer(head('/player/alice/friends?page=1', ['Accept', HAL]), NO_REQUEST) as Answer;
  assert.not.equal(after.fields.get('etag'), before.fields.get('etag'));
  assert.ok(text(after).includes('ada-2'));
});

readsNow('should identify a bearer token at once, and wait on a hook that answers later', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const path = '/player/alice/friends?page=1';
  const sync = createPlayerService({ baseUrl: BASE, store, memoizeAnswers: false, bodyCacheBytes: 0, authenticate: bearerTokens(['t']) });
  const good = answererOf(sync)!(head(path, ['Authorization', 'Bearer t']), NO_REQUEST);
  assert.not.instance(good, Promise);
  assert.is((good as Answer).status, 200);
  const bad = answererOf(sync)!(head(path, ['Authorization', 'Bearer nope']), NO_REQUEST);
  assert.not.instance(bad, Promise);
  assert.is((bad as Answer).status, 401);
  const later = createPlayerService({
    baseUrl: BASE,
    store,
    memoizeAnswers: false,
    bodyCacheBytes: 0,
    authenticate: async (request) => (request.headers.get('authorization') === 'Bearer t' ? { id: 'me' } : null),
  });
  const waited = answererOf(later)!(head(path, ['Authorization', 'Bearer t']), () => new Request(BASE + path, { headers: { authorization: 'Bearer t' } }));
  assert.instance(waited, Promise);
  assert.is((await waited).status, 200);
  assert.is(text(await waited), text(good as Answer));
  const refused = answererOf(later)!(head(path, ['Authorization', 'Bearer nope']), () => new Request(BASE + path, { headers: { authorization: 'Bearer nope' } }));
  assert.is((await refused).status, 401);
});

readsNow.run();
