// bench/realistic: the library against a hand-written node:http server (each body built per request with
// JSON.stringify, no caching, all eight formats) under the loads users have: (a) 90% reads over all eight
// formats / 10% writes by JSON Patch, merge patch, PUT and POST; (a') reads mostly friends pages in HAL and
// JSON:API, writes by merge patch and POST; (b) reads over 48,000 distinct URLs (every player and its pages
// 1-5 in all eight formats) and (b') over 12,000 in HAL and JSON:API; (c) a computed page of 50 in each
// format at 100 connections; (d) each kind of write alone; and, only when BENCH_LOADS names them, (e) a
// computed player in each format and (f) answers that are errors (404 reads, 412 writes), measured for the
// tables without a goal. Each server runs alone on core 0 (fresh processes
// each round, each warmed to its steady state first), the load generator (and a local PostgreSQL) on core 1; rounds of interleaved
// slices, medians of requests/s, p99 latency and server CPU per request (more rounds for a load whose rounds
// leave its goal undecided); both servers compiled with tsc
// first. The library runs with its defaults, with each cache off and with both off; none may beat the defaults.
// With DATABASE_URL (or under .ci/with-postgres), the same against a hand-written server doing one pg query
// per request: loads (a), (a'), (b), (b') and (d) (BENCH_WRITES_IN_FLIGHT=n: the PostgreSQL store's
// `writesInFlight` for every library side), the database pinned to the load's core and its tables kept
// between rounds, never inside one (autovacuum off on them, VACUUM (ANALYZE) before each round, ANALYZE after its warm-up). BENCH_LOADS=a,b,c... runs some loads only. The last line
// says `all goals met`, or the first miss.
import { decided, median, medianInterval } from './support/measure.js';
import { baselineSide as baseline, compileServers, hasTaskset, inRound, librarySide as library, start, stop, type Sample, type Side } from './support/realistic-process.js';
import { rounds } from './support/realistic-rounds.js';
import { checkSameAnswers } from './support/realistic-parity.js';
import { seedBaseline } from './support/realistic-baseline-pg.js';
import { LIBRARY_SCHEMA, seedLibrary } from './support/realistic-library-pg.js';
import { ownDatabase } from './support/own-database.js';
import { postgresCpuMicros } from './support/database-cpu.js';
import { pinDatabase } from './support/database-core.js';
import { analyzeBenchTables, pauseAutovacuum, vacuumBenchTables } from './support/database-upkeep.js';
import { ALL_FORMATS, FORMAT_KEYS, bigPageLoad, errorLoad, itemLoad, manyUrlsLoad, manyUrlsPagesLoad, mixedLoad, mixedPagesLoad, writeLoad, WRITE_KINDS, type Load } from './support/realistic-loads.js';

// Five rounds: with three, two runs of (a) on the same code gave medians 0.10 apart (0.70 and 0.60);
// with five, 0.70 and 0.69 (docs/scaling.md).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const SLICES = Number(process.env.BENCH_SLICES ?? 3);
// A load whose rounds leave its goal undecided (the median's 90% interval holds the goal) gets two more
// rounds at a time, up to this many: the rounds of one setting spread by 0.1-0.2 on this machine, so
// five decide a load far from its goal, and one near it needs more (docs/scaling.md).
const MAX_ROUNDS = Math.max(ROUNDS, Number(process.env.BENCH_MAX_ROUNDS ?? 9));
// Each server is loaded this long before it is measured, so that what is measured is its steady state:
// the library's larger code takes V8 longer to compile (`perf record` of one server under (a): its
// compiler threads had a fifth of the process's CPU after 5 s of load, a fiftieth after 18 s), and
// bench/warmup.ts shows its ratio rising through the first 10-15 s. Warmed 3 s, (a) read 0.70; warmed
// 12 s, 0.79-0.82 (docs/scaling.md).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 12);
compileServers();

/** Both servers answer a sample of reads and writes with the same bytes: they do the same work. */
async function checkSame(baseline: Side, library: Side): Promise<void> {
  const [a, b] = await Promise.all([start(baseline, 10), start(inRound(library, 0), 10)]);
  try {
    await checkSameAnswers(a.port, b.port);
  } finally {
    await Promise.all([stop(a), stop(b)]);
  }
}

interface Goal {
  /** The load's letter (BENCH_LOADS chooses by it). */
  key: string;
  load: () => Load;
  /** The library's defaults must reach this ratio of the baseline's requests/s; none: measured for the tables only. */
  minRatio?: number;
  /** Run only when BENCH_LOADS names it (a load measured for the tables, not one of the issue's goals). */
  optIn?: boolean;
  /** And, when given, keep its p99 latency within this multiple of the baseline's. */
  maxP99?: number;
}

const settings: Side[] = [
  library('defaults', {}),
  library('answer memo off', { memoizeAnswers: false }),
  library('body cache off', { bodyCacheBytes: 0 }),
  // Both off: what the review measured against the defaults (the caches must pay their way together too).
  library('caches off', { memoizeAnswers: false, bodyCacheBytes: 0 }),
];
const on = (sides: Side[], env: Record<string, string>): Side[] => sides.map((side) => ({ name: side.name, env: { ...side.env, ...env } }));
const misses: string[] = [];
/** The goals the rounds left undecided at MAX_ROUNDS (their medians decide them, as the issue's goals say). */
const undecidedGoals: string[] = [];
/** How many loads with a goal ran (the loads measured for the tables have none). */
let goalsRun = 0;

/** Runs every goal's load on the baseline and on each setting of the library, and records the misses. */
async function runGoals(title: string, goals: Goal[], base: Side, libraries: Side[], databaseCpu?: () => number | undefined, beforeRound?: () => Promise<void>, afterWarmup?: () => Promise<void>): Promise<void> {
  console.log(`\n== ${title}`);
  await checkSame(base, libraries[0]!);
  for (const goal of goals) {
    if (goal.minRatio !== undefined) goalsRun++;
    const sides = [base, ...libraries];
    const samples = new Map<string, Sample[]>(sides.map((s) => [s.name, []]));
    const baseSamples = samples.get(base.name)!;
    const defaultsRatios = () => samples.get(libraries[0]!.name)!.map((s, i) => s.rps / baseSamples[i]!.rps);
    // ROUNDS rounds, then two more at a time while the defaults' rounds leave the goal undecided (see
    // `decided`), up to MAX_ROUNDS: more rounds only for a load whose ratio lies near its goal.
    const undecided = () => goal.minRatio !== undefined && decided(defaultsRatios(), goal.minRatio) === undefined;
    for (let next = ROUNDS; next > 0; next = undecided() ? Math.min(2, MAX_ROUNDS - baseSamples.length) : 0) {
      for (const measured of await rounds(sides, goal.load, { rounds: next, seconds: SECONDS, slices: SLICES, warmup: WARMUP, databaseCpu, beforeRound, afterWarmup }, baseSamples.length)) {
        for (const side of sides) samples.get(side.name)!.push(measured.get(side.name)!);
      }
    }
    const loadName = goal.load().name;
    const name = `${title}: ${loadName}`;
    console.log(`\n${loadName}`);
    // The database's CPU per request beside the server's, on PostgreSQL (where /proc can be read).
    const db = (own: Sample[]) => (own.every((s) => s.db !== undefined) ? `  DB CPU ${median(own.map((s) => s.db!)).toFixed(1)} us/req` : '');
    console.log(`  baseline            ${median(baseSamples.map((s) => s.rps)).toFixed(0).padStart(7)} req/s  p99 ${median(baseSamples.map((s) => s.p99)).toFixed(1)} ms  CPU ${median(baseSamples.map((s) => s.cpu)).toFixed(1)} us/req${db(baseSamples)}`);
    const ratios = new Map<string, number[]>();
    for (const side of libraries) {
      const own = samples.get(side.name)!;
      const ratio = median(own.map((s, i) => s.rps / baseSamples[i]!.rps));
      // autocannon's latencies are whole milliseconds: a p99 under 1 ms counts as 1 ms on both sides.
      const p99 = median(own.map((s, i) => Math.max(s.p99, 1) / Math.max(baseSamples[i]!.p99, 1)));
      ratios.set(side.name, own.map((s, i) => s.rps / baseSamples[i]!.rps));
      console.log(
        `  ${side.name.padEnd(18)}  ${median(own.map((s) => s.rps)).toFixed(0).padStart(7)} req/s  p99 ${median(own.map((s) => s.p99)).toFixed(1)} ms  CPU ${median(own.map((s) => s.cpu)).toFixed(1)} us/req${db(own)}` +
          `  ratio ${ratio.toFixed(2)} (rounds ${own.map((s, i) => (s.rps / baseSamples[i]!.rps).toFixed(2)).join(' ')})  p99 ratio ${p99.toFixed(2)}`,
      );
      if (side === libraries[0] && goal.minRatio !== undefined) {
        const { low, high, confidence } = medianInterval(ratios.get(side.name)!);
        const verdict = decided(ratios.get(side.name)!, goal.minRatio);
        if (verdict === undefined) undecidedGoals.push(name);
        console.log(
          `  goal >= ${goal.minRatio}: ${verdict ?? `not decided by the rounds, the median ${ratio >= goal.minRatio ? 'meets' : 'misses'} it`}` +
            ` (${(confidence * 100).toFixed(0)}% interval of the median ${low.toFixed(2)}-${high.toFixed(2)}, ${own.length} rounds)`,
        );
      }
      if (side === libraries[0]) {
        if (goal.minRatio !== undefined && ratio < goal.minRatio) misses.push(`${name}: defaults at ${ratio.toFixed(2)}x the baseline, goal >= ${goal.minRatio}`);
        if (goal.maxP99 !== undefined && p99 > goal.maxP99) misses.push(`${name}: p99 ${p99.toFixed(2)}x the baseline's, goal <= ${goal.maxP99}`);
      }
    }
    const defaults = ratios.get(libraries[0]!.name)!;
    for (const [side, rounds] of ratios) {
      // No setting may beat the defaults: else the defaults are not the fastest. Beating means ahead by
      // more than 5% in every round (paired, the same slices of the machine's time), not in the medians:
      // here the rounds of one setting spread by up to 0.15, and settings that run the very same code
      // for a load (the body cache is never asked for an anonymous read the memo may keep) have had
      // medians 0.08-0.13 apart.
      if (rounds.every((r, i) => r > defaults[i]! * 1.05)) {
        misses.push(`${name}: "${side}" (${median(rounds).toFixed(2)}x) beats the defaults (${median(defaults).toFixed(2)}x) in every round`);
      }
    }
  }
}

console.log(`bench/realistic: ${ROUNDS} rounds per load (up to ${MAX_ROUNDS} while a goal is undecided), each side warmed ${WARMUP} s then measured ${SECONDS} s a round in ${SLICES} interleaved slices; ${hasTaskset ? 'servers on core 0, load on core 1' : 'taskset missing: not pinned'}`);
const only = process.env.BENCH_ONLY; // 'memory' or 'postgres': one half only
/** The goals of the issue this bench holds (docs/scaling.md): mixed, many URLs, computed pages, writes. */
const writes = (minRatio: number): Goal[] => WRITE_KINDS.map((kind) => ({ key: `d:${kind}`, load: writeLoad(kind), minRatio }));
// BENCH_LOADS=a,b,c:jsonapi,d...: a load by its letter, or one of its kind by letter:name.
const chosen = process.env.BENCH_LOADS?.split(',');
const pick = (goals: Goal[]) => goals.filter((g) => (!chosen && !g.optIn) || chosen?.includes(g.key) || chosen?.includes(g.key.split(':')[0]!));
if (only !== 'postgres') {
  await runGoals('memory store against a hand-written server over Maps', pick([
    { key: 'a', load: mixedLoad, minRatio: 0.85 },
    { key: "a'", load: mixedPagesLoad, minRatio: 0.85 },
    { key: 'b', load: manyUrlsLoad, minRatio: 1.0 },
    { key: "b'", load: manyUrlsPagesLoad, minRatio: 1.0 },
    ...ALL_FORMATS.map((format) => ({ key: `c:${FORMAT_KEYS[format]}`, load: bigPageLoad(format), minRatio: 1.0, maxP99: 1.5 })),
    ...writes(0.9),
    // Measured for docs/scaling.md's table of computed items, without a goal of the issue: BENCH_LOADS=e.
    ...ALL_FORMATS.map((format) => ({ key: `e:${FORMAT_KEYS[format]}`, load: itemLoad(format), optIn: true })),
    // Answers that are errors (404, 412), for docs/scaling.md, without a goal: BENCH_LOADS=f.
    { key: 'f', load: errorLoad, optIn: true },
  ]), baseline, settings);
}
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (only !== 'memory' && databaseUrl) {
  // Both sides read and write their own tables on one PostgreSQL server, seeded alike; the library through
  // its API. Each library setting has a database of its own: the servers of a round all run at once, and a
  // server with a change feed would otherwise hear the writes of the one measured, taking core 0 from it
  // (and dropping what it kept, as another instance's writes do); with a schema each in one database,
  // PostgreSQL still woke their listening sessions on every write (bench/support/own-database.ts).
  // The database on the load's core, never on the server's (bench/support/database-core.ts).
  const pinned = hasTaskset ? pinDatabase(1) : 'taskset missing';
  console.log(`\nPostgreSQL: ${typeof pinned === 'number' ? `its ${pinned} processes pinned to core 1, with the load` : `not pinned (${pinned})`}`);
  const databases: string[] = [];
  for (let i = 0; i < settings.length; i++) databases.push(await ownDatabase(databaseUrl, `${LIBRARY_SCHEMA}_${i}`));
  await Promise.all([seedBaseline(databaseUrl), ...databases.map((url) => seedLibrary(url))]);
  // Their upkeep between rounds, never inside one (bench/support/database-upkeep.ts).
  const upkept = [databaseUrl, ...databases];
  console.log(`autovacuum off on the bench's ${await pauseAutovacuum(upkept)} tables; VACUUM (ANALYZE) of each before every round, ANALYZE once its servers are warm`);
  const env = { BENCH_DATABASE_URL: databaseUrl };
  // The databases rotate among the settings from round to round: two seeded alike still differ (where
  // their rows lie, what the writes of earlier loads added), and a setting that runs the same code as the
  // defaults (the body cache off while the memo keeps every read) was ahead in every round of (b') on its
  // own schema.
  const ownSchemas = settings.map((side, i) => ({ name: side.name, env: side.env, envOf: (r: number) => ({ BENCH_DATABASE_URL: databases[(i + r) % databases.length]! }) }));
  await runGoals('PostgreSQL store against a hand-written server doing one pg query per request', pick([
    { key: 'a', load: mixedLoad, minRatio: 0.9 },
    { key: "a'", load: mixedPagesLoad, minRatio: 0.9 },
    { key: 'b', load: manyUrlsLoad, minRatio: 1.0 },
    { key: "b'", load: manyUrlsPagesLoad, minRatio: 1.0 },
    ...writes(0.9),
  ]), on([baseline], env)[0]!, ownSchemas, postgresCpuMicros() === undefined ? undefined : postgresCpuMicros, () => vacuumBenchTables(upkept), () => analyzeBenchTables(upkept));
} else if (only !== 'memory') {
  console.log('\nPostgreSQL part skipped: no DATABASE_URL (run it under .ci/with-postgres)');
  // Asked for the PostgreSQL half only: nothing was measured, so no goal can be said to be met.
  if (only === 'postgres') misses.push('the PostgreSQL part did not run');
}
const undecidedNote = undecidedGoals.length > 0 ? ` (${undecidedGoals.length} by the median alone, the rounds not deciding: ${undecidedGoals.join('; ')})` : '';
console.log(misses.length > 0 ? `\ngoal not met: ${misses[0]}${misses.length > 1 ? ` (and ${misses.length - 1} more)` : ''}` : goalsRun === 0 ? '\nno goal among the loads run (measured for the tables)' : `\nall goals met${undecidedNote}`);
process.exitCode = misses.length === 0 ? 0 : 1;
