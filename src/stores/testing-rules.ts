// The rules of the store kit (player-hypermedia/store/testing), one async check per rule of the Store
// contract that docs/stores.md explains, on the kit's card type and its deck relation.
import assert from 'node:assert/strict';
import type { Relation, ResourceType } from '../core/model/api.js';
import { StoreError, type Store, type StoredItem as Stored, type WriteOptions } from './contract.js';

/** A record of the kit's card type: its fields by plain name. */
type StoredItem = Stored & { readonly cardId: string; readonly title: string; readonly note?: string };

type Rule = (s: Store) => Promise<void>;

/** The contract's rules by name, each run against a new store. */
export function rules(card: ResourceType, deck: Relation): Record<string, Rule> {
  const put = async (s: Store, data: Record<string, unknown>, options?: WriteOptions) => (await s.put(card, data, options)) as { item: StoredItem; created: boolean };
  const get = async (s: Store, id: string) => (await s.get(card, id)) as StoredItem | undefined;
  const page = (s: Store, owner: string, offset: number, limit: number) => s.list(deck, owner, { offset, limit });
  const ids = async (s: Store, owner = 'o') => (await page(s, owner, 0, 100))?.items.map(idOf);
  const found = async (s: Store, text: string, offset = 0, limit = 10) => (await s.search(deck, 'o', text, { offset, limit }))?.items.map(idOf);
  /** An owner `o` with 25 cards c0..c24 in its deck; the odd ones have a note "Odd n". */
  const fresh = async (s: Store) => {
    await put(s, { cardId: 'o', title: 'owner' });
    for (let i = 0; i < 25; i++) await s.createMember(deck, 'o', { cardId: `c${i}`, title: `card${i}`, ...(i % 2 ? { note: `Odd ${i}` } : {}) });
    return s;
  };

  return {
    'list: pages in list order, with the total; undefined for an unknown owner': async (s) => {
      await fresh(s);
      const middle = await page(s, 'o', 10, 10);
      assert.equal(middle?.total, 25);
      assert.deepEqual(middle?.items.map(idOf), ['c10', 'c11', 'c12', 'c13', 'c14', 'c15', 'c16', 'c17', 'c18', 'c19']);
      assert.equal((await page(s, 'o', 20, 10))?.items.length, 5);
      assert.equal(await page(s, 'nobody', 0, 10), undefined);
      const past = await page(s, 'o', 30, 10);
      assert.deepEqual([past?.items.length, past?.total], [0, 25]);
      assert.deepEqual((await page(s, 'o', 2_147_483_650, 10))?.items, [], 'an offset past int4 is a page past the end');
    },
    'put: the record returned is what a read gives, and shares nothing with the data given': async (s) => {
      const tags = ['red', 'blue'];
      const data = { cardId: 'k', title: 'kept', tags };
      const { item } = await put(s, data);
      tags.push('changed by the caller');
      data.title = 'changed too';
      assert.deepEqual((item as unknown as { tags: string[] }).tags, ['red', 'blue']);
      assert.equal(item.title, 'kept');
      assert.deepEqual(await get(s, 'k'), item);
      const { item: replaced } = await put(s, { cardId: 'k', title: 'again', tags: ['green'] }, { expect: { revision: item.revision } });
      assert.deepEqual(await get(s, 'k'), replaced);
      assert.notEqual(replaced.revision, item.revision);
    },
    'search: the relation’s search fields, case-insensitively, in list order, paged': async (s) => {
      await fresh(s);
      const odd = await s.search(deck, 'o', 'ODD', { offset: 0, limit: 5 });
      assert.equal(odd?.total, 12);
      assert.deepEqual(odd?.items.map(idOf), ['c1', 'c3', 'c5', 'c7', 'c9']);
      assert.deepEqual(await found(s, 'odd', 10, 5), ['c21', 'c23']);
      assert.equal((await s.search(deck, 'o', 'card2', { offset: 0, limit: 10 }))?.total, 6, 'card2, card20..card24');
      const past = await s.search(deck, 'o', 'odd', { offset: 20, limit: 5 });
      assert.deepEqual([past?.items.length, past?.total], [0, 12]);
      assert.equal(await s.search(deck, 'nobody', 'odd', { offset: 0, limit: 5 }), undefined);
    },
    'search: may stop counting at countLimit, and then says the total is a lower bound': async (s) => {
      await fresh(s);
      const capped = await s.search(deck, 'o', 'odd', { offset: 0, limit: 3, countLimit: 5 });
      assert.deepEqual(capped?.items.map(idOf), ['c1', 'c3', 'c5']);
      if (capped?.totalIsLowerBound) assert.equal(capped.total, 5);
      else assert.equal(capped?.total, 12, 'a store that ignores countLimit counts every match');
      const exact = await s.search(deck, 'o', 'odd', { offset: 9, limit: 3, countLimit: 12 });
      assert.deepEqual(exact?.items.map(idOf), ['c19', 'c21', 'c23']);
      assert.equal(exact?.total, 12);
      assert.ok(!exact?.totalIsLowerBound);
    },
    'search: finds a member by what it says now, after a write changed it or took a field away': async (s) => {
      await fresh(s);
      assert.deepEqual(await found(s, 'odd 3'), ['c3']);
      const c3 = (await get(s, 'c3'))!;
      await put(s, { cardId: 'c3', title: 'renamed' }, { expect: { revision: c3.revision } });
      assert.deepEqual(await found(s, 'odd 3'), [], 'the note it lost');
      assert.deepEqual(await found(s, 'renamed'), ['c3']);
    },
    'search: LIKE wildcards and backslashes match literally, and case folds beyond ASCII': async (s) => {
      await put(s, { cardId: 'o', title: 'owner' });
      await s.createMember(deck, 'o', { cardId: 'p1', title: '100%_sure' });
      await s.createMember(deck, 'o', { cardId: 'p2', title: '100 sure', note: 'back\\slash' });
      await s.createMember(deck, 'o', { cardId: 'p3', title: 'ÉLAN' });
      assert.deepEqual(await found(s, '%'), ['p1']);
      assert.deepEqual(await found(s, '%_s'), ['p1']);
      assert.deepEqual(await found(s, '0_s'), []);
      assert.deepEqual(await found(s, 'k\\s'), ['p2']);
      assert.deepEqual(await found(s, 'élan'), ['p3']);
    },
    'revisions: change on every write, are strings, and are never reused, not even after a delete': async (s) => {
      const a = await put(s, { cardId: 'a', title: 'a' });
      assert.ok(a.created);
      assert.equal(typeof a.item.revision, 'string');
      const b = await put(s, { cardId: 'a', title: 'b' });
      assert.ok(!b.created);
      assert.notEqual(a.item.revision, b.item.revision);
      assert.ok(await s.delete(card, 'a'));
      const c = await put(s, { cardId: 'a', title: 'a' });
      assert.ok(![a.item.revision, b.item.revision].includes(c.item.revision));
    },
    'records: the fields given, the id field included, with revision and modifiedAt; fields left out are gone': async (s) => {
      const { item } = await put(s, { cardId: 'a', title: 'a', note: 'A', link: 'https://img.test/a.png' });
      assert.deepEqual({ ...item, revision: 0, modifiedAt: 0 }, { cardId: 'a', title: 'a', note: 'A', link: 'https://img.test/a.png', revision: 0, modifiedAt: 0 });
      assert.equal(typeof item.modifiedAt, 'number');
      await put(s, { cardId: 'a', title: 'b' });
      const back = (await get(s, 'a'))!;
      assert.equal(back.title, 'b');
      assert.ok(!('note' in back) && !('link' in back), 'a replaced item keeps no field from before');
      assert.equal(await get(s, 'nobody'), undefined);
    },
    'compare-and-set: expect.revision, expect.exists, on put and delete': async (s) => {
      const { item } = await put(s, { cardId: 'a', title: 'a' });
      await put(s, { cardId: 'a', title: 'b' }, { expect: { revision: item.revision } });
      await rejects(() => put(s, { cardId: 'a', title: 'c' }, { expect: { revision: item.revision } }), 'revision-mismatch');
      assert.equal((await get(s, 'a'))?.title, 'b', 'a refused write changes nothing');
      await rejects(() => put(s, { cardId: 'a', title: 'd' }, { expect: { exists: false } }), 'revision-mismatch');
      await rejects(() => put(s, { cardId: 'new', title: 'n' }, { expect: { exists: true } }), 'revision-mismatch');
      assert.ok((await put(s, { cardId: 'new', title: 'n' }, { expect: { exists: false } })).created);
      await rejects(() => s.delete(card, 'new', { expect: { revision: item.revision } }), 'revision-mismatch');
      assert.ok(await get(s, 'new'));
      assert.equal(await s.delete(card, 'nobody'), false);
    },
    'compare-and-set: exactly one of twenty racing conditional writes wins': async (s) => {
      const { item } = await put(s, { cardId: 'a', title: 'a' });
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => put(s, { cardId: 'a', title: `w${i}` }, { expect: { revision: item.revision } })));
      const won = results.filter((r): r is PromiseFulfilledResult<{ item: StoredItem; created: boolean }> => r.status === 'fulfilled');
      assert.equal(won.length, 1);
      for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as StoreError).code, 'revision-mismatch');
      assert.equal((await get(s, 'a'))?.title, won[0]!.value.item.title);
    },
    'lists: a change of a list is a change of its owner (a new revision)': async (s) => {
      await fresh(s);
      const before = (await get(s, 'o'))!.revision;
      const after = await s.removeMember(deck, 'o', 'c3');
      assert.notEqual(after?.revision, before);
      assert.equal((await get(s, 'o'))!.revision, after?.revision);
      assert.equal((await page(s, 'o', 0, 100))?.total, 24);
    },
    'lists: removals keep the order and the pages dense; removing what is not listed changes nothing': async (s) => {
      await fresh(s);
      const owner = (await get(s, 'o'))!;
      assert.equal(await s.removeMember(deck, 'o', 'nobody'), undefined);
      assert.equal((await get(s, 'o'))!.revision, owner.revision);
      await rejects(() => s.removeMember(deck, 'o', 'c1', { expect: { revision: 'stale' } }), 'revision-mismatch');
      await rejects(() => s.removeMember(deck, 'zz', 'c1'), 'not-found');
      await s.removeMember(deck, 'o', 'c1', { expect: { revision: owner.revision } });
      await s.removeMember(deck, 'o', 'c10');
      await s.addMember(deck, 'o', 'c1');
      assert.deepEqual((await page(s, 'o', 8, 4))?.items.map(idOf), ['c9', 'c11', 'c12', 'c13']);
      assert.deepEqual((await page(s, 'o', 20, 10))?.items.map(idOf), ['c22', 'c23', 'c24', 'c1']);
    },
    'delete: takes the item off every list that holds it (each owner gets a new revision)': async (s) => {
      await fresh(s);
      await put(s, { cardId: 'p', title: 'p' });
      for (const id of ['c4', 'c5', 'c6']) await s.addMember(deck, 'p', id);
      const before = (await get(s, 'p'))!.revision;
      assert.ok(await s.delete(card, 'c5'));
      assert.deepEqual(await ids(s, 'p'), ['c4', 'c6']);
      assert.deepEqual((await page(s, 'o', 4, 3))?.items.map(idOf), ['c4', 'c6', 'c7']);
      assert.notEqual((await get(s, 'p'))!.revision, before);
      assert.equal(await s.delete(card, 'c5'), false);
      await put(s, { cardId: 'c5', title: 'again' });
      assert.ok(!(await ids(s))?.includes('c5'), 'an id created again is on no list');
    },
    'members: a duplicate is a conflict, an unknown owner or member not-found, and nothing is written': async (s) => {
      await fresh(s);
      await rejects(() => s.addMember(deck, 'o', 'c1'), 'conflict');
      await rejects(() => s.addMember(deck, 'zz', 'c1'), 'not-found');
      await rejects(() => s.createMember(deck, 'o', { cardId: 'c2', title: 'x' }), 'conflict');
      await rejects(() => s.addMember(deck, 'o', 'zz'), 'not-found');
      await rejects(() => s.createMember(deck, 'zz', { cardId: 'n', title: 'x' }), 'not-found');
      assert.equal(await get(s, 'n'), undefined);
      assert.equal((await page(s, 'o', 0, 100))?.total, 25);
    },
    'members: compare-and-set on the owner’s revision': async (s) => {
      await fresh(s);
      const owner = (await get(s, 'o'))!;
      const added = await s.createMember(deck, 'o', { cardId: 'n1', title: 'n' }, { expect: { revision: owner.revision } });
      assert.notEqual(added.owner.revision, owner.revision);
      assert.equal(idOf(added.member), 'n1');
      assert.ok(!added.replayed);
      assert.equal((await get(s, 'o'))!.revision, added.owner.revision);
      await rejects(() => s.createMember(deck, 'o', { cardId: 'n2', title: 'n' }, { expect: { revision: owner.revision } }), 'revision-mismatch');
      await rejects(() => s.addMember(deck, 'o', 'n1', { expect: { exists: false } }), 'revision-mismatch');
      assert.equal(await get(s, 'n2'), undefined);
      assert.equal((await page(s, 'o', 0, 100))?.total, 26);
    },
    'idempotency: the same key and fingerprint replay the first append; another fingerprint is refused': async (s) => {
      await fresh(s);
      const first = await s.createMember(deck, 'o', { cardId: 'n1', title: 'new' }, { idempotencyKey: 'k', fingerprint: 'x' });
      const again = await s.createMember(deck, 'o', { cardId: 'n2', title: 'new' }, { idempotencyKey: 'k', fingerprint: 'x' });
      assert.ok(again.replayed);
      assert.equal(idOf(again.member), idOf(first.member));
      assert.equal(await get(s, 'n2'), undefined);
      assert.equal((await page(s, 'o', 0, 100))?.total, 26);
      await rejects(() => s.createMember(deck, 'o', { cardId: 'n3', title: 'other' }, { idempotencyKey: 'k', fingerprint: 'y' }), 'idempotency-mismatch');
      // Scoped to the list: the same key on another owner's list is another request.
      await put(s, { cardId: 'p', title: 'p' });
      assert.ok(!(await s.addMember(deck, 'p', 'c0', { idempotencyKey: 'k', fingerprint: 'z' })).replayed);
    },
    'idempotency: retries racing with one key append once': async (s) => {
      await fresh(s);
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => s.createMember(deck, 'o', { cardId: `r${i}`, title: 'retry' }, { idempotencyKey: 'race', fingerprint: 'same' })));
      assert.equal(results.filter((r) => !r.replayed).length, 1);
      assert.equal(new Set(results.map((r) => idOf(r.member))).size, 1);
      assert.equal((await page(s, 'o', 0, 100))?.total, 26);
    },
    'changeMembers (optional): several members in one step, skipping those already so; nothing written when one is missing': async (s) => {
      if (!s.changeMembers) return;
      await fresh(s);
      for (const id of ['a1', 'a2', 'a3']) await put(s, { cardId: id, title: id });
      const before = (await get(s, 'o'))!;
      const added = await s.changeMembers(deck, 'o', { add: ['a1', 'c3', 'a2', 'a1'] }, { expect: { revision: before.revision } });
      assert.deepEqual(added.changed, ['a1', 'a2'], 'c3 was listed already; a repeat counts once');
      assert.notEqual(added.owner.revision, before.revision);
      assert.deepEqual((await ids(s))!.slice(-2), ['a1', 'a2'], 'appended in the order given');
      await rejects(() => s.changeMembers!(deck, 'o', { add: ['a3', 'zz', 'yy'] }), 'not-found');
      assert.equal((await page(s, 'o', 0, 1))?.total, 27, 'nothing added when one is missing');
      await rejects(() => s.changeMembers!(deck, 'o', { remove: ['a1'] }, { expect: { revision: before.revision } }), 'revision-mismatch');
      const removed = await s.changeMembers(deck, 'o', { remove: ['c0', 'a1', 'not-listed'] });
      assert.deepEqual(removed.changed, ['c0', 'a1']);
      const none = await s.changeMembers(deck, 'o', { remove: ['not-listed'] });
      assert.deepEqual(none.changed, []);
      assert.equal(none.owner.revision, removed.owner.revision, 'nothing changed: no new revision');
      await rejects(() => s.changeMembers!(deck, 'zz', { add: ['a1'] }), 'not-found');
    },
    'media (optional): kept beside an item with its own revision, copied, compare-and-set, deleted with the item': async (s) => {
      if (!s.putMedia || !s.getMedia) return;
      await fresh(s);
      const bytes = new Uint8Array([1, 2, 3]);
      const a = await s.putMedia(card, 'o', 'picture', bytes, 'image/png');
      bytes[0] = 9;
      assert.deepEqual([...(await s.getMedia(card, 'o', 'picture'))!.bytes], [1, 2, 3], 'the store keeps a copy');
      await rejects(() => s.putMedia!(card, 'o', 'picture', bytes, 'image/png', { expect: { revision: 'nope' } }), 'revision-mismatch');
      await s.putMedia(card, 'o', 'picture', bytes, 'image/png', { expect: { revision: a.revision } });
      await rejects(() => s.putMedia!(card, 'zz', 'picture', bytes, 'image/png'), 'not-found');
      await rejects(() => s.putMedia!(card, 'o', 'picture', bytes, 'image/png', { expect: { exists: false } }), 'revision-mismatch');
      await rejects(() => s.putMedia!(card, 'c1', 'picture', bytes, 'image/png', { expect: { exists: true } }), 'revision-mismatch');
      const b = await s.putMedia(card, 'c1', 'picture', bytes, 'image/png', { expect: { exists: false } });
      assert.deepEqual([b.contentType, [...b.bytes]], ['image/png', [9, 2, 3]]);
      await s.delete(card, 'c1');
      assert.equal(await s.getMedia(card, 'c1', 'picture'), undefined);
    },
    'watch (optional): tells the keys of the items a write changed, and stops when asked': async (s) => {
      if (!s.watch) return;
      const told: string[] = [];
      const stop = s.watch((changed) => {
        if (Array.isArray(changed)) told.push(...(changed as string[]));
      });
      if (!stop) return; // a store may decline to tell
      await put(s, { cardId: 'w', title: 'w' });
      await waitFor(() => told.includes('card/w'), 'card/w after a put');
      await put(s, { cardId: 'x', title: 'x' });
      await s.addMember(deck, 'w', 'x');
      await waitFor(() => told.filter((k) => k === 'card/w').length >= 2, 'card/w again after its list changed');
      stop();
      const count = told.length;
      await put(s, { cardId: 'w', title: 'w2' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(told.length, count, 'nothing told after stop()');
    },
  };
}

function idOf(item: Stored): string {
  return (item as StoredItem).cardId;
}

/** Asserts that `write` rejects with a StoreError of `code`. */
async function rejects(write: () => Promise<unknown>, code: StoreError['code']): Promise<void> {
  await assert.rejects(write, (error: unknown) => {
    assert.ok(error instanceof StoreError, `expected a StoreError ${code}, got ${String(error)}`);
    assert.equal(error.code, code);
    return true;
  });
}

/** Waits up to two seconds for a store's notice (a database's travels through its change feed). */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const until = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > until) assert.fail(`the store did not tell ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
