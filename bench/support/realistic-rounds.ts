// The rounds of bench/realistic and bench:pg-writes: servers started fresh each round, warmed in turns,
// then measured slice by slice in an order that moves, so that the machine's drift falls on every side alike.
import { median } from './measure.js';
import { inRound, measure, start, stop, type Running, type Sample, type Side } from './realistic-process.js';
import type { Load } from './realistic-loads.js';

/**
 * How long a bench measures: `rounds` rounds, each side warmed `warmup` seconds then measured `seconds`
 * in `slices` turns; `databaseCpu` (e.g. `postgresCpuMicros`) read around each slice when given.
 *
 * @example
 * const timing: Timing = { rounds: 5, seconds: 6, slices: 3, warmup: 12 };
 */
export interface Timing {
  rounds: number;
  seconds: number;
  slices: number;
  warmup: number;
  databaseCpu?: () => number | undefined;
  /** Run before each round's servers start (PostgreSQL: the tables' upkeep, bench/support/database-upkeep.ts). */
  beforeRound?: () => Promise<void>;
  /** Run once a round's servers are warmed, before any is measured (PostgreSQL: ANALYZE, bench/support/database-upkeep.ts). */
  afterWarmup?: () => Promise<void>;
}

/**
 * The servers of a load: each started, then warmed `timing.warmup` seconds in turns of a slice's length, as they
 * are measured. Warmed one after the other, the first would then wait idle while the others warm (36 s
 * for four sides), and a Node process idle that long is slower for a while after (why is not shown;
 * V8 shrinking an idle heap is one candidate): warmed so, the body cache off, the same code as the defaults on the reads of (b) and (b') and
 * warmed after them, was ahead of them in one run by 0.07 and 0.12; warmed in turns, (b') read 1.00 for
 * both (docs/scaling.md).
 */
async function startWarmed(sides: Side[], loads: Load[], r: number, timing: Timing): Promise<Running[]> {
  const servers = await Promise.all(sides.map((side, i) => start(inRound(side, r), loads[i]!.pageSize)));
  const slice = timing.seconds / timing.slices;
  try {
    for (let t = 0; t * slice < timing.warmup; t++) {
      for (let j = 0; j < sides.length; j++) {
        const i = (j + t + r) % sides.length;
        await measure(servers[i]!, loads[i]!, slice);
      }
    }
  } catch (error) {
    await Promise.all(servers.map(stop));
    throw error;
  }
  return servers;
}

/**
 * One round on warmed servers: `timing.slices` slices of the load taking turns (the order rotated each slice
 * and round, and run backwards every other slice), so that the machine's drift, which on a shared
 * 2-core box moves whole seconds by 30% or more, falls on every side alike. Each side has its own load
 * generator (the ETags a client saw are the ones its server gave). Samples add up the slices; p99 is the
 * median of the slices' p99s.
 */
async function round(sides: Side[], servers: Running[], loads: Load[], r: number, timing: Timing): Promise<Map<string, Sample>> {
  const slices = sides.map(() => [] as Sample[]);
  for (let k = 0; k < timing.slices; k++) {
    for (let j = 0; j < sides.length; j++) {
      // Rotated by slice and round, and run backwards every other slice: rotation alone keeps the cyclic
      // order, so each server would always follow the same one (the defaults the baseline, the body cache
      // off the memo off), and what a server leaves behind on the core would always fall on the same next one.
      const at = (j + k + r) % sides.length;
      const i = k % 2 === 0 ? at : sides.length - 1 - at;
      slices[i]!.push(await measure(servers[i]!, loads[i]!, timing.seconds / timing.slices, timing.databaseCpu));
    }
  }
  return new Map(
    sides.map((side, i) => {
      const own = slices[i]!;
      const requests = own.reduce((n, s) => n + s.rps * s.seconds, 0);
      const seconds = own.reduce((n, s) => n + s.seconds, 0);
      const cpu = own.reduce((n, s) => n + s.cpu * s.rps * s.seconds, 0) / requests;
      const sample: Sample = { rps: requests / seconds, p99: median(own.map((s) => s.p99)), cpu, seconds };
      if (own.every((s) => s.db !== undefined)) sample.db = own.reduce((n, s) => n + s.db! * s.rps * s.seconds, 0) / requests;
      return [side.name, sample];
    }),
  );
}

/**
 * `timing.rounds` rounds of a load (numbered from `first`: a run that adds rounds goes on rotating), each on fresh servers warmed `timing.warmup` seconds: one process's speed differs from
 * the next's by more than the machine's drift (V8 compiles each its own way: in one run, the defaults'
 * servers kept once for every round read 0.69x while the body cache off, the same code on that load,
 * read 0.83x, ahead in every round), so each round draws its own.
 *
 * @example
 * const measured = await rounds([baselineSide, librarySide('defaults', {})], mixedLoad, { rounds: 5, seconds: 6, slices: 3, warmup: 12 });
 */
export async function rounds(sides: Side[], makeLoad: () => Load, timing: Timing, first = 0): Promise<Map<string, Sample>[]> {
  const measured: Map<string, Sample>[] = [];
  for (let r = first; r < first + timing.rounds; r++) {
    const loads = sides.map(() => makeLoad());
    await timing.beforeRound?.();
    const servers = await startWarmed(sides, loads, r, timing);
    try {
      await timing.afterWarmup?.();
      measured.push(await round(sides, servers, loads, r, timing));
    } finally {
      await Promise.all(servers.map(stop));
    }
  }
  return measured;
}
