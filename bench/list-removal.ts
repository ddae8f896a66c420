// Removing a friend from a list of 100,000: the first against the last, on both stores. Each timed
// removal is undone (untimed) by adding the friend back at the end, so the list keeps its length.
// Reports the median single removal of each, and, for the first, the mean over 1,000 removals in a
// row, which includes the background renumbering a PostgreSQL list gets every GAP_LIMIT removals.
// PostgreSQL runs when BENCH_DATABASE_URL (or TEST_DATABASE_URL, as .ci/with-postgres sets) is set.
// Usage: npm run bench:removal [-- friends=100000 runs=31]
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { MemoryPlayerStore, type PlayerStore } from '../src/player/player-store.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { median } from './support/measure.js';

const args = new Map(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const FRIENDS = Number(args.get('friends') ?? 100_000);
const RUNS = Number(args.get('runs') ?? 31);
const SERIES = 1000;
const GOAL = 2;
const SCHEMA = 'bench_removal';

async function memoryStore(): Promise<PlayerStore> {
  const store = new MemoryPlayerStore();
  await store.putPlayer({ playerId: 'o', alias: 'owner' });
  for (let i = 0; i < FRIENDS; i++) await store.createFriend('o', { playerId: `p${i}`, alias: `player${i}` });
  return store;
}

async function postgresStore(url: string): Promise<PostgresPlayerStore> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  const store = new PostgresPlayerStore({ connectionString: url, schema: SCHEMA, watchChanges: false });
  await store.migrate();
  // Set-based SQL in the store's layout (100,000 single writes would take minutes); triggers off meanwhile.
  await admin.query(`ALTER TABLE ${SCHEMA}.items DISABLE TRIGGER USER`);
  await admin.query(`INSERT INTO ${SCHEMA}.items (type, id, data) VALUES ('player', 'o', '{"alias":"owner"}')`);
  await admin.query(`INSERT INTO ${SCHEMA}.items (type, id, data)
    SELECT 'player', 'p' || i, jsonb_build_object('alias', 'player' || i) FROM generate_series(0, $1 - 1) i`, [FRIENDS]);
  await admin.query(`INSERT INTO ${SCHEMA}.lists (owner, relation, count, list_end) SELECT item, 'friends', $1, $2 FROM ${SCHEMA}.items WHERE type = 'player' AND id = 'o'`, [FRIENDS, FRIENDS]);
  await admin.query(`INSERT INTO ${SCHEMA}.members (list, member, position)
    SELECT l.list, m.item, i + 1 FROM generate_series(0, $1 - 1) i JOIN ${SCHEMA}.items m ON m.type = 'player' AND m.id = 'p' || i CROSS JOIN ${SCHEMA}.lists l`, [FRIENDS]);
  await admin.query(`ALTER TABLE ${SCHEMA}.items ENABLE TRIGGER USER`);
  for (const table of ['items', 'lists', 'members']) await admin.query(`VACUUM ANALYZE ${SCHEMA}.${table}`);
  await admin.end();
  return store;
}

/** The friend at the start or the end of the list. */
async function friendAt(store: PlayerStore, where: 'first' | 'last'): Promise<string> {
  const offset = where === 'first' ? 0 : FRIENDS - 1;
  return (await store.listFriends('o', { offset, limit: 1 }))!.items[0]!.playerId;
}

/** Milliseconds of each removal of the friend at `where`, each undone afterwards (untimed, but in `cycles`). */
async function removals(store: PlayerStore, where: 'first' | 'last', count: number, cycles: number[] = []): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = await friendAt(store, where);
    const start = performance.now();
    await store.removeFriend('o', id);
    times.push(performance.now() - start);
    await store.addFriend('o', id);
    cycles.push(performance.now() - start);
  }
  return times;
}

const failures: string[] = [];

async function measure(name: string, store: PlayerStore): Promise<void> {
  await removals(store, 'first', 3);
  const first: number[] = [];
  const last: number[] = [];
  // Interleaved, so that whatever else the machine does hits both alike.
  for (let r = 0; r < RUNS; r++) {
    first.push(...(await removals(store, 'first', 1)));
    last.push(...(await removals(store, 'last', 1)));
  }
  const cycles: number[] = [];
  const series = await removals(store, 'first', SERIES, cycles);
  const mean = series.reduce((a, b) => a + b, 0) / series.length;
  const cycleMean = cycles.reduce((a, b) => a + b, 0) / cycles.length;
  const ratio = median(first) / median(last);
  console.log(`\n${name}, ${FRIENDS.toLocaleString('en')} friends, median of ${RUNS} removals each`);
  console.log(`  remove the first friend   ${median(first).toFixed(3).padStart(9)} ms`);
  console.log(`  remove the last friend    ${median(last).toFixed(3).padStart(9)} ms`);
  console.log(`  first / last              ${ratio.toFixed(2).padStart(9)}x (goal <= ${GOAL}x: ${ratio <= GOAL ? 'met' : 'NOT met'})`);
  console.log(`  first, mean of ${SERIES} in a row ${mean.toFixed(3).padStart(9)} ms (slowest ${Math.max(...series).toFixed(1)} ms)`);
  // A removal and the append that undoes it, so a wait for the list's lock lands in one of them.
  console.log(`  remove + add back, mean   ${cycleMean.toFixed(3).padStart(9)} ms (slowest ${Math.max(...cycles).toFixed(1)} ms)`);
  if (ratio > GOAL) failures.push(`${name}: removing the first friend costs ${ratio.toFixed(2)}x removing the last`);
}

await measure('memory store', await memoryStore());
const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (url) {
  const store = await postgresStore(url);
  try {
    await measure('PostgreSQL store', store);
  } finally {
    await store.close();
  }
} else console.log('\nPostgreSQL store: skipped (set BENCH_DATABASE_URL or run under .ci/with-postgres)');
console.log(failures.length ? `\ngoal not met: ${failures[0]}` : '\nall goals met');
