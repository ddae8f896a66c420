import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, MemoryPlayerStore } from '../src/index.js';
import { AnswerMemo } from '../src/core/caches/answer-memo.js';
import type { StoredPlayer } from '../src/player/player.js';
import { freshRecordsStore, setup } from './support/fresh-records-store.js';

// A store whose reads cost a round trip and make new records (PostgreSQL) gets the players it read kept
// by the answer memo while unchanged: another format of the player, or a write's current state, then
// needs no read. Writes still compare-and-set in the store.
const kept = suite('kept player records: reads a store whose records are new each time need not repeat');

const BASE = 'https://api.test';
const HAL = 'application/hal+json';
const AUTH = { Authorization: 'Bearer t' };

kept('AnswerMemo should keep a record until its player changes, and not one read before a change it was told of', () => {
  const memo = new AnswerMemo(1024 * 1024);
  const alice: StoredPlayer = { playerId: 'alice', alias: 'a', revision: '1', modifiedAt: 0 };
  const handed = memo.keepRecord('player/alice', alice, memo.epoch);
  assert.equal(memo.keptRecord('player/alice'), alice);
  assert.is.not(memo.keptRecord('player/alice'), alice, 'a copy of its own');
  const first = memo.keptRecord('player/alice');
  assert.is(handed, first, 'the reader is handed the copy kept');
  assert.is(memo.keepRecord('player/alice', { ...alice }, memo.epoch), first, 'the same revision read again: the same object handed out');
  assert.is(memo.keptRecord('player/alice'), first, 'the same revision read again: the copy kept stays, not copied again');
  const newer: StoredPlayer = { ...alice, alias: 'b', revision: '2' };
  const newerHanded = memo.keepRecord('player/alice', newer, memo.epoch);
  assert.equal(memo.keptRecord('player/alice'), newer, 'another revision (its notice not heard yet) replaces it');
  assert.is(newerHanded, memo.keptRecord('player/alice'));
  memo.forget(['player/bob']);
  assert.ok(memo.keptRecord('player/alice'), 'another player changed');
  memo.forget(['team/alice']);
  assert.ok(memo.keptRecord('player/alice'), 'an item of another type with the same id changed');
  memo.forget(['player/alice']);
  assert.is(memo.keptRecord('player/alice'), undefined);
  const since = memo.epoch;
  memo.forget(['player/alice']); // told while the read was under way
  assert.is(memo.keepRecord('player/alice', alice, since), alice, 'read before a change it was told of: handed back as read');
  assert.is(memo.keptRecord('player/alice'), undefined, 'read before a change it was told of: not kept');
  memo.keepRecord('player/alice', alice, memo.epoch);
  memo.forget('unknown');
  assert.is(memo.keptRecord('player/alice'), undefined, 'a store that cannot tell: nothing kept');
  memo.keepRecord('player/alice', alice, memo.epoch);
  assert.is(memo.keptRecord('player/alice'), undefined, 'nor kept until it can tell again');
});

kept('should read a player once for its formats, and again after it changes', async () => {
  const { call, reads, patch } = await setup();
  const json = await call('/player/alice', { headers: { Accept: 'application/json' } });
  assert.is(json.status, 200);
  assert.is(reads(), 1);
  const hal = await call('/player/alice', { headers: { Accept: HAL } });
  assert.is(hal.status, 200);
  assert.is(((await hal.json()) as { alternateName: string }).alternateName, 'ali');
  assert.is(reads(), 1, 'HAL from the kept record: no second read');
  const patched = await patch(json.headers.get('etag')!, [{ op: 'replace', path: '/alias', value: 'alia' }]);
  assert.is(patched.status, 200);
  assert.is(reads(), 1, 'the PATCH started from the kept record');
  const after = await call('/player/alice', { headers: { Accept: HAL } });
  assert.is(((await after.json()) as { alternateName: string }).alternateName, 'alia');
  assert.is(reads(), 2, 'changed: read again');
});

kept('should keep the players a page shows and its owner, for the reads of them that follow', async () => {
  const { call, inner, reads } = await setup();
  await inner.createFriend('alice', { playerId: 'bob', alias: 'bobby' });
  await inner.createFriend('alice', { playerId: 'carol', alias: 'c' });
  assert.is((await call('/player/alice/friends', { headers: { Accept: HAL } })).status, 200);
  for (const id of ['bob', 'carol', 'alice']) {
    const player = await call(`/player/${id}`, { headers: { Accept: 'application/json' } });
    assert.is(player.status, 200);
    assert.is(((await player.json()) as { playerId: string }).playerId, id);
  }
  assert.is(reads(), 0, 'every player came from the page');
  await inner.putPlayer({ playerId: 'bob', alias: 'robert' });
  const bob = await call('/player/bob', { headers: { Accept: HAL } });
  assert.is(((await bob.json()) as { alternateName: string }).alternateName, 'robert');
  assert.is(reads(), 1);
});

kept('should show in a page a member changed since its record was kept, its notice heard or not', async () => {
  const { call, inner, hold, release } = await setup();
  await inner.createFriend('alice', { playerId: 'bob', alias: 'bobby' });
  type Body = { _embedded?: { player: { alternateName: string }[] }; data?: { attributes: { alternateName: string } }[]; entities?: { properties: { alternateName: string } }[] };
  const aliases = async (accept: string) => {
    const page = (await (await call('/player/alice/friends', { headers: { Accept: accept } })).json()) as Body;
    if (page._embedded) return page._embedded.player.map((p) => p.alternateName);
    if (page.entities) return page.entities.map((p) => p.properties.alternateName);
    return page.data!.map((p) => p.attributes.alternateName);
  };
  assert.equal(await aliases(HAL), ['bobby']);
  assert.equal(await aliases(HAL), ['bobby'], 'read again: the records kept, their documents reused');
  assert.equal(await aliases('application/vnd.api+json'), ['bobby']);
  hold();
  await inner.putPlayer({ playerId: 'bob', alias: 'robert' });
  // No notice yet: the page in another format comes from the records kept, as the kept answers do.
  assert.equal(await aliases('application/vnd.siren+json'), ['bobby']);
  // A search reads the store (it is never kept): bob's new revision replaces the record kept, and the
  // list's page shows it from then on, the notice heard or not.
  const found = (await (await call('/player/alice/friends/search?search=rob', { headers: { Accept: HAL } })).json()) as Body;
  assert.equal(found._embedded!.player.map((p) => p.alternateName), ['robert']);
  assert.equal(await aliases('application/prs.hal-forms+json'), ['robert']);
  release();
  assert.equal(await aliases(HAL), ['robert'], 'the notice heard: the page is computed again from the new record');
  assert.equal(await aliases('application/vnd.api+json'), ['robert']);
});

kept('should let the store decide when a kept record is older than a change not yet heard of', async () => {
  const { call, inner, hold, release, patch } = await setup();
  const first = await call('/player/alice', { headers: { Accept: 'application/json' } });
  const oldTag = first.headers.get('etag')!;
  // Another instance changes alice; its notice is still on the way.
  hold();
  await inner.putPlayer({ playerId: 'alice', alias: 'elsewhere' });
  const current = await call('/player/alice', { headers: { Accept: HAL } }); // from the kept record: stale for a moment
  assert.is(current.status, 200);
  const newTag = (await inner.getPlayer('alice'))!.revision;
  // The ETag the client read before that change fails, whatever was kept: nothing is written.
  const old = await patch(oldTag, [{ op: 'replace', path: '/alias', value: 'lost' }]);
  assert.is(old.status, 412, 'an ETag older than the store is refused');
  assert.is((await inner.getPlayer('alice'))!.alias, 'elsewhere');
  // The client's ETag is the new one: the kept record fails it, the store is read, the write goes through.
  const fresh = await patch(`"${newTag}-x"`, [{ op: 'replace', path: '/alias', value: 'newer' }]);
  assert.is(fresh.status, 200, 'the kept record does not make a current ETag fail');
  assert.is((await inner.getPlayer('alice'))!.alias, 'newer');
  release();
  // The kept record and the client's ETag agree, but the store moved on: the compare-and-set says 412.
  hold();
  await call('/player/alice', { headers: { Accept: HAL } }); // read and kept
  const keptRevision = (await inner.getPlayer('alice'))!.revision;
  await inner.putPlayer({ playerId: 'alice', alias: 'again' });
  const stale = await patch(`"${keptRevision}-x"`, [{ op: 'replace', path: '/alias', value: 'lost' }]);
  assert.is(stale.status, 412);
  assert.is((await inner.getPlayer('alice'))!.alias, 'again', 'nothing lost');
  release();
  // A patch that changes nothing writes nothing, so no compare-and-set would check a kept record: the
  // store is read first.
  hold();
  await call('/player/alice', { headers: { Accept: 'application/json' } });
  const seen = (await inner.getPlayer('alice'))!;
  await inner.putPlayer({ playerId: 'alice', alias: 'once more' });
  const noop = await patch(`"${seen.revision}-x"`, [{ op: 'test', path: '/alias', value: seen.alias }]);
  assert.is(noop.status, 412, 'the player changed since that ETag');
  release();
  assert.is((await inner.getPlayer('alice'))!.alias, 'once more');
});

kept('should start a write that follows a write from the record it left, and lose nothing when another instance wrote between', async () => {
  const { call, inner, reads } = await setup();
  const write = (ops: unknown[]) =>
    call('/player/alice', { method: 'PATCH', headers: { ...AUTH, 'Content-Type': 'application/json-patch+json' }, body: JSON.stringify(ops) });
  assert.is((await write([{ op: 'replace', path: '/alias', value: 'one' }])).status, 200);
  assert.is(reads(), 1, 'the first write reads the player');
  // Its own change notice drops the kept records; the record the write left still starts the next one.
  assert.is((await write([{ op: 'replace', path: '/alias', value: 'two' }])).status, 200);
  assert.is(reads(), 1, 'the second write started from the record the first left');
  const put = await call('/player/alice', { method: 'PUT', headers: { ...AUTH, 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ alias: 'three' }) });
  assert.is(put.status, 200);
  assert.is(reads(), 1, 'a PUT too');
  // Another instance changes alice: the guess is stale, the store's compare-and-set refutes it, the
  // write reads and applies the patch to the current record.
  await inner.putPlayer({ playerId: 'alice', alias: 'three', displayName: 'From elsewhere' });
  const after = await write([{ op: 'replace', path: '/alias', value: 'four' }]);
  assert.is(after.status, 200);
  assert.is(reads(), 2, 'read once the guess failed');
  const stored = (await inner.getPlayer('alice'))!;
  assert.is(stored.alias, 'four');
  assert.is(stored.displayName, 'From elsewhere', 'the other instance\'s change is kept');
  // A conditional write whose ETag names the record the write left, when another instance wrote since: 412.
  const tag = after.headers.get('etag')!;
  await inner.putPlayer({ playerId: 'alice', alias: 'elsewhere again' });
  const stale = await call('/player/alice', { method: 'PATCH', headers: { ...AUTH, 'Content-Type': 'application/json-patch+json', 'If-Match': tag }, body: JSON.stringify([{ op: 'replace', path: '/alias', value: 'lost' }]) });
  assert.is(stale.status, 412);
  assert.is((await inner.getPlayer('alice'))!.alias, 'elsewhere again', 'nothing lost');
});

kept('should keep nothing for a store that shares its records, nor with the memo off', async () => {
  const memory = new MemoryPlayerStore();
  await memory.putPlayer({ playerId: 'alice', alias: 'ali' });
  const shared = createPlayerService({ baseUrl: BASE, store: memory });
  await shared.fetch(new Request(`${BASE}/player/alice`));
  assert.is(shared.config.answerMemo!.keptRecord('player/alice'), undefined, 'the memory store: its reads cost nothing');
  const fresh = freshRecordsStore();
  await fresh.inner.putPlayer({ playerId: 'alice', alias: 'ali' });
  const off = createPlayerService({ baseUrl: BASE, store: fresh.store, memoizeAnswers: false });
  await off.fetch(new Request(`${BASE}/player/alice`, { headers: { Accept: 'application/json' } }));
  await off.fetch(new Request(`${BASE}/player/alice`, { headers: { Accept: HAL } }));
  assert.is(fresh.reads(), 2);
});

kept.run();
