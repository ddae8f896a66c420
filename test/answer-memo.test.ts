import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerService, type PlayerServiceOptions } from '../src/index.js';
import { Answer } from '../src/respond/answer.js';
import { AnswerMemo } from '../src/respond/answer-memo.js';
import { answererOf } from '../src/service/answerer.js';
import { headerPairs, type RequestHead } from '../src/http/request-head.js';
import { answerSelected, type SelectedAnswers } from '../src/respond/selected.js';
import { BASE, demoService } from './support/service.js';

const memo = suite('AnswerMemo: complete GET/HEAD answers while the store is unchanged');
const HAL = 'application/hal+json';

const head = (path: string, fields: string[] = [], method = 'GET'): RequestHead => ({ method, url: BASE + path, headers: headerPairs(fields) });

/** The answer the service keeps for this request now, if any (looked up without answering: no side effect). */
function kept(service: PlayerService, h: RequestHead): Answer | undefined {
  const memo = service.config.answerMemo!;
  const stamp = service.config.store.changeStamp?.();
  const slot = stamp === undefined ? undefined : memo.slotFor({ ...h, method: h.method.toUpperCase() }, stamp, Date.now());
  const selected = slot && memo.lookup(slot);
  const answer = selected && answerSelected({ method: h.method.toUpperCase(), headers: h.headers }, selected);
  return answer && answer !== 'failed' ? answer : undefined;
}

/** A selected representation with a 200 of `bytes` bytes, for the memo's own tests. */
function selectedOf(etag: string, bytes: number): SelectedAnswers {
  return { validators: { etag }, notModified: new Answer(304, new Map(), null), ok: new Answer(200, new Map(), new Uint8Array(bytes)) };
}

/** Waits until the wall clock is early in a second, so a test's requests share one second. */
async function freshSecond(): Promise<void> {
  const ms = Date.now() % 1000;
  if (ms > 700) await new Promise((r) => setTimeout(r, 1000 - ms + 5));
}

memo('should answer a repeated GET from the kept answer, byte for byte', async () => {
  const { service, call } = await demoService();
  await freshSecond();
  assert.is(kept(service, head('/player/alice', ['Accept', HAL])), undefined);
  const first = await call('/player/alice', { headers: { Accept: HAL } });
  const keptAnswer = kept(service, head('/player/alice', ['accept', HAL]));
  assert.instance(keptAnswer, Answer);
  assert.is(keptAnswer!.status, 200);
  const again = await call('/player/alice', { headers: { Accept: HAL } });
  assert.is(await again.text(), await first.text());
  assert.equal([...again.headers], [...first.headers]);
  // Another format is another answer.
  assert.is(kept(service, head('/player/alice', ['Accept', 'application/vnd.siren+json'])), undefined);
});

memo('should forget kept answers when the store changes, through the service or directly', async () => {
  const { service, store, call } = await demoService({ authenticate: bearerTokens(['t']) });
  await freshSecond();
  await call('/player/bob');
  assert.ok(kept(service, head('/player/bob')));
  const put = await call('/player/bob', {
    method: 'PUT',
    headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
    body: JSON.stringify({ playerId: 'bob', alias: 'bobby-2' }),
  });
  assert.is(put.status, 200);
  assert.is(kept(service, head('/player/bob')), undefined);
  assert.is((await (await call('/player/bob')).json()).alias, 'bobby-2');
  await store.putPlayer({ playerId: 'bob', alias: 'bobby-3' });
  assert.is((await (await call('/player/bob')).json()).alias, 'bobby-3');
  // A friend list change is a change too.
  const friends = (await (await call('/player/alice/friends')).json()) as { playerId: string }[];
  await store.removeFriend('alice', friends[0]!.playerId);
  assert.is(kept(service, head('/player/alice/friends')), undefined);
});

memo('should evaluate each request\'s preconditions against the kept answer', async () => {
  const { service, call } = await demoService();
  await freshSecond();
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
  await freshSecond();
  const get = await call('/player/alice/friends?page=2');
  const body = new Uint8Array(await get.arrayBuffer());
  const headRes = await call('/player/alice/friends?page=2', { method: 'HEAD' });
  assert.is(headRes.status, 200);
  assert.is(headRes.headers.get('content-length'), String(body.byteLength));
  assert.is(headRes.headers.get('etag'), get.headers.get('etag'));
  assert.is((await headRes.arrayBuffer()).byteLength, 0);
});

memo('should not keep answers to requests with Authorization', async () => {
  const { service, call } = await demoService({ authenticate: bearerTokens(['t']) });
  const res = await call('/player/alice', { headers: { Authorization: 'Bearer t' } });
  assert.is(res.status, 200);
  assert.is(kept(service, head('/player/alice', ['Authorization', 'Bearer t'])), undefined);
  const bad = await call('/player/alice', { headers: { Authorization: 'Bearer wrong' } });
  assert.is(bad.status, 401);
});

memo('should keep the version chosen by Api-Version apart', async () => {
  const { service, call } = await demoService({ versions: [{ major: 1, minor: 0 }, { major: 2, minor: 0 }] });
  await freshSecond();
  await call('/player/alice', { headers: { 'Api-Version': '1' } });
  await call('/player/alice', { headers: { 'Api-Version': '2' } });
  const v1 = kept(service, head('/player/alice', ['Api-Version', '1']));
  const v2 = kept(service, head('/player/alice', ['Api-Version', '2']));
  assert.ok(v1 && v2);
  assert.is.not(v1!.fields.get('etag'), v2!.fields.get('etag'));
});

memo('should not keep an answer past its second (Date, Expires)', async () => {
  const { service, call } = await demoService();
  await call('/player/alice');
  const date = (await call('/player/alice')).headers.get('date');
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
  assert.is(kept(service, head('/player/alice')), undefined);
  assert.is.not((await call('/player/alice')).headers.get('date'), date);
});

memo('should stay off where it would not be exact', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const off = (options: Partial<PlayerServiceOptions>) => createPlayerService({ baseUrl: BASE, store, ...options }).config.answerMemo;
  assert.ok(off({}));
  assert.is(off({ memoizeAnswers: false }), undefined);
  assert.is(off({ bodyCacheBytes: 0 }), undefined);
  assert.is(off({ now: () => 0 }), undefined);
  assert.is(off({ trustProxy: true }), undefined);
  // A memory store whose reads are overridden, and a store without changeStamp (as a database's).
  class Wrapped extends MemoryPlayerStore {
    override async getPlayer(id: string) {
      return super.getPlayer(id);
    }
  }
  assert.is(new Wrapped().changeStamp(), undefined);
  assert.is(typeof store.changeStamp(), 'number');
  const methods = ['getPlayer', 'listFriends', 'searchFriends', 'putPlayer', 'deletePlayer', 'createFriend', 'addFriend', 'removeFriend', 'getAvatar', 'putAvatar'];
  const database = Object.fromEntries(methods.map((m) => [m, (store as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!.bind(store)]));
  assert.is(off({ store: database as unknown as MemoryPlayerStore }), undefined);
});

memo('should stop keeping answers as soon as a read of the store is replaced on the instance', async () => {
  const { store, call } = await demoService();
  await freshSecond();
  assert.is((await call('/player/alice')).status, 200);
  (store as unknown as { getPlayer: () => Promise<undefined> }).getPlayer = async () => undefined;
  assert.is(store.changeStamp(), undefined);
  assert.is((await call('/player/alice')).status, 404);
});

memo('should answer normally when the store cannot tell its stamp', async () => {
  const { store, call } = await demoService();
  (store as unknown as { changeStamp: () => number }).changeStamp = () => {
    throw new Error('no stamp today');
  };
  assert.is((await call('/player/alice')).status, 200);
  assert.is((await call('/player/alice')).status, 200);
});

memo('should not outlive a version\'s sunset within its second', async () => {
  // Early in a second; the sunset half a second later, in the same second.
  if (Date.now() % 1000 > 150) await new Promise((r) => setTimeout(r, 1005 - (Date.now() % 1000)));
  const sunsetAt = Math.floor(Date.now() / 1000) * 1000 + 500;
  const { service, call } = await demoService({
    versions: [{ major: 1, minor: 0, status: 'deprecated', deprecatedAt: sunsetAt - 86_400_000, sunsetAt }, { major: 2, minor: 0 }],
  });
  assert.is((await call('/api/v1/player/alice')).status, 200);
  assert.is((await call('/api/v1/player/alice')).status, 200);
  assert.is(kept(service, head('/api/v1/player/alice')), undefined, 'nothing kept in the sunset second');
  await new Promise((r) => setTimeout(r, Math.max(0, sunsetAt + 20 - Date.now())));
  assert.is((await call('/api/v1/player/alice')).status, 308);
});

memo('should read the method in any case, as Fetch normalizes it', async () => {
  const { service, call } = await demoService();
  await freshSecond();
  const etag = (await call('/player/alice')).headers.get('etag')!;
  for (const method of ['get', 'Get']) {
    const answer = await answererOf(service)!(head('/player/alice', ['If-None-Match', etag], method), () => new Request(BASE + '/player/alice'));
    assert.is(answer.status, 304, method);
  }
  const headReply = kept(service, head('/player/alice', [], 'head'));
  assert.is(headReply?.status, 200);
  assert.is(headReply?.body, null);
});

memo('should bound kept answers by count and by bytes, oldest first', () => {
  const m = new AnswerMemo(2, 1000);
  const slot = (key: string) => ({ key, stamp: 1, second: 5 });
  const h = (url: string): RequestHead => ({ method: 'GET', url, headers: headerPairs([]) });
  m.record(slot('a'), selectedOf('"1"', 100));
  m.record(slot('b'), selectedOf('"2"', 100));
  m.record(slot('c'), selectedOf('"3"', 100));
  assert.is(m.size, 2);
  assert.is(m.lookup(slot('a')), undefined);
  assert.is(m.lookup(slot('c'))?.ok?.status, 200);
  // A body over a quarter of the budget is not kept.
  m.record(slot('d'), selectedOf('"4"', 400));
  assert.is(m.lookup(slot('d')), undefined);
  // Another stamp or another second: nothing holds.
  assert.is(m.lookup({ key: 'c', stamp: 2, second: 5 }), undefined);
  assert.is(m.lookup({ key: 'c', stamp: 1, second: 6 }), undefined);
  // No slot in a second that holds a boundary (a sunset).
  const bounded = new AnswerMemo(2, 1000, [5500]);
  assert.is(bounded.slotFor(h('x'), 1, 5900), undefined);
  assert.ok(bounded.slotFor(h('x'), 1, 6100));
});

memo('should answer a kept GET synchronously through the internal answer step', async () => {
  const { service, call } = await demoService();
  await freshSecond();
  await call('/player/alice');
  const answered = answererOf(service)!(head('/player/alice'), () => {
    throw new Error('a kept answer needs no Request');
  });
  assert.not.instance(answered, Promise);
  assert.is((answered as Answer).status, 200);
});

memo.run();
