// MemoWatch: the answer memo lets go of the store's change notices while nobody asks it, and watches
// again at the next use, keeping nothing it cannot vouch for in between.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens } from '../src/index.js';
import { AnswerMemo } from '../src/core/caches/answer-memo.js';
import { MemoWatch, SLEEP_AFTER_NOTICES } from '../src/core/caches/memo-watch.js';
import type { ChangeListener, Store } from '../src/stores/contract.js';
import { demoService } from './support/service.js';

const watch = suite('MemoWatch: the memo lets go of change notices nobody uses');
const write = { Authorization: 'Bearer t', 'Content-Type': 'application/merge-patch+json' };
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A store that only watches, telling what a change feed tells: 'unknown' as a listener is added while it does not listen yet. */
function feedLike(sayUnknown: boolean) {
  const listeners = new Set<ChangeListener>();
  let watches = 0;
  let stops = 0;
  const store = {
    watch(listener: ChangeListener) {
      watches++;
      listeners.add(listener);
      if (sayUnknown) listener('unknown');
      return () => {
        stops++;
        listeners.delete(listener);
      };
    },
  } as unknown as Store;
  const tell = (changed: Parameters<ChangeListener>[0]) => {
    for (const listener of [...listeners]) listener(changed);
  };
  return { store, tell, listening: () => listeners.size, counts: () => ({ watches, stops }) };
}

watch('should let go after as many unused notices in a row, and start over at each use', async () => {
  const memo = new AnswerMemo(1 << 20);
  const feed = feedLike(false);
  const w = MemoWatch.start(memo, feed.store, 3)!;
  assert.ok(w);
  assert.is(w.asleep, false);
  feed.tell(['player/a']);
  feed.tell(['player/b']);
  w.use();
  feed.tell(['player/c']);
  feed.tell(['player/d']);
  await turn();
  assert.is(w.asleep, false, 'a use in between starts the count over');
  // A lease or 'all' is no change: not counted.
  feed.tell({ trustUntil: Date.now() + 1000 });
  await turn();
  assert.is(w.asleep, false);
  feed.tell(['player/e']);
  await turn();
  assert.is(w.asleep, true);
  assert.is(feed.listening(), 0, 'the store is no longer watched');
  assert.is(memo.trusted(Date.now()), false, 'asleep, nothing is vouched for');
  w.use();
  assert.is(w.asleep, false);
  assert.equal(feed.counts(), { watches: 2, stops: 1 });
  assert.is(memo.trusted(Date.now()), true, 'a store that tells at once is trusted again');
});

watch('should stay blind after waking until a store that was not listening says it is', async () => {
  const memo = new AnswerMemo(1 << 20);
  const feed = feedLike(true);
  const w = MemoWatch.start(memo, feed.store, 1)!;
  assert.is(memo.trusted(Date.now()), false, "the store's 'unknown' as the listener was added holds");
  feed.tell('all');
  assert.is(memo.trusted(Date.now()), true);
  feed.tell(['player/a']);
  await turn();
  assert.is(w.asleep, true);
  w.use();
  assert.is(memo.trusted(Date.now()), false, 'woken, the memo waits for the feed');
  feed.tell('all');
  assert.is(memo.trusted(Date.now()), true);
});

watch('should not start for a store that cannot tell its changes', () => {
  const memo = new AnswerMemo(1 << 20);
  assert.is(MemoWatch.start(memo, {} as Store), undefined);
  assert.is(MemoWatch.start(memo, { watch: () => undefined } as unknown as Store), undefined);
  assert.is(memo.trusted(Date.now()), false);
});

watch('should let a service that only writes stop keeping, answer fresh when read again, and keep anew', async () => {
  const { service, store, call } = await demoService({ authenticate: bearerTokens(['t']) });
  const memo = service.config.answerMemo!;
  const w = service.config.memoWatch!;
  await call('/player/alice');
  await call('/player/alice');
  assert.is(memo.stats.hits, 1);
  for (let i = 0; i < SLEEP_AFTER_NOTICES; i++) {
    const res = await call('/player/bob', { method: 'PATCH', headers: write, body: JSON.stringify({ alias: `bob-${i}` }) });
    assert.is(res.status, 200);
  }
  await turn();
  assert.is(w.asleep, true);
  assert.is(memo.stats.size, 0, 'what it kept is gone');
  const ready = await (await call('/readyz')).json();
  assert.is(ready.status, 'pass');
  assert.is(ready.checks['changes:live'], undefined, 'asleep by design: no feed to report on');
  // Changed in the store while nothing was told: the next read shows it.
  const alice = (await store.getPlayer('alice'))!;
  await store.putPlayer({ ...alice, alias: 'alice-renamed' });
  assert.is((await (await call('/player/alice')).json()).alias, 'alice-renamed');
  assert.is(w.asleep, false);
  const hits = memo.stats.hits;
  await call('/player/alice');
  assert.is(memo.stats.hits, hits + 1, 'kept again once awake');
  await call('/player/bob', { method: 'PATCH', headers: write, body: JSON.stringify({ alias: 'bob-last' }) });
  assert.is((await (await call('/player/bob')).json()).alias, 'bob-last');
});

watch.run();
