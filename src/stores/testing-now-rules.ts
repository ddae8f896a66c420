// The store kit's rules for the optional synchronous reads and writes (Store.readsNow, Store.writesNow):
// each gives, or throws, what the store's own async method would at the same moment.
import assert from 'node:assert/strict';
import type { Relation, ResourceType } from '../core/model/api.js';
import { StoreError, type Store } from './contract.js';

type Rule = (s: Store) => Promise<void>;

const code = (c: string) => (e: unknown) => e instanceof StoreError && e.code === c;

/**
 * The rules of `readsNow` and `writesNow`, for a store that gives them (a store that leaves them out
 * passes: they are optional).
 *
 * @example
 * const all = { ...rules(card, deck), ...nowRules(card, deck) };
 */
export function nowRules(card: ResourceType, deck: Relation): Record<string, Rule> {
  return {
    'readsNow (optional): get and list give at once what the async methods resolve to': async (s) => {
      const now = s.readsNow?.();
      if (!now) return;
      await s.put(card, { cardId: 'o', title: 'owner' });
      await s.createMember(deck, 'o', { cardId: 'c1', title: 'one' });
      assert.deepEqual(now.get(card, 'o'), await s.get(card, 'o'));
      assert.equal(now.get(card, 'nobody'), undefined);
      assert.deepEqual(now.list(deck, 'o', { offset: 0, limit: 10 }), await s.list(deck, 'o', { offset: 0, limit: 10 }));
      assert.equal(now.list(deck, 'nobody', { offset: 0, limit: 10 }), undefined);
    },
    'writesNow (optional): put and createMember do at once what the async methods do, and throw what they reject with': async (s) => {
      const now = s.writesNow?.();
      if (!now) return;
      const { item, created } = now.put(card, { cardId: 'o', title: 'owner' }, { expect: { exists: false } });
      assert.equal(created, true);
      assert.deepEqual(await s.get(card, 'o'), item);
      assert.throws(() => now.put(card, { cardId: 'o', title: 'again' }, { expect: { exists: false } }), code('revision-mismatch'));
      const replaced = now.put(card, { cardId: 'o', title: 'replaced' }, { expect: { revision: item.revision } });
      assert.equal(replaced.created, false);
      assert.notEqual(replaced.item.revision, item.revision);
      const added = now.createMember(deck, 'o', { cardId: 'c1', title: 'one' }, { expect: { revision: replaced.item.revision } });
      assert.deepEqual(await s.get(card, 'c1'), added.member);
      assert.deepEqual(await s.get(card, 'o'), added.owner);
      assert.notEqual(added.owner.revision, replaced.item.revision, 'a change of a list is a change of its owner');
      assert.deepEqual((await s.list(deck, 'o', { offset: 0, limit: 10 }))?.total, 1);
      assert.throws(() => now.createMember(deck, 'o', { cardId: 'c1', title: 'again' }), code('conflict'));
      assert.throws(() => now.createMember(deck, 'nobody', { cardId: 'c2', title: 'two' }), code('not-found'));
    },
  };
}
