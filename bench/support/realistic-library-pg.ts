// The library's side of bench/realistic on PostgreSQL: its schema, seeded through the store's own API
// with the data set of realistic-data.ts (so the rows are in whatever layout the store uses).
import pg from 'pg';
import { PostgresPlayerStore } from '../../src/stores/postgres/index.js';
import { PLAYERS, friendIndexes, playerId, seedPlayer } from './realistic-data.js';

/** The schema of the library's tables in the bench (each library setting has its own, see bench/realistic). */
export const LIBRARY_SCHEMA = 'bench_realistic_library';

/**
 * Drops the library's schema and seeds it again: players first, then every list, 16 lists at a time;
 * then VACUUM (ANALYZE), as the baseline's seed does (without ANALYZE, the first minute of the run planned
 * its statements without statistics, until autovacuum analyzed the tables).
 */
export async function seedLibrary(url: string, schema = LIBRARY_SCHEMA): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
  // The seed is not measured: its writes may wait for a connection as long as it takes (the four
  // databases seed at once on a database pinned to one core, and a wait past the default 3 s failed one).
  const store = new PostgresPlayerStore({ connectionString: url, schema, poolConfig: { max: 16, connectionTimeoutMillis: 120_000 }, watchChanges: false });
  try {
    await store.migrate();
    for (let i = 0; i < PLAYERS; i += 100) await Promise.all(Array.from({ length: 100 }, (_, k) => store.putPlayer(seedPlayer(i + k))));
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < PLAYERS; i = next++) for (const f of friendIndexes(i)) await store.addFriend(playerId(i), playerId(f));
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  } finally {
    await store.close();
  }
  const analyze = new pg.Client({ connectionString: url });
  await analyze.connect();
  // VACUUM too (as the baseline's seed): the first round otherwise ran beside autovacuum's first pass over
  // the freshly written tables (and their GIN pending lists), and read as low as 0.35-0.39 of the
  // baseline on POST where the later rounds read 0.7-0.8 (docs/scaling.md, "The rounds' spread").
  for (const table of ['items', 'lists', 'members', 'member_gaps']) await analyze.query(`VACUUM (ANALYZE) ${schema}.${table}`);
  await analyze.end();
}
