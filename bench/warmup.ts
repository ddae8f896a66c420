// bench/warmup: how a fresh server's speed rises while V8 compiles it, the library's defaults against the
// hand-written baseline of bench/realistic (memory store). Both start together; then they take turns,
// PHASES phases of BENCH_PHASE_SECONDS each; each phase prints both servers' requests/s and their ratio,
// and the end the median ratio of the first third of the phases and of the last. bench/realistic measures
// after its warm-up (BENCH_WARMUP): this shows what that leaves out. BENCH_LOAD: a, a', b, b', or a write
// kind (json-patch, merge-patch, put, post); BENCH_RUNS fresh pairs of servers, one after the other.
import { median } from './support/measure.js';
import { baselineSide, compileServers, librarySide, measure, start, stop, type Sample, type Side } from './support/realistic-process.js';
import { manyUrlsLoad, manyUrlsPagesLoad, mixedLoad, mixedPagesLoad, writeLoad, type Load, type WriteKind } from './support/realistic-loads.js';

const PHASES = Number(process.env.BENCH_PHASES ?? 12);
const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 2);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const loadName = process.env.BENCH_LOAD ?? 'a';
const LOADS: Record<string, () => Load> = { a: mixedLoad, "a'": mixedPagesLoad, b: manyUrlsLoad, "b'": manyUrlsPagesLoad };
const WRITES: readonly string[] = ['json-patch', 'merge-patch', 'put', 'post'];
if (!(loadName in LOADS) && !WRITES.includes(loadName)) throw new Error(`bench/warmup: BENCH_LOAD must be one of ${[...Object.keys(LOADS), ...WRITES].join(', ')}`);
const makeLoad = LOADS[loadName] ?? writeLoad(loadName as WriteKind);

compileServers();
const sides: Side[] = [baselineSide, librarySide('defaults', {})];
console.log(`bench/warmup: load ${loadName}, ${RUNS} runs of ${PHASES} phases of ${PHASE_SECONDS} s per server, taking turns`);
const byPhase: number[][] = Array.from({ length: PHASES }, () => []);
for (let run = 0; run < RUNS; run++) {
  const loads = sides.map(() => makeLoad());
  const servers = await Promise.all(sides.map((side, i) => start(side, loads[i]!.pageSize)));
  try {
    for (let p = 0; p < PHASES; p++) {
      // The order alternates from phase to phase, so that neither side always follows the other's turn.
      const measured: Sample[] = [];
      for (const i of p % 2 === 0 ? [0, 1] : [1, 0]) measured[i] = await measure(servers[i]!, loads[i]!, PHASE_SECONDS);
      const [base, library] = measured;
      const ratio = library!.rps / base!.rps;
      byPhase[p]!.push(ratio);
      const loaded = `${(p * PHASE_SECONDS).toString().padStart(3)}-${((p + 1) * PHASE_SECONDS).toString().padEnd(3)} s`;
      console.log(`  run ${run + 1}, load ${loaded}  baseline ${base!.rps.toFixed(0).padStart(6)} req/s  defaults ${library!.rps.toFixed(0).padStart(6)} req/s  ratio ${ratio.toFixed(2)}`);
    }
  } finally {
    await Promise.all(servers.map(stop));
  }
}
const third = Math.max(1, Math.floor(PHASES / 3));
const early = byPhase.slice(0, third).flat();
const late = byPhase.slice(-third).flat();
console.log(`\nfirst ${third * PHASE_SECONDS} s of load: median ratio ${median(early).toFixed(2)}; last ${third * PHASE_SECONDS} s (from ${(PHASES - third) * PHASE_SECONDS} s): ${median(late).toFixed(2)}`);
