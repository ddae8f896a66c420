// The CPU time of the PostgreSQL server's processes on this machine (Linux /proc), for the benches that
// say how much of a write's cost is the database's.
import { readdirSync, readFileSync } from 'node:fs';

/** Linux counts process CPU time in clock ticks of 1/100 s (USER_HZ) in /proc/<pid>/stat. */
const MICROS_PER_TICK = 10_000;

/**
 * The user and system CPU time, in microseconds, of every process named `postgres` (the postmaster,
 * its backends and its background workers) alive now; undefined where /proc cannot be read. A
 * backend that exits between two readings takes its time with it: the benches read it around loads
 * whose pooled connections stay open.
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
  let ticks = 0;
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
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * MICROS_PER_TICK;
}
