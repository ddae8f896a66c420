// bench:pg-writes: what a write costs PostgreSQL itself, and which of the library's parts pays for it.
// The (d) write loads of bench/realistic (10 connections, random players, no If-Match) on the hand-written
// baseline and on the library over four databases seeded alike (a database each: bench/support/own-database.ts):
// as migrated, without the trigram search indexes, without the change trigger (the NOTIFY of every changed
// row), and without both. Servers on
// core 0, the load and the database on core 1; each side measured in turns, slice by slice, with the
// server's CPU and the CPU of every postgres process per request (Linux /proc).
//
// Run under .ci/with-postgres (or with DATABASE_URL): .ci/with-postgres npm run bench:pg-writes
// BENCH_KINDS=json-patch,post chooses the writes; BENCH_ROUNDS, BENCH_SECONDS, BENCH_SLICES, BENCH_WARMUP as in
// bench/realistic, whose rounds these are (bench/support/realistic-rounds.ts).
// The variants are not settings of the library: without its search indexes a friend search reads every
// friend, and without the trigger no other instance hears of a change (this one is told by the store).
import pg from 'pg';
import { seedBaseline } from './support/realistic-baseline-pg.js';
import { seedLibrary } from './support/realistic-library-pg.js';
import { writeLoad, type WriteKind } from './support/realistic-loads.js';
import { baselineSide, compileServers, librarySide, type Side } from './support/realistic-process.js';
import { rounds } from './support/realistic-rounds.js';
import { postgresCpuMicros } from './support/database-cpu.js';
import { pinDatabase } from './support/database-core.js';
import { analyzeBenchTables, pauseAutovacuum, vacuumBenchTables } from './support/database-upkeep.js';
import { median } from './support/measure.js';
import { ownDatabase } from './support/own-database.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 12);
const SLICES = Number(process.env.BENCH_SLICES ?? 3);
const KINDS = (process.env.BENCH_KINDS ?? 'json-patch,merge-patch,put,post').split(',') as WriteKind[];
const url = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;

interface Variant {
  name: string;
  schema: string;
  /** Its own database's URL, once made. */
  url?: string;
  /** What is taken away from the schema after it is seeded. */
  without: { searchIndexes: boolean; trigger: boolean };
}

const variants: Variant[] = [
  { name: 'as migrated', schema: 'bench_write_costs_0', without: { searchIndexes: false, trigger: false } },
  { name: 'no search index', schema: 'bench_write_costs_1', without: { searchIndexes: true, trigger: false } },
  { name: 'no change trigger', schema: 'bench_write_costs_2', without: { searchIndexes: false, trigger: true } },
  { name: 'neither', schema: 'bench_write_costs_3', without: { searchIndexes: true, trigger: true } },
];

/** Drops what `variant` goes without from its freshly seeded schema. */
async function strip(variant: Variant): Promise<void> {
  const client = new pg.Client({ connectionString: variant.url });
  await client.connect();
  try {
    const s = `"${variant.schema}"`;
    if (variant.without.searchIndexes) {
      const { rows } = await client.query<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%gin_trgm_ops%'`, [variant.schema]);
      if (rows.length === 0) throw new Error(`bench:pg-writes: no search index found in ${variant.schema}`);
      for (const { name } of rows) await client.query(`DROP INDEX ${s}."${name}"`);
    }
    if (variant.without.trigger) await client.query(`ALTER TABLE ${s}.items DISABLE TRIGGER USER`);
  } finally {
    await client.end();
  }
}

if (!url) {
  console.log('bench:pg-writes: no DATABASE_URL; run it under .ci/with-postgres');
} else if (postgresCpuMicros() === undefined) {
  console.log('bench:pg-writes: /proc cannot be read here, so the database CPU cannot be measured');
} else {
  compileServers();
  const pinned = pinDatabase(1);
  console.log(`bench:pg-writes: the database ${typeof pinned === 'number' ? `pinned to core 1 (${pinned} processes)` : `not pinned (${pinned})`}`);
  for (const v of variants) v.url = await ownDatabase(url, v.schema);
  await Promise.all([seedBaseline(url), ...variants.map((v) => seedLibrary(v.url!, v.schema))]);
  for (const v of variants) await strip(v);
  // The tables' upkeep between rounds, never inside one, as bench:realistic keeps them (bench/support/database-upkeep.ts).
  const upkept = [url, ...variants.map((v) => v.url!)];
  console.log(`bench:pg-writes: autovacuum off on the bench's ${await pauseAutovacuum(upkept)} tables; VACUUM (ANALYZE) of each before every round`);
  const env = { BENCH_DATABASE_URL: url };
  const sides: Side[] = [
    { ...baselineSide, env: { ...baselineSide.env, ...env } },
    ...variants.map((v) => {
      const side = librarySide(v.name, {});
      return { name: v.name, env: { ...side.env, BENCH_DATABASE_URL: v.url!, BENCH_SCHEMA: v.schema } };
    }),
  ];
  console.log(`bench:pg-writes: ${ROUNDS} rounds, each side warmed ${WARMUP} s then measured ${SECONDS} s a round in ${SLICES} slices`);
  for (const kind of KINDS) {
    const measured = await rounds(sides, writeLoad(kind), { rounds: ROUNDS, seconds: SECONDS, slices: SLICES, warmup: WARMUP, databaseCpu: postgresCpuMicros, beforeRound: () => vacuumBenchTables(upkept), afterWarmup: () => analyzeBenchTables(upkept) });
    console.log(`\n(d) ${kind} writes only`);
    console.log('  side                  req/s  ratio  server CPU us/req  database CPU us/req');
    const of = (side: Side) => measured.map((round) => round.get(side.name)!);
    const base = of(sides[0]!);
    for (const side of sides) {
      const own = of(side);
      const ratio = median(own.map((s, r) => s.rps / base[r]!.rps));
      const cells = [median(own.map((s) => s.rps)).toFixed(0).padStart(7), ratio.toFixed(2).padStart(6), median(own.map((s) => s.cpu)).toFixed(0).padStart(18), median(own.map((s) => s.db!)).toFixed(0).padStart(20)];
      console.log(`  ${side.name.padEnd(18)}${cells.join(' ')}`);
    }
  }
}
