import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryPlayerStore, StoreError } from '../src/index.js';

const store = suite('MemoryPlayerStore');

async function fresh() {
  const s = new MemoryPlayerStore();
  await s.putPlayer({ playerId: 'o', alias: 'owner' });
  for (let i = 0; i < 25; i++) await s.createFriend('o', { playerId: `f${i}`, alias: `friend${i}`, displayName: i % 2 ? `Odd ${i}` : undefined });
  return s;
}

store('should page friends in insertion order with the total', async () => {
  const s = await fresh();
  const page = await s.listFriends('o', { offset: 10, limit: 10 });
  assert.is(page?.total, 25);
  assert.equal(page?.items.map((p) => p.playerId), ['f10', 'f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19']);
  const last = await s.listFriends('o', { offset: 20, limit: 10 });
  assert.is(last?.items.length, 5);
  assert.is(await s.listFriends('nobody', { offset: 0, limit: 10 }), undefined);
});

store('should search alias and display name case-insensitively, paged', async () => {
  const s = await fresh();
  const odd = await s.searchFriends('o', 'ODD', { offset: 0, limit: 5 });
  assert.is(odd?.total, 12);
  assert.equal(odd?.items.map((p) => p.playerId), ['f1', 'f3', 'f5', 'f7', 'f9']);
  const second = await s.searchFriends('o', 'odd', { offset: 10, limit: 5 });
  assert.equal(second?.items.map((p) => p.playerId), ['f21', 'f23']);
  const alias = await s.searchFriends('o', 'friend2', { offset: 0, limit: 10 });
  assert.is(alias?.total, 6); // friend2, friend20..24
});

store('should change the revision on every write and never reuse one', async () => {
  const s = new MemoryPlayerStore();
  const a = await s.putPlayer({ playerId: 'a', alias: 'a' });
  assert.ok(a.created);
  const b = await s.putPlayer({ playerId: 'a', alias: 'b' });
  assert.not.ok(b.created);
  assert.is.not(a.player.revision, b.player.revision);
  await s.deletePlayer('a');
  const c = await s.putPlayer({ playerId: 'a', alias: 'a' });
  assert.not.ok([a.player.revision, b.player.revision].includes(c.player.revision));
});

store('should compare-and-set on the revision', async () => {
  const s = new MemoryPlayerStore();
  const { player } = await s.putPlayer({ playerId: 'a', alias: 'a' });
  await s.putPlayer({ playerId: 'a', alias: 'b' }, { expect: { revision: player.revision } });
  try {
    await s.putPlayer({ playerId: 'a', alias: 'c' }, { expect: { revision: player.revision } });
    assert.unreachable('stale revision accepted');
  } catch (e) {
    assert.instance(e, StoreError);
    assert.is((e as StoreError).code, 'revision-mismatch');
  }
  assert.is((await s.getPlayer('a'))?.alias, 'b');
  try {
    await s.putPlayer({ playerId: 'a', alias: 'd' }, { expect: { exists: false } });
    assert.unreachable();
  } catch (e) {
    assert.is((e as StoreError).code, 'revision-mismatch');
  }
});

store('should bump the owner revision when its friend list changes', async () => {
  const s = await fresh();
  const before = (await s.getPlayer('o'))!.revision;
  await s.removeFriend('o', 'f3');
  const after = (await s.getPlayer('o'))!.revision;
  assert.is.not(before, after);
  assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 24);
});

store('should remove a deleted player from every friend list', async () => {
  const s = await fresh();
  await s.putPlayer({ playerId: 'p', alias: 'p' });
  await s.addFriend('p', 'f0');
  assert.ok(await s.deletePlayer('f0'));
  assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 24);
  assert.is((await s.listFriends('p', { offset: 0, limit: 100 }))?.total, 0);
  assert.not.ok(await s.deletePlayer('f0'));
});

store('should refuse a duplicate friend and an unknown owner', async () => {
  const s = await fresh();
  await assertCode(() => s.addFriend('o', 'f1'), 'conflict');
  await assertCode(() => s.addFriend('zz', 'f1'), 'not-found');
  await assertCode(() => s.createFriend('o', { playerId: 'f2', alias: 'x' }), 'conflict');
});

store('should replay an idempotent friend creation and reject a reused key', async () => {
  const s = await fresh();
  const first = await s.createFriend('o', { playerId: 'n1', alias: 'new' }, { idempotencyKey: 'k', fingerprint: 'x' });
  const again = await s.createFriend('o', { playerId: 'n2', alias: 'new' }, { idempotencyKey: 'k', fingerprint: 'x' });
  assert.ok(again.replayed);
  assert.is(again.friend.playerId, first.friend.playerId);
  assert.is(await s.getPlayer('n2'), undefined);
  assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 26);
  await assertCode(() => s.createFriend('o', { playerId: 'n3', alias: 'other' }, { idempotencyKey: 'k', fingerprint: 'y' }), 'idempotency-mismatch');
});

store('should keep avatars with their own revisions', async () => {
  const s = await fresh();
  const bytes = new Uint8Array([1, 2, 3]);
  const a = await s.putAvatar('o', bytes, 'image/png');
  bytes[0] = 9;
  assert.equal([...(await s.getAvatar('o'))!.bytes], [1, 2, 3]);
  await assertCode(() => s.putAvatar('o', bytes, 'image/png', { expect: { revision: 'nope' } }), 'revision-mismatch');
  await s.putAvatar('o', bytes, 'image/png', { expect: { revision: a.revision } });
  await assertCode(() => s.putAvatar('zz', bytes, 'image/png'), 'not-found');
});

async function assertCode(fn: () => Promise<unknown>, code: string) {
  try {
    await fn();
  } catch (e) {
    assert.instance(e, StoreError);
    assert.is((e as StoreError).code, code);
    return;
  }
  assert.unreachable(`expected StoreError ${code}`);
}

store.run();
