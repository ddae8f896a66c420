// How busy one core of the machine was over some seconds (Linux /proc/stat), for the benches that run
// their load generator and their database on one core and ask whether that core was the limit.
import { readFileSync } from 'node:fs';

/** A core's time in clock ticks: busy (user, nice, system, irq, softirq, steal) and in all. */
export interface CoreTicks {
  busy: number;
  total: number;
}

/**
 * The ticks core `core` has spent busy and in all since boot, or undefined where /proc/stat cannot be
 * read. proc(5): each `cpuN` line is user nice system idle iowait irq softirq steal guest guest_nice
 * (guest time is counted within user already).
 *
 * @example
 * const before = coreTicks(1); // ... load ...
 * const share = busyShare(before, coreTicks(1)); // 0.98: the core was the limit
 */
export function coreTicks(core: number): CoreTicks | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  const line = stat.split('\n').find((l) => l.startsWith(`cpu${core} `));
  if (!line) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy, total: busy + idle! + iowait! };
}

/**
 * The share of the time between two readings the core was busy (0 to 1), or undefined without both.
 *
 * @example
 * busyShare({ busy: 100, total: 200 }, { busy: 190, total: 300 }); // 0.9
 */
export function busyShare(before: CoreTicks | undefined, after: CoreTicks | undefined): number | undefined {
  if (!before || !after || after.total === before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}
