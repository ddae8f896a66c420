// Search cost on a list of 1M friends, on both stores: a term matching every friend (the worst case
// for counting) and one matching none (the worst case for scanning), with the count limit the service
// passes (searchCountLimit 1,000) against counting every match (the baseline, same data, same run).
// Medians of several runs, in milliseconds. PostgreSQL runs when BENCH_DATABASE_URL (or
// TEST_DATABASE_URL, as .ci/with-postgres sets) names a database; its rows are inserted by SQL.
// Usage: npm run bench:search [-- friends=1000000 runs=7]
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { MemoryPlayerStore, type PlayerStore } from '../src/player/player-store.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import type { PageRequest } from '../src/stores/contract.js';
import { median } from './support/measure.js';

const args = new Map(process.argv.slice(2).map((a) => a.split('=') as [string, string]));
const FRIENDS = Number(args.get('friends') ?? 1_000_000);
const RUNS = Number(args.get('runs') ?? 7);
const GOAL_MS = 100;
const SCHEMA = 'bench_search';
/** What the service asks for page 1 with the default options. */
const CAPPED: PageRequest = { offset: 0, limit: 10, countLimit: 1000 };
const EXACT: PageRequest = { offset: 0, limit: 10 };

async function timeMs(run: () => Promise<unknown>): Promise<number> {
  await run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

async function memoryStore(): Promise<PlayerStore> {
  const store = new MemoryPlayerStore();
  await store.putPlayer({ playerId: 'o', alias: 'owner' });
  for (let i = 0; i < FRIENDS; i++) await store.createFriend('o', { playerId: `p${i}`, alias: `player${i}`, displayName: `Player Number ${i}` });
  return store;
}

async function postgresStore(url: string): Promise<PostgresPlayerStore> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  const store = new PostgresPlayerStore({ connectionString: url, schema: SCHEMA, watchChanges: false });
  await store.migrate();
  // Set-based SQL in the store's layout (a million single writes would take minutes); triggers off meanwhile.
  await admin.query(`ALTER TABLE ${SCHEMA}.items DISABLE TRIGGER USER`);
  await admin.query(`INSERT INTO ${SCHEMA}.items (type, id, data) VALUES ('player', 'o', '{"alias":"owner"}')`);
  await admin.query(`INSERT INTO ${SCHEMA}.items (type, id, data)
    SELECT 'player', 'p' || i, jsonb_build_object('alias', 'player' || i, 'displayName', 'Player Number ' || i) FROM generate_series(0, $1 - 1) i`, [FRIENDS]);
  await admin.query(`INSERT INTO ${SCHEMA}.lists (owner, relation, count, list_end) SELECT item, 'friends', $1, $2 FROM ${SCHEMA}.items WHERE type = 'player' AND id = 'o'`, [FRIENDS, FRIENDS]);
  await admin.query(`INSERT INTO ${SCHEMA}.members (list, member, position)
    SELECT l.list, m.item, i + 1 FROM generate_series(0, $1 - 1) i JOIN ${SCHEMA}.items m ON m.type = 'player' AND m.id = 'p' || i CROSS JOIN ${SCHEMA}.lists l`, [FRIENDS]);
  await admin.query(`ALTER TABLE ${SCHEMA}.items ENABLE TRIGGER USER`);
  await admin.query(`VACUUM ANALYZE ${SCHEMA}.items`);
  await admin.query(`VACUUM ANALYZE ${SCHEMA}.members`);
  await admin.query(`VACUUM ANALYZE ${SCHEMA}.lists`);
  await admin.end();
  return store;
}

const failures: string[] = [];

async function measure(name: string, store: PlayerStore): Promise<void> {
  const everyone = await store.searchFriends('o', 'player', CAPPED);
  if (everyone?.total !== 1000 || !everyone.totalIsLowerBound || everyone.items.length !== 10) throw new Error(`${name}: unexpected capped answer`);
  const rows: [string, number][] = [
    ['matching all, counted to 1,000 (the service)', await timeMs(() => store.searchFriends('o', 'player', CAPPED))],
    ['matching all, every match counted (baseline)', await timeMs(() => store.searchFriends('o', 'player', EXACT))],
    ['matching none (whole list scanned)', await timeMs(() => store.searchFriends('o', 'zzz', CAPPED))],
    ['page 1,000 of the capped search', await timeMs(() => store.searchFriends('o', 'player', { offset: 9990, limit: 10, countLimit: 10001 }))],
  ];
  // The longest the event loop waited while a whole list was scanned.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  await store.searchFriends('o', 'zzz', CAPPED);
  delay.disable();
  rows.push(['longest event-loop block during that scan', delay.max / 1e6]);
  console.log(`\n${name}, ${FRIENDS.toLocaleString('en')} friends on one list, median of ${RUNS} runs`);
  for (const [label, ms] of rows) console.log(`  ${label.padEnd(48)} ${ms.toFixed(1).padStart(8)} ms`);
  const capped = rows[0]![1];
  console.log(`  capped / baseline: ${(capped / rows[1]![1]).toFixed(3)}x; goal: matching all under ${GOAL_MS} ms: ${capped < GOAL_MS ? 'met' : 'NOT met'}`);
  if (capped >= GOAL_MS) failures.push(`${name} search matching all takes ${capped.toFixed(0)} ms`);
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
