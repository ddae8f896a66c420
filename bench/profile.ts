// bench/profile: where a request's CPU time goes in the library's server and in the hand-written
// baseline of bench/realistic, under one of its loads (memory store): V8's CPU profiler samples each
// server while it is measured, and the time is shown by layer (the library's src/core directories, its
// stores, formats and adapters; the baseline's own code; Node's HTTP; socket writes; garbage collection)
// in microseconds per request (the profile's shares of the CPU time the process reports), medians of BENCH_ROUNDS rounds of fresh servers warmed as bench/realistic
// warms them; then the library's functions with the most own time. BENCH_LOADS: keys of bench/realistic
// (a, a', b, b', c:FORMAT, d:KIND, e:FORMAT, f), default its worst case on memory, d:post. BENCH_STORE=postgres
// (with DATABASE_URL, or under .ci/with-postgres): both servers over PostgreSQL as bench/realistic's
// PostgreSQL half runs them, each on a database of its own, and the database's CPU a request beside. For
// both, the load's core (1): the load generator's CPU a request and how busy the core was, which says
// whether a side was held back by that core (the database's and the load's) or by waiting.
// BENCH_AGAINST (JSON options): the library with those options in the baseline's place.
import { median } from './support/measure.js';
import { ownDatabase } from './support/own-database.js';
import { postgresCpuMicros } from './support/database-cpu.js';
import { pinDatabase } from './support/database-core.js';
import { analyzeBenchTables } from './support/database-upkeep.js';
import { busyShare, coreTicks } from './support/core-load.js';
import { seedBaseline } from './support/realistic-baseline-pg.js';
import { LIBRARY_SCHEMA, seedLibrary } from './support/realistic-library-pg.js';
import { perRequest, topLibraryFunctions, type CpuProfile } from './support/profile-categories.js';
import { baselineSide, compileServers, librarySide, measure, start, stop, type Running, type Sample, type Side } from './support/realistic-process.js';
import { loadOf } from './support/realistic-loads.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 12);
// Sampling every 500 us: 12,000 samples in 6 s, enough for steps of a microsecond over some 30,000
// requests; every 100 us cost the servers a third of their speed, the library more than the baseline.
const INTERVAL = Number(process.env.BENCH_PROFILE_INTERVAL ?? 500);
const keys = (process.env.BENCH_LOADS ?? 'd:post').split(',');
for (const key of keys) if (!loadOf(key)) throw new Error(`bench/profile: no load "${key}" (a, a', b, b', c:FORMAT, d:KIND, e:FORMAT, f)`);

/** Adds a round's value under `key`. */
const add = (values: Map<string, number[]>, key: string, value: number) => void (values.get(key) ?? values.set(key, []).get(key)!).push(value);
/** The median over the rounds, a round that did not sample the part counting as 0. */
const medianOfRounds = (values: number[] = []) => median([...values, ...Array<number>(ROUNDS - values.length).fill(0)]);

compileServers();
const control = (server: Running, path: string) => fetch(`http://127.0.0.1:${server.controlPort}${path}`);
const profiled = (side: Side): Side => ({ name: side.name, env: { ...side.env, BENCH_PROFILE: String(INTERVAL) } });
// BENCH_AGAINST='{"memoizeAnswers":false}': the defaults against the library with those options instead
// of the baseline (where a setting's CPU goes, e.g. the caches' cost under writes).
const against = process.env.BENCH_AGAINST;
const onPostgres = process.env.BENCH_STORE === 'postgres';
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (onPostgres && !databaseUrl) throw new Error('bench/profile: BENCH_STORE=postgres needs DATABASE_URL (or run under .ci/with-postgres)');
/** On PostgreSQL, each side on its own database, seeded as bench/realistic seeds them. */
async function onDatabases(sides: Side[]): Promise<Side[]> {
  if (!onPostgres) return sides;
  const pinned = pinDatabase(1);
  console.log(`bench/profile: the database ${typeof pinned === 'number' ? `pinned to core 1 (${pinned} processes)` : `not pinned (${pinned})`}`);
  const baselineUrl = await ownDatabase(databaseUrl!, against === undefined ? 'bench_profile_baseline' : `${LIBRARY_SCHEMA}_profile_against`);
  const libraryUrl = await ownDatabase(databaseUrl!, `${LIBRARY_SCHEMA}_profile`);
  await Promise.all([against === undefined ? seedBaseline(baselineUrl) : seedLibrary(baselineUrl), seedLibrary(libraryUrl)]);
  return sides.map((side, i) => ({ name: side.name, env: { ...side.env, BENCH_DATABASE_URL: i === 0 ? baselineUrl : libraryUrl } }));
}
const versus = against === undefined ? baselineSide : librarySide(`options ${against}`, JSON.parse(against) as object);
const sides = await onDatabases([profiled(versus), profiled(librarySide('defaults', {}))]);
const databaseCpu = onPostgres ? postgresCpuMicros : () => undefined;
console.log(`bench/profile${onPostgres ? ' (PostgreSQL)' : ''}: ${ROUNDS} rounds, each server warmed ${WARMUP} s then profiled ${SECONDS} s (a sample every ${INTERVAL} us); servers on core 0, load on core 1`);

for (const key of keys) {
  const makeLoad = loadOf(key)!;
  const byCategory = sides.map(() => new Map<string, number[]>());
  const samples: Sample[][] = sides.map(() => []);
  const plain: Sample[][] = sides.map(() => []);
  /** The load's core (1) over the plain seconds: its busy share, and the load generator's CPU a request. */
  const loadCore: { busy: number | undefined; generator: number }[][] = sides.map(() => []);
  const tops = sides.map(() => new Map<string, number[]>());
  for (let r = 0; r < ROUNDS; r++) {
    const loads = sides.map(() => makeLoad());
    const servers = await Promise.all(sides.map((side, i) => start(side, loads[i]!.pageSize)));
    try {
      // Warmed in turns, as bench/realistic's servers are, then profiled one after the other (the order
      // alternating from round to round).
      for (let t = 0; t < WARMUP / 2; t++) for (let i = 0; i < sides.length; i++) await measure(servers[i]!, loads[i]!, 2);
      // On PostgreSQL, the plans made for the tables as they were seeded made again for them as the warm-up
      // left them (bench/support/database-upkeep.ts, `analyzeBenchTables`).
      if (onPostgres) await analyzeBenchTables(sides.map((side) => side.env.BENCH_DATABASE_URL!));
      for (const i of r % 2 === 0 ? [0, 1] : [1, 0]) {
        // Warmed again first: the second server waited idle while the first was measured twice, and a
        // Node process idle that long is slower for a while after (bench/support/realistic-rounds.ts).
        // Without this, two runs of (d) POST on memory read the library's rate not profiled at 0.68 and
        // 1.55 of the baseline's; with it, 0.95 and 0.92 (bench:realistic: 0.91 that day).
        await measure(servers[i]!, loads[i]!, 2);
        // The same seconds without the profiler first: what sampling costs each server.
        // And how busy the load's core was, and the load generator's own CPU (this process runs it).
        const [core, own] = [coreTicks(1), process.cpuUsage()];
        const measured = await measure(servers[i]!, loads[i]!, SECONDS, databaseCpu);
        const { user, system } = process.cpuUsage(own);
        plain[i]!.push(measured);
        loadCore[i]!.push({ busy: busyShare(core, coreTicks(1)), generator: (user + system) / (measured.rps * measured.seconds) });
        await control(servers[i]!, '/profile/start');
        const sample = await measure(servers[i]!, loads[i]!, SECONDS);
        const profile = (await (await control(servers[i]!, '/profile/stop')).json()) as CpuProfile;
        const requests = sample.rps * sample.seconds;
        samples[i]!.push(sample);
        // The profiler samples wall time: time the server lost to another process on its core is counted
        // to whatever it was running. Each part is scaled so that the parts add up to the CPU time the
        // process itself reports for the same seconds (its shares are the profile's).
        const parts = perRequest(profile, requests);
        let sampled = 0;
        for (const us of parts.values()) sampled += us;
        const scale = sample.cpu / sampled;
        for (const [category, us] of parts) add(byCategory[i]!, category, us * scale);
        if (i === 1 || against !== undefined) for (const [name, us] of topLibraryFunctions(profile, requests, 40)) add(tops[i]!, name, us * scale);
      }
    } finally {
      await Promise.all(servers.map(stop));
    }
  }
  const med = (i: number, category: string) => medianOfRounds(byCategory[i]!.get(category));
  const categories = [...new Set(byCategory.flatMap((m) => [...m.keys()]))].sort((a, b) => Math.max(med(1, b), med(0, b)) - Math.max(med(1, a), med(0, a)));
  console.log(`\n${makeLoad().name}: CPU us per request by part (median of ${ROUNDS} rounds)`);
  console.log(`  ${'part'.padEnd(36)} ${'library'.padStart(8)} ${(against === undefined ? 'baseline' : 'against').padStart(9)}`);
  let totals = [0, 0];
  for (const category of categories) {
    const [lib, base] = [med(1, category), med(0, category)];
    totals = [totals[0]! + lib, totals[1]! + base];
    if (lib >= 0.5 || base >= 0.5) console.log(`  ${category.padEnd(36)} ${lib.toFixed(1).padStart(8)} ${base.toFixed(1).padStart(9)}`);
  }
  console.log(`  ${'sum of the parts'.padEnd(36)} ${totals[0]!.toFixed(1).padStart(8)} ${totals[1]!.toFixed(1).padStart(9)}`);
  const cpu = (of: Sample[][], i: number) => median(of[i]!.map((s) => s.cpu)).toFixed(1);
  console.log(`  ${'process CPU a request (profiled)'.padEnd(36)} ${cpu(samples, 1).padStart(8)} ${cpu(samples, 0).padStart(9)}`);
  console.log(`  ${'the same, not profiled'.padEnd(36)} ${cpu(plain, 1).padStart(8)} ${cpu(plain, 0).padStart(9)}`);
  if (onPostgres) {
    const db = (i: number) => median(plain[i]!.map((s) => s.db ?? 0)).toFixed(1);
    console.log(`  ${'database CPU a request (not profiled)'.padEnd(36)} ${db(1).padStart(8)} ${db(0).padStart(9)}`);
  }
  const generator = (i: number) => median(loadCore[i]!.map((s) => s.generator)).toFixed(1);
  console.log(`  ${'load generator CPU a request'.padEnd(36)} ${generator(1).padStart(8)} ${generator(0).padStart(9)}`);
  if (loadCore.every((side) => side.every((s) => s.busy !== undefined))) {
    const busy = (i: number) => `${(median(loadCore[i]!.map((s) => s.busy!)) * 100).toFixed(0)}%`;
    console.log(`  ${`the load's core busy${onPostgres ? ' (with the database)' : ''}`.padEnd(36)} ${busy(1).padStart(8)} ${busy(0).padStart(9)}`);
  }
  const rps = (i: number) => median(plain[i]!.map((s) => s.rps)).toFixed(0);
  console.log(`  ${'requests/s (not profiled)'.padEnd(36)} ${rps(1).padStart(8)} ${rps(0).padStart(9)}`);
  for (const i of against === undefined ? [1] : [1, 0]) {
    console.log(`  ${i === 1 ? "the library's" : `${sides[0]!.name}: its`} functions with the most own time (us per request, median of the rounds):`);
    const ranked = [...tops[i]!].map(([name, values]) => [name, medianOfRounds(values)] as const).sort((a, b) => b[1] - a[1]);
    for (const [name, us] of ranked.slice(0, 15)) console.log(`    ${us.toFixed(2).padStart(6)}  ${name}`);
  }
}
