// The CPU time of the PostgreSQL server's processes on this machine (Linux /proc), for the benches that
// say how much of a write's cost is the database's.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux counts process CPU time in clock ticks of 1/100 s (USER_HZ) in /proc/<pid>/stat. */
const MICROS_PER_TICK = 10_000;

/**
 * The user and system CPU time, in microseconds, the processes named `postgres` (the postmaster, its
 * backends and its background workers) have used, as a counter that only grows: each reading adds what
 * every process seen at the last reading has used since, and what a process born since has used in all;
 * undefined where /proc cannot be read. A process that exits between two readings (an autovacuum
 * worker, mostly) takes only its time since the last reading with it. Summing the processes alive at
 * each reading instead, a worker that exited in a slice took its earlier time away from the slice: one
 * slice of (d) read -77 us a write (docs/scaling.md, "The rounds' spread").
 *
 * @example
 * const before = postgresCpuMicros(); // ... load ... ; (postgresCpuMicros()! - before!) / requests
 */
export function postgresCpuMicros(): number | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const now = new Map<string, number>();
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    // proc(5): "pid (comm) state ..."; utime and stime are fields 14 and 15, the 12th and 13th after comm.
    const close = stat.lastIndexOf(')');
    if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
    const fields = stat.slice(close + 2).split(' ');
    // A process by its pid and start time (field 22, the 20th after comm): a pid may be used again.
    now.set(`${name}:${fields[19]}`, Number(fields[11]) + Number(fields[12]));
  }
  for (const [process, ticks] of now) {
    const before = lastTicks.get(process);
    // A process born since the last reading counts in all; at the first reading nothing has been counted.
    if (before !== undefined) totalTicks += ticks - before;
    else if (lastTicks.size > 0) totalTicks += ticks;
  }
  lastTicks = now;
  return totalTicks * MICROS_PER_TICK;
}

/** The CPU ticks of each process at the last reading, by `pid:starttime`, and the counter's total. */
let lastTicks = new Map<string, number>();
let totalTicks = 0;
