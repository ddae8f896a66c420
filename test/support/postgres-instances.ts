// Two instances on one PostgreSQL schema: this one (a service on a store that listens) and another one
// that writes without a feed of its own, so that its writes reach this one by NOTIFY only.
import * as assert from 'uvu/assert';
import { createPlayerService, playerApi, type PlayerServiceOptions } from '../../src/index.js';
import { PostgresPlayerStore } from '../../src/stores/postgres/index.js';
import { TEST_DATABASE_URL, watchingPostgresStore } from './postgres.js';

/**
 * This instance (a service on a store that listens, in a schema of its own, with links under `baseUrl`)
 * and another one writing to the same schema; `options` are the service's own (`authenticate`...). `heard` waits until this instance was told `count` changes
 * of a player; `dispose` ends both and drops the schema.
 *
 * @example
 * const { service, other, heard, dispose } = await twoInstances('kept_pages', 'https://api.example.com');
 * await other.putPlayer({ playerId: 'alice', alias: 'ali' });
 * await heard('alice', 1);
 */
export async function twoInstances(prefix: string, baseUrl: string, options: Partial<PlayerServiceOptions> = {}) {
  const { store, dispose } = await watchingPostgresStore(playerApi, prefix, 4);
  const other = new PostgresPlayerStore({ connectionString: TEST_DATABASE_URL, schema: store.schema, watchChanges: false });
  const notices = new Map<string, number>();
  let listening = false;
  const unwatch = store.watch((changed) => {
    if (changed === 'all') listening = true;
    if (Array.isArray(changed)) for (const key of changed) notices.set(key, (notices.get(key) ?? 0) + 1);
  });
  const heard = async (id: string, count: number) => {
    const told = () => notices.get(`player/${id}`) ?? 0;
    for (let waited = 0; told() < count && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.is(told(), count, `the change feed told the changes of ${id}`);
  };
  for (let waited = 0; !listening && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(listening, 'the change feed listens');
  return {
    schema: store.schema,
    store,
    other,
    heard,
    /** How many changes of each item this instance was told, by key (`player/alice`). */
    notices,
    service: createPlayerService({ ...options, baseUrl, store }),
    dispose: async () => {
      unwatch?.();
      await other.close();
      await dispose();
    },
  };
}
