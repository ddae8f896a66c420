// Benchmark helpers: time a function in rounds, interleaving candidates, and report median ratios.
import { performance } from 'node:perf_hooks';

/** A named function to time; `run` is called `iterations` times per round. */
export interface Candidate {
  name: string;
  run: () => unknown;
}

/** Median of a list of numbers. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * A distribution-free confidence interval for the median of `values` (order statistics, binomial with
 * p = 1/2): the widest-inside pair [x(k), x(n+1-k)] whose coverage is at least `confidence`. With five
 * values it is [min, max] (93.75%); with nine, the second lowest to the second highest (96.1%).
 *
 * @example
 * medianInterval([0.95, 0.75, 0.88, 0.77, 0.90]); // { low: 0.75, high: 0.95, confidence: 0.9375 }
 */
export function medianInterval(values: number[], confidence = 0.9): { low: number; high: number; confidence: number } {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  // P(X < k) for X ~ Binomial(n, 1/2): the chance that fewer than k values fall below the median.
  const below = (k: number) => {
    let sum = 0;
    let term = 1; // C(n, 0)
    for (let i = 0; i < k; i++) {
      sum += term;
      term = (term * (n - i)) / (i + 1);
    }
    return sum / 2 ** n;
  };
  let k = 1;
  while (k + 1 <= (n + 1) / 2 && 1 - 2 * below(k + 1) >= confidence) k++;
  return { low: s[k - 1] ?? NaN, high: s[n - k] ?? NaN, confidence: 1 - 2 * below(k) };
}

/**
 * Whether rounds whose ratios are `values` decide a goal of `goal`: met when the median's interval
 * (`medianInterval`) lies at or above it, missed when below, undefined while it straddles the goal.
 *
 * @example
 * decided([0.95, 0.75, 0.88, 0.77, 0.90], 0.85); // undefined: 0.75-0.95 holds 0.85
 * decided([0.71, 0.70, 0.78, 0.69, 0.74], 0.9); // 'missed'
 */
export function decided(values: number[], goal: number, confidence = 0.9): 'met' | 'missed' | undefined {
  const { low, high, confidence: covered } = medianInterval(values, confidence);
  // Too few rounds for the confidence asked (three give 75%): nothing is decided yet.
  if (covered < confidence) return undefined;
  if (low >= goal) return 'met';
  if (high < goal) return 'missed';
  return undefined;
}

/**
 * Times each candidate in `rounds` interleaved rounds (so load on the machine hits all of them alike)
 * and returns the median microseconds per call of each.
 */
export function compare(candidates: Candidate[], options: { rounds?: number; iterations?: number; warmup?: number } = {}): Map<string, number> {
  const rounds = options.rounds ?? 9;
  const iterations = options.iterations ?? 2000;
  for (const c of candidates) for (let i = 0; i < (options.warmup ?? iterations); i++) c.run();
  const samples = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  let sink: unknown;
  for (let r = 0; r < rounds; r++) {
    for (const c of candidates) {
      const start = performance.now();
      for (let i = 0; i < iterations; i++) sink = c.run();
      samples.get(c.name)!.push(((performance.now() - start) * 1000) / iterations);
    }
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return new Map([...samples].map(([name, list]) => [name, median(list)]));
}

/** Prints a table of medians and each candidate's ratio to `baseline`. */
export function report(title: string, medians: Map<string, number>, baseline: string): void {
  const base = medians.get(baseline)!;
  console.log(`\n${title} (median us per call; ratio = time / ${baseline})`);
  for (const [name, us] of medians) console.log(`  ${name.padEnd(34)} ${us.toFixed(2).padStart(9)} us   ${(us / base).toFixed(2)}x`);
}

/** A named async function to time; `run` is awaited `iterations` times per round. */
export interface AsyncCandidate {
  name: string;
  run: () => Promise<unknown>;
}

/**
 * Like `compare`, for async work (a fetch handler): interleaved rounds, each call awaited, and the
 * median microseconds per call of each candidate. Also reports the process CPU time per call, which
 * is what a loaded machine distorts least.
 */
export async function compareAsync(
  candidates: AsyncCandidate[],
  options: { rounds?: number; iterations?: number; warmup?: number } = {},
): Promise<{ wall: Map<string, number>; cpu: Map<string, number> }> {
  const rounds = options.rounds ?? 9;
  const iterations = options.iterations ?? 2000;
  for (const c of candidates) for (let i = 0; i < (options.warmup ?? iterations); i++) await c.run();
  const wall = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  const cpu = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of candidates) {
      const start = performance.now();
      const startCpu = process.cpuUsage();
      for (let i = 0; i < iterations; i++) await c.run();
      const used = process.cpuUsage(startCpu);
      wall.get(c.name)!.push(((performance.now() - start) * 1000) / iterations);
      cpu.get(c.name)!.push((used.user + used.system) / iterations);
    }
  }
  const medians = (m: Map<string, number[]>) => new Map([...m].map(([name, list]) => [name, median(list)]));
  return { wall: medians(wall), cpu: medians(cpu) };
}
