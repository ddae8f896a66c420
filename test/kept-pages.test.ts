import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AnswerMemo } from '../src/core/caches/answer-memo.js';
import type { StoredItem } from '../src/stores/contract.js';
import { setup } from './support/fresh-records-store.js';

// A store whose reads cost a round trip (PostgreSQL) need not be asked for a page of a list again while
// its owner and members are unchanged: the answer memo keeps the page's membership beside the records,
// and the same page in another format is made from them. docs/decisions.md, "Kept answers and records".
const pages = suite('kept pages: a page read again in another format needs no read of the list');

const HAL = 'application/hal+json';
const JSON_API = 'application/vnd.api+json';
const SIREN = 'application/vnd.siren+json';

type Body = { _embedded?: { player: { alternateName: string }[] }; data?: { attributes: { alternateName: string } }[]; entities?: { properties: { alternateName: string } }[] };

async function friendsSetup() {
  const s = await setup();
  await s.inner.createFriend('alice', { playerId: 'bob', alias: 'bobby' });
  await s.inner.createFriend('alice', { playerId: 'carol', alias: 'c' });
  const aliases = async (accept: string, path = '/player/alice/friends') => {
    const res = await s.call(path, { headers: { Accept: accept } });
    assert.is(res.status, 200, `${accept} ${path}`);
    const page = (await res.json()) as Body;
    if (page._embedded) return page._embedded.player.map((p) => p.alternateName);
    if (page.entities) return page.entities.map((p) => p.properties.alternateName);
    return page.data!.map((p) => p.attributes.alternateName);
  };
  return { ...s, aliases };
}

pages('should answer the same page in another format from the kept records, with no read', async () => {
  const { aliases, lists, reads } = await friendsSetup();
  assert.equal(await aliases(HAL), ['bobby', 'c']);
  assert.is(lists(), 1);
  assert.equal(await aliases(JSON_API), ['bobby', 'c']);
  assert.equal(await aliases(SIREN), ['bobby', 'c']);
  assert.is(lists(), 1, 'the list was read once');
  assert.is(reads(), 0, 'and no item either');
});

pages('should read the list again once its owner changed (a member added), and a member changed', async () => {
  const { aliases, lists, inner } = await friendsSetup();
  assert.equal(await aliases(HAL), ['bobby', 'c']);
  await inner.createFriend('alice', { playerId: 'dave', alias: 'd' });
  assert.equal(await aliases(JSON_API), ['bobby', 'c', 'd'], 'the owner changed: its list is read again');
  assert.is(lists(), 2);
  assert.equal(await aliases(SIREN), ['bobby', 'c', 'd']);
  assert.is(lists(), 2, 'kept again after that read');
  await inner.putPlayer({ playerId: 'carol', alias: 'caroline' });
  assert.equal(await aliases('application/prs.hal-forms+json'), ['bobby', 'caroline', 'd'], 'a member changed: read again');
  assert.is(lists(), 3);
  await inner.removeFriend('alice', 'bob');
  assert.equal(await aliases(HAL), ['caroline', 'd'], 'a member removed');
  assert.is(lists(), 4);
});

pages('should not keep a page whose owner changed while it was read', async () => {
  const { aliases, lists, store, inner } = await friendsSetup();
  const list = store.list;
  // The list is read, then alice changes (another instance adds a friend) before the read returns.
  store.list = async (relation, id, window) => {
    const slice = await list(relation, id, window);
    await inner.createFriend('alice', { playerId: 'erin', alias: 'e' });
    return slice;
  };
  assert.equal(await aliases(HAL), ['bobby', 'c'], 'the page as read');
  store.list = list;
  assert.equal(await aliases(JSON_API), ['bobby', 'c', 'e'], 'not kept: read again, with the friend added meanwhile');
  assert.is(lists(), 2);
});

pages('should keep no page of a search, and each page of a list by its window', async () => {
  const { aliases, lists, inner } = await friendsSetup();
  for (let i = 0; i < 10; i++) await inner.createFriend('alice', { playerId: `f${i}`, alias: `f${i}` });
  assert.equal((await aliases(HAL, '/player/alice/friends?page=2')).length, 2);
  assert.equal((await aliases(HAL)).length, 10);
  assert.is(lists(), 2, 'two windows, two reads');
  assert.equal(await aliases(JSON_API, '/player/alice/friends?page=2'), ['f8', 'f9']);
  assert.is(lists(), 2);
  assert.equal(await aliases(HAL, '/player/alice/friends/search?search=bob'), ['bobby']);
  assert.equal(await aliases(SIREN, '/player/alice/friends/search?search=bob'), ['bobby']);
  assert.is(lists(), 2, 'a search reads no list');
});

pages('should embed the kept first page in an item that includes its list, and keep the one it reads', async () => {
  const { aliases, lists, call, inner } = await friendsSetup();
  type Included = { included?: { attributes: { alternateName: string } }[] };
  const included = async () => {
    const res = await call('/player/alice?include=friends', { headers: { Accept: JSON_API } });
    assert.is(res.status, 200);
    return ((await res.json()) as Included).included!.map((p) => p.attributes.alternateName);
  };
  assert.equal(await included(), ['bobby', 'c']);
  assert.is(lists(), 1, 'the first page read for the item');
  assert.equal(await aliases(HAL), ['bobby', 'c'], 'and kept for the page');
  assert.is(lists(), 1);
  await inner.putPlayer({ playerId: 'bob', alias: 'robert' });
  assert.equal(await aliases(SIREN), ['robert', 'c']);
  assert.is(lists(), 2);
  assert.equal(await included(), ['robert', 'c'], 'the item embeds the page kept since');
  assert.is(lists(), 2);
});

/** The window of the pages these units keep: the first ten friends. */
const FIRST = { relation: 'friends', offset: 0, limit: 10 };

pages('AnswerMemo should keep a page while its owner and members hold, and count it in its budget', () => {
  const memo = new AnswerMemo(1024 * 1024);
  const record = (id: string, revision: string): StoredItem => ({ playerId: id, alias: id, revision, modifiedAt: 0 }) as StoredItem;
  const since = memo.epoch;
  memo.keepRecord('player/alice', record('alice', '1'), since);
  memo.keepRecord('player/bob', record('bob', '2'), since);
  const before = memo.stats.bytes;
  memo.keepPage('player/alice\nfriends\n0\n10', 'player/alice', FIRST, ['player/bob'], 1, since);
  assert.ok(memo.stats.bytes > before, 'counted in the budget');
  const page = memo.keptPage('player/alice\nfriends\n0\n10');
  assert.is(page?.owner.revision, '1');
  assert.equal(page?.items.map((i) => i.revision), ['2']);
  assert.is(page?.total, 1);
  assert.is(memo.keptPage('player/alice\nfriends\n10\n10'), undefined, 'another window');
  memo.forget(['player/bob']);
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, 'a member changed');
  memo.keepRecord('player/bob', record('bob', '3'), memo.epoch);
  assert.equal(memo.keptPage('player/alice\nfriends\n0\n10')?.items.map((i) => i.revision), ['3'], 'the member read again: its new record');
  memo.forget(['player/alice']);
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, 'the owner changed');
  memo.keepRecord('player/alice', record('alice', '4'), memo.epoch);
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, 'the membership went with its owner');
  // Kept after the owner's change was told: not kept.
  const late = memo.epoch;
  memo.forget(['player/alice']);
  memo.keepPage('player/alice\nfriends\n0\n10', 'player/alice', FIRST, ['player/bob'], 1, late);
  memo.keepRecord('player/alice', record('alice', '5'), memo.epoch);
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, 'read before a change told meanwhile');
  // A lease that ran out: nothing kept answers.
  memo.keepPage('player/alice\nfriends\n0\n10', 'player/alice', FIRST, ['player/bob'], 1, memo.epoch);
  assert.ok(memo.keptPage('player/alice\nfriends\n0\n10'));
  memo.forget({ trustUntil: Date.now() - 1 });
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, 'the change feed not known to be live');
  memo.forget({ trustUntil: Infinity });
  memo.keepRecord('player/alice', record('alice', '6'), memo.epoch);
  memo.keepPage('player/alice\nfriends\n0\n10', 'player/alice', FIRST, ['player/bob'], 1, memo.epoch);
  assert.ok(memo.keptPage('player/alice\nfriends\n0\n10'), 'kept again under a live lease');
  memo.forget('unknown');
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, "'unknown': the store can no longer tell");
  memo.forget('all');
  assert.is(memo.keptPage('player/alice\nfriends\n0\n10'), undefined, "'all' forgets every page");
});

pages('AnswerMemo should keep the records a write of this instance hands on, and carry the pages it left as they were', () => {
  const memo = new AnswerMemo(1024 * 1024);
  const record = (id: string, revision: string): StoredItem => ({ playerId: id, alias: id, revision, modifiedAt: 0 }) as StoredItem;
  const window = (offset: number) => ({ relation: 'friends', offset, limit: 10 });
  const key = (offset: number) => `player/alice\nfriends\n${offset}\n10`;
  const members = (from: number) => Array.from({ length: 10 }, (_, i) => `player/f${from + i}`);
  const since = memo.epoch;
  memo.keepRecord('player/alice', record('alice', '1'), since);
  for (let i = 0; i < 25; i++) memo.keepRecord(`player/f${i}`, record(`f${i}`, '2'), since);
  // alice has 25 friends: pages at 0 and 10 are full, the one at 20 reaches the end.
  for (const offset of [0, 10, 20]) memo.keepPage(key(offset), 'player/alice', window(offset), members(offset).slice(0, Math.min(10, 25 - offset)), 25, since);
  // A put of alice (her fields): her record handed on, every page of her list carried.
  memo.forget(['player/alice'], { records: new Map([['player/alice', record('alice', '3')]]), lists: 'unchanged' });
  assert.is(memo.keptRecord('player/alice')?.revision, '3', 'the record the write left');
  assert.is(memo.keptPage(key(0))?.owner.revision, '3', 'the page carried, with the new owner');
  assert.ok(memo.keptPage(key(20)));
  // A member changed by a put: its own record handed on, the pages showing it answer with it.
  memo.forget(['player/f3'], { records: new Map([['player/f3', record('f3', '4')]]), lists: 'unchanged' });
  assert.is(memo.keptPage(key(0))?.items[3]!.revision, '4');
  // An append to her list (a 26th friend): pages before the old end carried with the new total, not the last.
  const appended = { records: new Map([['player/alice', record('alice', '5')], ['player/f25', record('f25', '5')]]), lists: { owner: 'player/alice', relation: 'friends', total: 26 } };
  memo.forget(['player/alice', 'player/f25'], appended);
  assert.is(memo.keptPage(key(0))?.total, 26);
  assert.is(memo.keptPage(key(10))?.total, 26);
  assert.is(memo.keptPage(key(20)), undefined, 'the page that reached the end changed');
  // A write that says nothing of lists (a removal): no page of hers is carried.
  memo.forget(['player/alice'], { records: new Map([['player/alice', record('alice', '6')]]) });
  assert.is(memo.keptRecord('player/alice')?.revision, '6');
  assert.is(memo.keptPage(key(0)), undefined, 'a change of the list not described: read again');
  // A page that no longer held before the write (another change told first) is not carried by it.
  memo.keepPage(key(0), 'player/alice', window(0), members(0), 26, memo.epoch);
  memo.forget(['player/alice']);
  memo.forget(['player/alice'], { records: new Map([['player/alice', record('alice', '7')]]), lists: 'unchanged' });
  assert.is(memo.keptPage(key(0)), undefined, 'stale before the write: not carried');
  // Blind (the feed down): nothing handed on is kept.
  memo.forget('unknown');
  memo.forget(['player/f1'], { records: new Map([['player/f1', record('f1', '8')]]), lists: 'unchanged' });
  assert.is(memo.keptRecord('player/f1'), undefined);
});

pages.run();
