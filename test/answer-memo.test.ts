import { keptBytes } from '../src/core/caches/kept-copy.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerService, type PlayerServiceOptions } from '../src/index.js';
import { Answer } from '../src/core/respond/answer.js';
import { AnswerMemo } from '../src/core/caches/answer-memo.js';
import { answererOf } from '../src/core/service/answerer.js';
import { headerPairs, type RequestHead } from '../src/core/http/request-head.js';
import { answerSelected, type SelectedAnswers } from '../src/core/respond/selected.js';
import { BASE, demoService } from './support/service.js';
import type { ResourceType } from '../src/core/model/api.js';

const memo = suite('AnswerMemo: complete GET/HEAD answers until a player they show changes');
const HAL = 'application/hal+json';

const head = (path: string, fields: string[] = [], method = 'GET'): RequestHead => ({ method, url: BASE + path, headers: headerPairs(fields) });

/** The answer the service keeps for this request now, if any (looked up without answering: no side effect). */
function kept(service: PlayerService, h: RequestHead): Answer | undefined {
  const m = service.config.answerMemo!;
  const request = { method: h.method.toUpperCase(), url: h.url, headers: h.headers };
  const key = m.keyFor(request);
  const selected = key === undefined ? undefined : m.lookup(key, Date.now());
  const answer = selected && answerSelected(request, selected);
  return answer && answer !== 'failed' ? answer : undefined;
}

/** A selected representation with a 200 of `bytes` bytes showing `shows`, for the memo's own tests. */
function selectedOf(etag: string, bytes: number, shows: readonly string[] | 'all' = ['x']): SelectedAnswers {
  return { validators: { etag }, fields: new Map(), maxAge: 60, dependsOn: shows, ok: { contentType: 'application/octet-stream', body: new Uint8Array(bytes), size: bytes } };
}

const authorized = { authenticate: bearerTokens(['t']) };
const write = { Authorization: 'Bearer t', 'Content-Type': 'application/merge-patch+json' };

memo('should answer a repeated GET from the kept answer, byte for byte', async () => {
  const { service, call } = await demoService();
  assert.is(kept(service, head('/player/alice', ['Accept', HAL])), undefined);
  const first = await call('/player/alice', { headers: { Accept: HAL } });
  const keptAnswer = kept(service, head('/player/alice', ['accept', HAL]));
  assert.instance(keptAnswer, Answer);
  assert.is(keptAnswer!.status, 200);
  const again = await call('/player/alice', { headers: { Accept: HAL } });
  assert.is(await again.text(), await first.text());
  for (const name of ['etag', 'last-modified', 'cache-control', 'vary', 'link', 'content-type']) assert.is(again.headers.get(name), first.headers.get(name), name);
  // Another format is another answer.
  assert.is(kept(service, head('/player/alice', ['Accept', 'application/vnd.siren+json'])), undefined);
});

memo('should forget the answers that show a changed player, through the service or in the store directly', async () => {
  const { service, store, call } = await demoService(authorized);
  await call('/player/bob');
  await call('/player/alice');
  assert.ok(kept(service, head('/player/bob')));
  const patched = await call('/player/bob', { method: 'PATCH', headers: write, body: JSON.stringify({ alias: 'bobby-2' }) });
  assert.is(patched.status, 200);
  assert.is(kept(service, head('/player/bob')), undefined);
  // An answer that does not show bob is kept.
  assert.ok(kept(service, head('/player/alice')));
  assert.is((await (await call('/player/bob')).json()).alias, 'bobby-2');
  await store.putPlayer({ playerId: 'bob', alias: 'bobby-3' });
  assert.is((await (await call('/player/bob')).json()).alias, 'bobby-3');
  // A friend list change is a change of its owner.
  await call('/player/alice/friends');
  const friends = (await (await call('/player/alice/friends')).json()) as { playerId: string }[];
  assert.ok(kept(service, head('/player/alice/friends')));
  await store.removeFriend('alice', friends[0]!.playerId);
  assert.is(kept(service, head('/player/alice/friends')), undefined);
});

memo('should forget every page that shows a player when the player changes', async () => {
  const { service, store, call } = await demoService(authorized);
  const page = (await (await call('/player/alice/friends?page=2', { headers: { Accept: HAL } })).json()) as { _embedded: { player: { playerId: string }[] } };
  const friend = page._embedded.player[3]!.playerId;
  await call('/player/alice/friends?page=1', { headers: { Accept: HAL } });
  await store.putPlayer({ playerId: friend, alias: 'renamed' });
  assert.is(kept(service, head('/player/alice/friends?page=2', ['Accept', HAL])), undefined, 'the page showing it');
  assert.ok(kept(service, head('/player/alice/friends?page=1', ['Accept', HAL])), 'a page not showing it');
  const again = (await (await call('/player/alice/friends?page=2', { headers: { Accept: HAL } })).json()) as { _embedded: { player: { alternateName: string }[] } };
  assert.is(again._embedded.player[3]!.alternateName, 'renamed');
});

memo('should forget search pages on any change (any friend may start or stop matching)', async () => {
  const { service, store, call } = await demoService();
  const before = (await (await call('/player/alice/friends/search?search=zz-nobody')).json()) as unknown[];
  assert.is(before.length, 0);
  assert.ok(kept(service, head('/player/alice/friends/search?search=zz-nobody')));
  const friends = (await (await call('/player/alice/friends')).json()) as { playerId: string }[];
  await store.putPlayer({ playerId: friends[0]!.playerId, alias: 'zz-nobody-now' });
  assert.is(kept(service, head('/player/alice/friends/search?search=zz-nobody')), undefined);
  assert.is(((await (await call('/player/alice/friends/search?search=zz-nobody')).json()) as unknown[]).length, 1);
});

memo("should evaluate each request's preconditions against the kept answer", async () => {
  const { service, call } = await demoService();
  const first = await call('/player/alice');
  const etag = first.headers.get('etag')!;
  const notModified = await call('/player/alice', { headers: { 'If-None-Match': etag } });
  assert.is(notModified.status, 304);
  assert.is(notModified.headers.get('etag'), etag);
  assert.is(notModified.headers.get('content-type'), null);
  assert.is(notModified.body, null);
  const since = await call('/player/alice', { headers: { 'If-Modified-Since': first.headers.get('last-modified')! } });
  assert.is(since.status, 304);
  const changed = await call('/player/alice', { headers: { 'If-None-Match': '"other"' } });
  assert.is(changed.status, 200);
  assert.is(await changed.text(), await first.text());
  // A failed precondition is answered the usual way (412 problem), not from the kept answer.
  assert.is(kept(service, head('/player/alice', ['If-Match', '"nope"'])), undefined);
  const failed = await call('/player/alice', { headers: { 'If-Match': '"nope"' } });
  assert.is(failed.status, 412);
});

memo('should answer HEAD from the kept GET with the length of its body and no body', async () => {
  const { call } = await demoService();
  const get = await call('/player/alice/friends?page=2');
  const body = new Uint8Array(await get.arrayBuffer());
  const headRes = await call('/player/alice/friends?page=2', { method: 'HEAD' });
  assert.is(headRes.status, 200);
  assert.is(headRes.headers.get('content-length'), String(body.byteLength));
  assert.is(headRes.headers.get('etag'), get.headers.get('etag'));
  assert.is((await headRes.arrayBuffer()).byteLength, 0);
});

memo('should not keep answers to requests with Authorization', async () => {
  const { service, call } = await demoService(authorized);
  const res = await call('/player/alice', { headers: { Authorization: 'Bearer t' } });
  assert.is(res.status, 200);
  assert.is(kept(service, head('/player/alice', ['Authorization', 'Bearer t'])), undefined);
  const bad = await call('/player/alice', { headers: { Authorization: 'Bearer wrong' } });
  assert.is(bad.status, 401);
});

memo('should keep the version chosen by Api-Version apart', async () => {
  const { service, call } = await demoService({ versions: [{ major: 1, minor: 0 }, { major: 2, minor: 0 }] });
  await call('/player/alice', { headers: { 'Api-Version': '1' } });
  await call('/player/alice', { headers: { 'Api-Version': '2' } });
  const v1 = kept(service, head('/player/alice', ['Api-Version', '1']));
  const v2 = kept(service, head('/player/alice', ['Api-Version', '2']));
  assert.ok(v1 && v2);
  assert.is.not(v1!.fields.get('etag'), v2!.fields.get('etag'));
});

memo('should outlive the second, with Date and Expires of the moment it answers', async () => {
  const { service, call } = await demoService();
  const first = await call('/player/alice');
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
  assert.ok(kept(service, head('/player/alice')), 'still kept in the next second');
  const later = await call('/player/alice');
  assert.is.not(later.headers.get('date'), first.headers.get('date'));
  assert.is(Date.parse(later.headers.get('expires')!) - Date.parse(later.headers.get('date')!), 60_000);
  assert.is(later.headers.get('etag'), first.headers.get('etag'));
  assert.is(later.headers.get('last-modified'), first.headers.get('last-modified'));
});

memo('should stay off where it would not be exact', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const on = (options: Partial<PlayerServiceOptions>) => createPlayerService({ baseUrl: BASE, store, ...options }).config.answerMemo;
  assert.ok(on({}));
  assert.is(on({ memoizeAnswers: false }), undefined);
  assert.is(on({ answerMemoBytes: 0 }), undefined);
  assert.is(on({ now: () => 0 }), undefined);
  assert.is(on({ trustProxy: true }), undefined);
  // A memory store whose reads are overridden cannot promise to tell about changes, nor can a store without watch.
  class Wrapped extends MemoryPlayerStore {
    override async get(type: ResourceType, id: string) {
      return super.get(type, id);
    }
  }
  assert.is(new Wrapped().watch(() => undefined), undefined);
  assert.is(on({ store: new Wrapped() }), undefined);
  const methods = ['get', 'list', 'search', 'put', 'delete', 'createMember', 'addMember', 'removeMember', 'getMedia', 'putMedia'];
  const database = Object.fromEntries(methods.map((m) => [m, (store as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!.bind(store)]));
  assert.is(on({ store: database as unknown as MemoryPlayerStore }), undefined);
});

memo("should not outlive a version's sunset", async () => {
  const sunsetAt = Date.now() + 300;
  const { service, call } = await demoService({
    versions: [{ major: 1, minor: 0, status: 'deprecated', deprecatedAt: sunsetAt - 86_400_000, sunsetAt }, { major: 2, minor: 0 }],
  });
  assert.is((await call('/api/v1/player/alice')).status, 200);
  assert.ok(kept(service, head('/api/v1/player/alice')), 'kept before the sunset');
  await new Promise((r) => setTimeout(r, Math.max(0, sunsetAt + 20 - Date.now())));
  assert.is(kept(service, head('/api/v1/player/alice')), undefined, 'not after');
  assert.is((await call('/api/v1/player/alice')).status, 308);
});

memo('should read the method in any case, as Fetch normalizes it', async () => {
  const { service, call } = await demoService();
  const etag = (await call('/player/alice')).headers.get('etag')!;
  for (const method of ['get', 'Get']) {
    const answer = await answererOf(service)!(head('/player/alice', ['If-None-Match', etag], method), () => new Request(BASE + '/player/alice'));
    assert.is(answer.status, 304, method);
  }
  const headAnswer = kept(service, head('/player/alice', [], 'head'));
  assert.is(headAnswer?.status, 200);
  assert.is(headAnswer?.body, null);
});

memo('should answer a kept GET synchronously through the internal answer step', async () => {
  const { service, call } = await demoService();
  await call('/player/alice');
  const answered = answererOf(service)!(head('/player/alice'), () => {
    throw new Error('a kept answer needs no Request');
  });
  assert.not.instance(answered, Promise);
  assert.is((answered as Answer).status, 200);
});

memo('should bound kept answers by bytes, oldest first', () => {
  // Each entry counts its body (100 bytes), its key and its own objects (keptBytes): four fit in the
  // budget. The fifth goes past it, and the oldest go until a tenth of it is free again.
  const each = keptBytes('a', selectedOf('"a"', 100));
  const m = new AnswerMemo(Math.floor(4.2 * each));
  const h = (url: string): RequestHead => ({ method: 'GET', url, headers: headerPairs([]) });
  for (const key of ['a', 'b', 'c', 'd']) m.record(key, selectedOf(`"${key}"`, 100), 0, m.epoch);
  assert.is(m.stats.size, 4);
  m.record('e', selectedOf('"e"', 100), 0, m.epoch);
  assert.is(m.stats.size, 3);
  assert.ok(m.stats.bytes <= 4.2 * each * 0.9);
  assert.is(m.lookup('a', 0), undefined);
  assert.is(m.lookup('b', 0), undefined);
  assert.is(m.lookup('e', 0)?.ok?.size, 100);
  // An entry over a quarter of the budget is not kept.
  m.record('f', selectedOf('"f"', 2 * each), 0, m.epoch);
  assert.is(m.lookup('f', 0), undefined);
  // Only GET and HEAD without credentials have a key.
  assert.ok(m.keyFor(h('x')));
  assert.is(m.keyFor({ ...h('x'), method: 'POST' }), undefined);
  assert.is(m.keyFor({ ...h('x'), headers: headerPairs(['Authorization', 'Bearer t']) }), undefined);
});

memo('should not keep an answer whose players changed while it was computed', () => {
  const m = new AnswerMemo(1_000_000, [5000]);
  m.record('shows dee', selectedOf('"0"', 10, ['dee']), 0, m.epoch); // something kept: changes are noted item by item
  const since = m.epoch;
  m.forget(['bob']);
  m.record('shows bob', selectedOf('"1"', 10, ['alice', 'bob']), 0, since);
  m.record('shows cy', selectedOf('"2"', 10, ['cy']), 0, since);
  m.record('search', selectedOf('"3"', 10, 'all'), 0, since);
  assert.is(m.lookup('shows bob', 0), undefined);
  assert.ok(m.lookup('shows cy', 0));
  assert.is(m.lookup('search', 0), undefined);
  // No entry outlives the next boundary (here 5000 ms).
  assert.ok(m.lookup('shows cy', 4999));
  assert.is(m.lookup('shows cy', 5000), undefined);
  m.forget('all');
  assert.is(m.stats.size, 0);
});

memo('should note no change item by item while it keeps nothing, and still keep out what was being computed', () => {
  const m = new AnswerMemo(1_000_000);
  const since = m.epoch;
  for (let i = 0; i < 1000; i++) m.forget([`player/new-${i}`]); // writes alone: nothing kept to make stale
  assert.is(m.stats.bytes, 0, 'no note kept per item');
  m.record('shows cy', selectedOf('"2"', 10, ['cy']), 0, since);
  assert.is(m.lookup('shows cy', 0), undefined, 'computed while a change was told: not kept');
  m.record('shows cy', selectedOf('"2"', 10, ['cy']), 0, m.epoch);
  assert.ok(m.lookup('shows cy', 0), 'computed after: kept');
  m.forget(['player/bob']);
  assert.ok(m.lookup('shows cy', 0), 'once something is kept, changes are told apart by item again');
});

memo("should keep nothing after 'unknown' (the store cannot tell changes) until the next 'all'", () => {
  const m = new AnswerMemo(1_000_000);
  m.record('a', selectedOf('"1"', 10, ['alice']), 0, m.epoch);
  m.forget('unknown');
  assert.is(m.lookup('a', 0), undefined);
  m.record('a', selectedOf('"1"', 10, ['alice']), 0, m.epoch);
  m.forget(['bob']);
  m.record('a', selectedOf('"1"', 10, ['alice']), 0, m.epoch);
  assert.is(m.lookup('a', 0), undefined, 'a notice naming players does not end it');
  m.forget('all');
  m.record('a', selectedOf('"1"', 10, ['alice']), 0, m.epoch);
  assert.ok(m.lookup('a', 0));
});

memo('should keep one answer in 64 while the kept ones are dropped unused, and all again once they answer two lookups each on average', () => {
  const m = new AnswerMemo(64 * 1024 * 1024);
  // Every answer goes stale by a change of the player it shows before anyone reads it again (the next
  // read finds it stale and drops it).
  for (let i = 0; i < 256; i++) {
    m.record(`k${i}`, selectedOf(`"${i}"`, 10, [`p${i}`]), 0, m.epoch);
    m.forget([`p${i}`]);
    assert.is(m.lookup(`k${i}`, 0), undefined);
  }
  assert.is(m.stats.stride, 64);
  for (let i = 0; i < 128; i++) m.record(`s${i}`, selectedOf(`"s${i}"`, 10, ['q']), 0, m.epoch);
  assert.is(m.stats.size, 2, 'one in 64 kept');
  // Kept answers read twice on average before they are dropped make keeping pay again.
  for (let i = 0; i < 64 * 512 && m.stats.stride > 1; i++) {
    m.record(`u${i}`, selectedOf(`"u${i}"`, 10, [`r${i}`]), 0, m.epoch);
    m.lookup(`u${i}`, 0);
    m.lookup(`u${i}`, 0);
    m.forget([`r${i}`]);
    m.lookup(`u${i}`, 0);
  }
  assert.is(m.stats.stride, 1);
});

memo('should keep each kind of answer by its own use: pages dropped unused go sparse while players still read go on being kept', () => {
  const m = new AnswerMemo(64 * 1024 * 1024);
  // Under writes: every page goes stale before it is asked again, every player's answer is asked again first.
  for (let i = 0; i < 256; i++) {
    m.record(`page${i}`, selectedOf(`"p${i}"`, 10, [`o${i}`, `f${i}`]), 0, m.epoch, '/player/{id}/friends');
    m.record(`player${i}`, selectedOf(`"q${i}"`, 10, [`o${i}`]), 0, m.epoch, '/player/{id}');
    assert.ok(m.lookup(`player${i}`, 0));
    assert.ok(m.lookup(`player${i}`, 0));
    m.forget([`o${i}`]);
    assert.is(m.lookup(`page${i}`, 0), undefined);
    assert.is(m.lookup(`player${i}`, 0), undefined);
  }
  assert.is(m.strideOf('/player/{id}/friends'), 64);
  assert.is(m.strideOf('/player/{id}'), 1);
  const before = m.stats.size;
  for (let i = 0; i < 128; i++) m.record(`next-page${i}`, selectedOf(`"n${i}"`, 10, ['z']), 0, m.epoch, '/player/{id}/friends');
  for (let i = 0; i < 128; i++) m.record(`next-player${i}`, selectedOf(`"m${i}"`, 10, ['z']), 0, m.epoch, '/player/{id}');
  assert.is(m.stats.size - before, 2 + 128, 'one page in 64 kept, every player');
});

memo('should keep a kind sparsely when its answers answer one lookup each before they change: keeping costs about what one computed answer does', () => {
  const m = new AnswerMemo(64 * 1024 * 1024);
  for (let i = 0; i < 256; i++) {
    m.record(`k${i}`, selectedOf(`"${i}"`, 10, [`p${i}`]), 0, m.epoch, '/player/{id}');
    assert.ok(m.lookup(`k${i}`, 0));
    m.forget([`p${i}`]);
    assert.is(m.lookup(`k${i}`, 0), undefined);
  }
  assert.is(m.strideOf('/player/{id}'), 64);
});

memo('should judge the service\'s kinds by route: friend pages made stale before every second read go sparse, player answers stay kept', async () => {
  const { service, call } = await demoService(authorized);
  const m = service.config.answerMemo!;
  const shown = ((await (await call('/player/alice/friends')).json()) as { playerId: string }[])[0]!.playerId;
  for (let i = 0; i < 256; i++) {
    // The page shows this friend: each change of it retires the page before anyone reads it again.
    assert.is((await call('/player/alice/friends')).status, 200);
    const changed = await call(`/player/${encodeURIComponent(shown)}`, { method: 'PATCH', headers: write, body: JSON.stringify({ alias: `friend-${i}` }) });
    assert.is(changed.status, 200);
  }
  assert.is((await call('/player/alice/friends')).status, 200);
  assert.is(m.strideOf('/player/{id}/friends'), 64);
  assert.is(m.strideOf('/player/{id}'), 1);
});

memo('should keep its own copy of a selected representation, equal to it and sharing its body', () => {
  const m = new AnswerMemo(1024 * 1024);
  const selected = selectedOf('"1"', 10, ['alice']);
  m.record('a', selected, 0, m.epoch);
  const kept = m.lookup('a', 0)!;
  assert.is.not(kept, selected);
  assert.is.not(kept.fields, selected.fields);
  assert.equal(kept.validators, selected.validators);
  assert.equal(kept.dependsOn, selected.dependsOn);
  assert.is(kept.ok!.body, selected.ok!.body);
  assert.is(kept.ok!.size, selected.ok!.size);
});

memo.run();
