// The exported store kit (player-hypermedia/store/testing) as a uvu suite, for the stores of this package.
import { suite, type Test } from 'uvu';
import { storeConformance, type StoreKitTarget } from '../../src/stores/testing.js';

/**
 * The kit's cases for one store as a uvu suite; the caller ends its file with `.run()`.
 *
 * @example
 * storeKitSuite('MemoryStore', { make: () => new MemoryStore() }).run();
 */
export function storeKitSuite(name: string, target: StoreKitTarget, options: { skip?: string; after?: () => Promise<void> } = {}): Test {
  const test = suite(name);
  if (options.after) test.after(options.after);
  for (const { name: rule, run } of storeConformance(target)) (options.skip === undefined ? test : test.skip)(rule, run);
  return test;
}
