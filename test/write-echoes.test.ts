import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WriteEchoes } from '../src/stores/postgres/write-echoes.js';
import type { StoredItem } from '../src/stores/contract.js';

// Which notices of the PostgreSQL change feed are the echo of this instance's own writes, and which
// records a write left are still current when it is told. docs/decisions.md, "PostgreSQL".
const echoes = suite('WriteEchoes: the echo of a write of this instance, and the records it hands on');

const record = (revision: string): StoredItem => ({ playerId: 'alice', alias: 'a', revision, modifiedAt: 0 }) as StoredItem;
const alice = (revision: string) => new Map([['player/alice', record(revision)]]);

echoes('should not tell the echo that comes after the write was told, and tell any other revision', () => {
  const e = new WriteEchoes();
  const ticket = e.begin(['player/alice']);
  const { current, release } = e.end(ticket, alice('7'));
  assert.is(current?.get('player/alice')?.revision, '7', 'nothing heard meanwhile: current');
  assert.equal(release, []);
  assert.is(e.heard('player/alice', '7'), 'echo');
  assert.is(e.heard('player/alice', '7'), 'tell', 'an echo is awaited once');
  assert.is(e.heard('player/alice', '9'), 'tell', 'another revision: another writer');
  assert.is(e.heard('player/alice', ''), 'tell', 'a deletion or a media change names no revision');
});

echoes('should hold the echo that comes before the write returns, and drop it when the write ends', () => {
  const e = new WriteEchoes();
  const ticket = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '7'), 'hold');
  assert.ok(e.holding, 'the lease waits');
  assert.is(e.heard('player/bob', '8'), 'tell', 'an item no write is writing is told at once');
  const { current, release } = e.end(ticket, alice('7'));
  assert.is(current?.get('player/alice')?.revision, '7', 'the held notice was its own echo: still current');
  assert.equal(release, [], 'the echo is not told');
  assert.not.ok(e.holding);
});

echoes('should tell a later change held during the write after it, and hand nothing of that item on', () => {
  const e = new WriteEchoes();
  const ticket = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '7'), 'hold');
  assert.is(e.heard('player/alice', '8'), 'hold', "another instance's change, committed after this write");
  const { current, release } = e.end(ticket, alice('7'));
  assert.is(current, undefined, 'a later change was heard: the record is not current');
  assert.equal(release, ['player/alice'], 'told after the write');
});

echoes('should hand nothing on of an item whose notice was told since the write began', () => {
  const e = new WriteEchoes();
  // A write of dee that read alice (as an append reads the member it links): alice is not held for it.
  const listing = e.begin(['player/dee']);
  assert.is(e.heard('player/alice', '6'), 'tell');
  assert.is(e.end(listing, alice('5')).current, undefined, 'heard since it began: not handed on');
  const after = e.begin(['player/dee']);
  assert.is(e.end(after, alice('6')).current?.size, 1, 'nothing heard since this one began');
});

echoes('should release what a failed write held, and hold nothing once cleared', () => {
  const e = new WriteEchoes();
  const failed = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '4'), 'hold');
  assert.equal(e.end(failed).release, ['player/alice'], 'told once the write failed');
  assert.equal(e.end(failed).release, [], 'ended once');
  const cut = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '5'), 'hold');
  e.clear();
  assert.not.ok(e.holding, 'the feed listens anew: what it held goes with everything else');
  assert.is(e.end(cut, alice('6')).current, undefined, 'a write begun before the feed listened anew hands nothing on');
});

echoes('should wait for every write in flight before telling a notice they held', () => {
  const e = new WriteEchoes();
  const first = e.begin(['player/alice']);
  const second = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '7'), 'hold');
  assert.is(e.end(first, alice('7')).current?.size, 1);
  assert.ok(e.holding, 'the second write may still be the one it echoes');
  const { current, release } = e.end(second, alice('8'));
  // Every write's echo is awaited: the held notice was the first write's, so it is not told, and the
  // second write's record is current.
  assert.is(current?.get('player/alice')?.revision, '8');
  assert.equal(release, []);
  assert.is(e.heard('player/alice', '8'), 'echo', "the second write's echo");
});

echoes("should know a write's echo that arrives after a later write of the item ended", () => {
  const e = new WriteEchoes();
  e.end(e.begin(['player/alice']), alice('7'));
  e.end(e.begin(['player/alice']), alice('8'));
  // NOTIFY delivered late, in commit order: both are echoes, neither is told.
  assert.is(e.heard('player/alice', '7'), 'echo');
  assert.is(e.heard('player/alice', '8'), 'echo');
  assert.is(e.heard('player/alice', '9'), 'tell', 'a change of another instance');
  assert.is(e.heard('player/alice', '7'), 'tell', 'an echo is known once');
});

echoes('should let go of a notice held for a slow write, and hand nothing of its item on then', () => {
  const e = new WriteEchoes();
  const slow = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '9'), 'hold');
  assert.equal(e.releaseHeld(Date.now() - 1000), [], 'held for a moment: kept');
  assert.equal(e.releaseHeld(Date.now() + 1), ['player/alice'], 'held too long: told now');
  assert.not.ok(e.holding);
  const { current, release } = e.end(slow, alice('8'));
  assert.is(current, undefined, 'a change was told while it was in flight');
  assert.equal(release, [], 'told once');
  // An echo held too long is still not told.
  const done = e.begin(['player/alice']);
  e.end(done, alice('10'));
  const next = e.begin(['player/alice']);
  assert.is(e.heard('player/alice', '10'), 'echo', 'an awaited echo is known even while another write is in flight');
  assert.is(e.heard('player/alice', '11'), 'hold');
  e.end(next, alice('11'));
  assert.not.ok(e.holding);
});

echoes('should say when the notices held up to a place are all told', () => {
  const e = new WriteEchoes();
  assert.ok(e.settled(e.lastHeld), 'nothing held');
  const first = e.begin(['player/alice']);
  e.heard('player/alice', '1');
  const upTo = e.lastHeld;
  const second = e.begin(['player/bob']);
  e.heard('player/bob', '2');
  assert.not.ok(e.settled(upTo));
  e.end(first, alice('1'));
  assert.ok(e.settled(upTo), 'a later notice still held does not hold back an earlier place');
  assert.not.ok(e.settled(e.lastHeld));
  e.end(second);
  assert.ok(e.settled(e.lastHeld));
});

echoes.run();
