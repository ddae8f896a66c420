// The example servers' store: PostgreSQL when DATABASE_URL is set (migrated, demo data if empty), else memory.
import { DEMO_PLAYER_ID, MemoryPlayerStore, seedDemoData, StoreError, type PlayerStore } from '../src/index.js';

/** The store and a function that releases it (ends the PostgreSQL pool). */
export interface ExampleStore {
  store: PlayerStore;
  description: string;
  close: () => Promise<void>;
}

/**
 * Opens the store the environment names: `DATABASE_URL` (and optionally `DATABASE_SCHEMA`) selects
 * PostgreSQL, migrated on start and seeded with the demo data only when the demo player is missing;
 * otherwise a memory store with the demo data.
 *
 * @example
 * const { store, close } = await storeFromEnv(process.env);
 */
export async function storeFromEnv(env: NodeJS.ProcessEnv): Promise<ExampleStore> {
  if (!env.DATABASE_URL) {
    const store = new MemoryPlayerStore();
    await seedDemoData(store);
    return { store, description: 'in-memory store with demo data', close: async () => undefined };
  }
  // Imported only here, so that the memory-only server runs without pg installed.
  const { PostgresPlayerStore } = await import('../src/stores/postgres/index.js');
  const schema = env.DATABASE_SCHEMA ?? 'public';
  const store = new PostgresPlayerStore({
    connectionString: env.DATABASE_URL,
    schema,
    onError: (error) => console.warn(`PostgreSQL connection lost: ${error.message}`),
  });
  await store.migrate();
  let seeded = false;
  if (!(await store.getPlayer(DEMO_PLAYER_ID))) {
    try {
      await seedDemoData(store);
      seeded = true;
    } catch (error) {
      // Another instance starting at the same moment seeds the same data: its writes win.
      if (!(error instanceof StoreError && (error.code === 'conflict' || error.code === 'revision-mismatch'))) throw error;
    }
  }
  const where = new URL(env.DATABASE_URL);
  return {
    store,
    description: `PostgreSQL at ${where.host}${where.pathname}, schema ${schema}${seeded ? ', seeded with demo data' : ''}`,
    close: () => store.close(),
  };
}
