// The PlayerStore contract as one uvu suite, run against every store (memory, PostgreSQL) so they behave alike.
import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { StoreError, type PlayerStore } from '../../src/index.js';

/** How a contract run gets its stores: `make` returns an empty store; `skip` names why the run is skipped. */
export interface ContractTarget {
  make: () => Promise<PlayerStore>;
  after?: () => Promise<void>;
  skip?: string;
}

/**
 * The contract suite for one store; the caller ends its file with `.run()`.
 *
 * @example
 * storeContract('MemoryPlayerStore', { make: async () => new MemoryPlayerStore() }).run();
 */
export function storeContract(name: string, target: ContractTarget): Test {
  const store = suite(name);
  const it = target.skip === undefined ? store : store.skip;
  if (target.after) store.after(target.after);
  const empty = target.make;

  async function fresh() {
    const s = await empty();
    await s.putPlayer({ playerId: 'o', alias: 'owner' });
    for (let i = 0; i < 25; i++) await s.createFriend('o', { playerId: `f${i}`, alias: `friend${i}`, displayName: i % 2 ? `Odd ${i}` : undefined });
    return s;
  }
  const ids = async (s: PlayerStore, owner = 'o') => (await s.listFriends(owner, { offset: 0, limit: 100 }))?.items.map((p) => p.playerId);

  it('should page friends in insertion order with the total', async () => {
    const s = await fresh();
    const page = await s.listFriends('o', { offset: 10, limit: 10 });
    assert.is(page?.total, 25);
    assert.equal(page?.items.map((p) => p.playerId), ['f10', 'f11', 'f12', 'f13', 'f14', 'f15', 'f16', 'f17', 'f18', 'f19']);
    const last = await s.listFriends('o', { offset: 20, limit: 10 });
    assert.is(last?.items.length, 5);
    assert.is(await s.listFriends('nobody', { offset: 0, limit: 10 }), undefined);
    const past = await s.listFriends('o', { offset: 30, limit: 10 });
    assert.equal([past?.items.length, past?.total], [0, 25]);
  });

  it('should search alias and display name case-insensitively, paged', async () => {
    const s = await fresh();
    const odd = await s.searchFriends('o', 'ODD', { offset: 0, limit: 5 });
    assert.is(odd?.total, 12);
    assert.equal(odd?.items.map((p) => p.playerId), ['f1', 'f3', 'f5', 'f7', 'f9']);
    const second = await s.searchFriends('o', 'odd', { offset: 10, limit: 5 });
    assert.equal(second?.items.map((p) => p.playerId), ['f21', 'f23']);
    const alias = await s.searchFriends('o', 'friend2', { offset: 0, limit: 10 });
    assert.is(alias?.total, 6); // friend2, friend20..24
    const past = await s.searchFriends('o', 'odd', { offset: 20, limit: 5 });
    assert.equal([past?.items.length, past?.total], [0, 12]);
    assert.is(await s.searchFriends('nobody', 'odd', { offset: 0, limit: 5 }), undefined);
  });

  it('should stop counting search matches at countLimit and say the total is a lower bound', async () => {
    const s = await fresh();
    // 12 of the 25 friends have a display name "Odd n".
    const capped = await s.searchFriends('o', 'odd', { offset: 0, limit: 3, countLimit: 5 });
    assert.equal(capped?.items.map((p) => p.playerId), ['f1', 'f3', 'f5']);
    assert.is(capped?.total, 5);
    assert.is(capped?.totalIsLowerBound, true);
    const exact = await s.searchFriends('o', 'odd', { offset: 9, limit: 3, countLimit: 12 });
    assert.equal(exact?.items.map((p) => p.playerId), ['f19', 'f21', 'f23']);
    assert.is(exact?.total, 12);
    assert.not.ok(exact?.totalIsLowerBound);
    // An offset past int4 is a page past the end, not an error.
    assert.equal((await s.listFriends('o', { offset: 2_147_483_650, limit: 10 }))?.items, []);
    assert.equal((await s.searchFriends('o', 'odd', { offset: 2_147_483_650, limit: 10, countLimit: 2_147_483_661 }))?.items, []);
  });

  it('should match LIKE wildcards and backslashes literally in a search', async () => {
    const s = await empty();
    await s.putPlayer({ playerId: 'o', alias: 'owner' });
    await s.createFriend('o', { playerId: 'p1', alias: '100%_sure' });
    await s.createFriend('o', { playerId: 'p2', alias: '100 sure', displayName: 'back\\slash' });
    await s.createFriend('o', { playerId: 'p3', alias: 'ÉLAN' });
    assert.equal((await s.searchFriends('o', '%', { offset: 0, limit: 10 }))?.items.map((p) => p.playerId), ['p1']);
    assert.equal((await s.searchFriends('o', '%_s', { offset: 0, limit: 10 }))?.items.map((p) => p.playerId), ['p1']);
    assert.equal((await s.searchFriends('o', '0_s', { offset: 0, limit: 10 }))?.items, []);
    assert.equal((await s.searchFriends('o', 'k\\s', { offset: 0, limit: 10 }))?.items.map((p) => p.playerId), ['p2']);
    assert.equal((await s.searchFriends('o', 'élan', { offset: 0, limit: 10 }))?.items.map((p) => p.playerId), ['p3']);
  });

  it('should change the revision on every write and never reuse one', async () => {
    const s = await empty();
    const a = await s.putPlayer({ playerId: 'a', alias: 'a' });
    assert.ok(a.created);
    const b = await s.putPlayer({ playerId: 'a', alias: 'b' });
    assert.not.ok(b.created);
    assert.is.not(a.player.revision, b.player.revision);
    await s.deletePlayer('a');
    const c = await s.putPlayer({ playerId: 'a', alias: 'a' });
    assert.not.ok([a.player.revision, b.player.revision].includes(c.player.revision));
  });

  it('should keep the fields it was given and drop the ones left out', async () => {
    const s = await empty();
    const { player } = await s.putPlayer({ playerId: 'a', alias: 'a', displayName: 'A', image: 'https://img.test/a.png' });
    assert.equal({ ...player, revision: 0, modifiedAt: 0 }, { playerId: 'a', alias: 'a', displayName: 'A', image: 'https://img.test/a.png', revision: 0, modifiedAt: 0 });
    assert.type(player.modifiedAt, 'number');
    await s.putPlayer({ playerId: 'a', alias: 'b' });
    const back = (await s.getPlayer('a'))!;
    assert.equal([back.alias, back.displayName, back.image], ['b', undefined, undefined]);
    assert.not.ok('displayName' in back);
  });

  it('should compare-and-set on the revision', async () => {
    const s = await empty();
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
    await assertCode(() => s.putPlayer({ playerId: 'new', alias: 'n' }, { expect: { exists: true } }), 'revision-mismatch');
    assert.ok((await s.putPlayer({ playerId: 'new', alias: 'n' }, { expect: { exists: false } })).created);
    await assertCode(() => s.deletePlayer('new', { expect: { revision: player.revision } }), 'revision-mismatch');
    assert.ok(await s.getPlayer('new'));
  });

  it('should let exactly one of twenty racing compare-and-set writes win', async () => {
    const s = await empty();
    const { player } = await s.putPlayer({ playerId: 'a', alias: 'a' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => s.putPlayer({ playerId: 'a', alias: `w${i}` }, { expect: { revision: player.revision } })),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    assert.is(won.length, 1);
    for (const r of results) if (r.status === 'rejected') assert.is((r.reason as StoreError).code, 'revision-mismatch');
    assert.is((await s.getPlayer('a'))?.alias, (won[0] as PromiseFulfilledResult<{ player: { alias: string } }>).value.player.alias);
  });

  it('should bump the owner revision when its friend list changes', async () => {
    const s = await fresh();
    const before = (await s.getPlayer('o'))!.revision;
    await s.removeFriend('o', 'f3');
    const after = (await s.getPlayer('o'))!.revision;
    assert.is.not(before, after);
    assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 24);
  });

  it('should keep the list order and pages dense after removals', async () => {
    const s = await fresh();
    const owner = (await s.getPlayer('o'))!;
    assert.is(await s.removeFriend('o', 'nobody'), undefined);
    assert.is((await s.getPlayer('o'))!.revision, owner.revision);
    await assertCode(() => s.removeFriend('o', 'f1', { expect: { revision: 'stale' } }), 'revision-mismatch');
    await assertCode(() => s.removeFriend('zz', 'f1'), 'not-found');
    const removed = await s.removeFriend('o', 'f1', { expect: { revision: owner.revision } });
    assert.is.not(removed?.revision, owner.revision);
    await s.removeFriend('o', 'f10');
    await s.addFriend('o', 'f1');
    const page = await s.listFriends('o', { offset: 8, limit: 4 });
    assert.equal(page?.items.map((p) => p.playerId), ['f9', 'f11', 'f12', 'f13']);
    assert.equal((await s.listFriends('o', { offset: 20, limit: 10 }))?.items.map((p) => p.playerId), ['f22', 'f23', 'f24', 'f1']);
  });

  it('should remove a deleted player from every friend list', async () => {
    const s = await fresh();
    await s.putPlayer({ playerId: 'p', alias: 'p' });
    await s.addFriend('p', 'f0');
    assert.ok(await s.deletePlayer('f0'));
    assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 24);
    assert.is((await s.listFriends('p', { offset: 0, limit: 100 }))?.total, 0);
    assert.not.ok(await s.deletePlayer('f0'));
  });

  it('should close the gap a deleted player leaves in several lists', async () => {
    const s = await fresh();
    await s.putPlayer({ playerId: 'p', alias: 'p' });
    for (const id of ['f4', 'f5', 'f6']) await s.addFriend('p', id);
    const before = (await s.getPlayer('p'))!.revision;
    assert.ok(await s.deletePlayer('f5'));
    assert.equal(await ids(s, 'p'), ['f4', 'f6']);
    assert.equal((await s.listFriends('o', { offset: 4, limit: 3 }))?.items.map((p) => p.playerId), ['f4', 'f6', 'f7']);
    assert.is.not((await s.getPlayer('p'))!.revision, before);
    await s.putPlayer({ playerId: 'f5', alias: 'again' });
    assert.not.ok((await ids(s))?.includes('f5'));
  });

  it('should refuse a duplicate friend and an unknown owner', async () => {
    const s = await fresh();
    await assertCode(() => s.addFriend('o', 'f1'), 'conflict');
    await assertCode(() => s.addFriend('zz', 'f1'), 'not-found');
    await assertCode(() => s.createFriend('o', { playerId: 'f2', alias: 'x' }), 'conflict');
    await assertCode(() => s.addFriend('o', 'zz'), 'not-found');
    await assertCode(() => s.createFriend('zz', { playerId: 'n', alias: 'x' }), 'not-found');
    assert.is(await s.getPlayer('n'), undefined);
    assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 25);
  });

  it('should compare-and-set friend list changes on the owner revision', async () => {
    const s = await fresh();
    const owner = (await s.getPlayer('o'))!;
    const added = await s.createFriend('o', { playerId: 'n1', alias: 'n' }, { expect: { revision: owner.revision } });
    assert.is.not(added.owner.revision, owner.revision);
    assert.is((await s.getPlayer('o'))!.revision, added.owner.revision);
    await assertCode(() => s.createFriend('o', { playerId: 'n2', alias: 'n' }, { expect: { revision: owner.revision } }), 'revision-mismatch');
    await assertCode(() => s.addFriend('o', 'n1', { expect: { exists: false } }), 'revision-mismatch');
    assert.is(await s.getPlayer('n2'), undefined);
    assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 26);
  });

  it('should add or remove several friends in one step, skipping those already so, and write nothing when one is missing', async () => {
    const s = await fresh();
    if (!s.changeFriends) return;
    for (const id of ['a1', 'a2', 'a3']) await s.putPlayer({ playerId: id, alias: id });
    const before = (await s.getPlayer('o'))!;
    const added = await s.changeFriends('o', { add: ['a1', 'f3', 'a2', 'a1'] }, { expect: { revision: before.revision } });
    assert.equal(added.changed, ['a1', 'a2'], 'f3 was listed already; a repeat counts once');
    assert.is.not(added.owner.revision, before.revision);
    assert.equal((await ids(s))!.slice(-2), ['a1', 'a2'], 'appended in the order given');
    await assertCode(() => s.changeFriends!('o', { add: ['a3', 'zz', 'yy'] }), 'not-found');
    assert.is((await s.listFriends('o', { offset: 0, limit: 1 }))?.total, 27, 'nothing added when one is missing');
    await assertCode(() => s.changeFriends!('o', { remove: ['a1'] }, { expect: { revision: before.revision } }), 'revision-mismatch');
    const removed = await s.changeFriends('o', { remove: ['f0', 'a1', 'not-listed'] });
    assert.equal(removed.changed, ['f0', 'a1']);
    assert.is((await s.listFriends('o', { offset: 0, limit: 1 }))?.total, 25);
    const none = await s.changeFriends('o', { remove: ['not-listed'] });
    assert.equal(none.changed, []);
    assert.is(none.owner.revision, removed.owner.revision, 'nothing changed: no new revision');
    await assertCode(() => s.changeFriends!('zz', { add: ['a1'] }), 'not-found');
  });

  it('should replay an idempotent friend creation and reject a reused key', async () => {
    const s = await fresh();
    const first = await s.createFriend('o', { playerId: 'n1', alias: 'new' }, { idempotencyKey: 'k', fingerprint: 'x' });
    const again = await s.createFriend('o', { playerId: 'n2', alias: 'new' }, { idempotencyKey: 'k', fingerprint: 'x' });
    assert.ok(again.replayed);
    assert.is(again.friend.playerId, first.friend.playerId);
    assert.is(await s.getPlayer('n2'), undefined);
    assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 26);
    await assertCode(() => s.createFriend('o', { playerId: 'n3', alias: 'other' }, { idempotencyKey: 'k', fingerprint: 'y' }), 'idempotency-mismatch');
  });

  it('should add once when retries with one idempotency key race', async () => {
    const s = await fresh();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => s.createFriend('o', { playerId: `r${i}`, alias: 'retry' }, { idempotencyKey: 'race', fingerprint: 'same' })),
    );
    assert.is(results.filter((r) => !r.replayed).length, 1);
    assert.is(new Set(results.map((r) => r.friend.playerId)).size, 1);
    assert.is((await s.listFriends('o', { offset: 0, limit: 100 }))?.total, 26);
    const replayAdd = await s.addFriend('o', 'f0', { idempotencyKey: 'race', fingerprint: 'same' });
    assert.ok(replayAdd.replayed);
  });

  it('should keep avatars with their own revisions', async () => {
    const s = await fresh();
    const bytes = new Uint8Array([1, 2, 3]);
    const a = await s.putAvatar('o', bytes, 'image/png');
    bytes[0] = 9;
    assert.equal([...(await s.getAvatar('o'))!.bytes], [1, 2, 3]);
    await assertCode(() => s.putAvatar('o', bytes, 'image/png', { expect: { revision: 'nope' } }), 'revision-mismatch');
    await s.putAvatar('o', bytes, 'image/png', { expect: { revision: a.revision } });
    await assertCode(() => s.putAvatar('zz', bytes, 'image/png'), 'not-found');
    await assertCode(() => s.putAvatar('o', bytes, 'image/png', { expect: { exists: false } }), 'revision-mismatch');
    await assertCode(() => s.putAvatar('f1', bytes, 'image/png', { expect: { exists: true } }), 'revision-mismatch');
    assert.is(await s.getAvatar('f1'), undefined);
    const b = await s.putAvatar('f1', bytes, 'image/png', { expect: { exists: false } });
    assert.equal([b.contentType, [...b.bytes]], ['image/png', [9, 2, 3]]);
    await s.deletePlayer('f1');
    assert.is(await s.getAvatar('f1'), undefined);
  });

  return store;
}

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
