// The store author's kit: the Store contract as test cases that any runner can run (node:test, vitest,
// uvu...), passed by the memory and PostgreSQL stores. docs/stores.md explains each rule it checks.
import { defineApi, type Api } from '../core/model/api.js';
import type { Store } from './contract.js';
import { rules } from './testing-rules.js';
import { nowRules } from './testing-now-rules.js';

/**
 * The API the kit stores: cards, each with a to-many relation `deck` to other cards, searchable by
 * title and note. Your store receives it in `make` (a database store creates what it needs for it, as
 * `PostgresStore.migrate(api)` does); nothing in the kit depends on a domain of its own.
 *
 * @example
 * const store = new PostgresStore({ connectionString, schema: 'kit' }); await store.migrate(storeKitApi);
 */
export const storeKitApi: Api = defineApi({
  title: 'Store kit',
  version: '1.0.0',
  vocabulary: { prefix: 'kit', iri: 'https://example.com/store-kit#' },
  types: [
    {
      name: 'card',
      plural: 'cards',
      title: 'Card',
      path: '/cards/{id}',
      id: 'cardId',
      fields: [
        { name: 'cardId', title: 'Card id', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9._~-]{1,64}$' } },
        { name: 'title', title: 'Title', required: true, schema: { type: 'string', minLength: 1, maxLength: 64 } },
        { name: 'note', title: 'Note', schema: { type: 'string', maxLength: 64 } },
        { name: 'link', title: 'Link', schema: { type: 'string', format: 'uri' } },
        { name: 'tags', title: 'Tags', schema: { type: 'array', items: { type: 'string' } } },
      ],
      relations: [
        {
          name: 'deck',
          kind: 'to-many',
          target: 'card',
          title: 'Deck',
          member: 'card',
          add: { name: 'add-card', title: 'Add a card', fields: ['title', 'note'], create: true, reference: true },
          search: { title: 'Search the deck', prompt: 'Text in title or note', fields: ['title', 'note'] },
        },
      ],
      linkedData: { class: 'kit:Card', term: 'Card' },
      display: { title: ['title'] },
    },
  ],
});

/**
 * One rule of the contract as a test: a name and an async body that throws (an AssertionError) when the
 * store breaks the rule.
 *
 * @example
 * for (const { name, run } of storeConformance(make)) test(name, run);
 */
export interface StoreCase {
  readonly name: string;
  readonly run: () => Promise<void>;
}

/**
 * How the kit gets stores: `make` returns a new, empty store for `storeKitApi` on every call (each case
 * makes its own); `close`, when given, is called with each store after its case.
 *
 * @example
 * const target: StoreKitTarget = { make: () => new MemoryStore(), close: (s) => (s as PostgresStore).close() };
 */
export interface StoreKitTarget {
  make: (api: Api) => Store | Promise<Store>;
  close?: (store: Store) => void | Promise<void>;
}

/**
 * The contract's test cases for a store: pages in list order with totals, case-insensitive search with
 * literal wildcards and a count limit, revisions that change on every write (also of a list, and on
 * delete) and are never reused, compare-and-set (exactly one of twenty racing writes wins), deletes
 * taken off every list, conflicts, idempotent appends, and the optional `changeMembers`, `getMedia`,
 * `putMedia`, `readsNow` and `writesNow` when the store has them. Run them with any test runner.
 *
 * @example
 * import { test } from 'node:test';
 * import { storeConformance } from 'player-hypermedia/store/testing';
 * for (const { name, run } of storeConformance({ make: () => new MyStore() })) test(name, run);
 */
export function storeConformance(target: StoreKitTarget | ((api: Api) => Store | Promise<Store>)): StoreCase[] {
  const { make, close } = typeof target === 'function' ? { make: target, close: undefined } : target;
  const card = storeKitApi.type('card');
  const deck = card.relation('deck')!;
  const withStore = (run: (s: Store) => Promise<void>) => async () => {
    const store = await make(storeKitApi);
    try {
      await run(store);
    } finally {
      await close?.(store);
    }
  };
  return Object.entries({ ...rules(card, deck), ...nowRules(card, deck) }).map(([name, run]) => ({ name, run: withStore(run) }));
}
