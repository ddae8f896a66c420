// The PostgreSQL server of a bench pinned to the load generator's core, so that it never takes the core
// of the server measured (Linux sched_setaffinity through taskset).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Pins every process named `postgres` alive now (the postmaster, its backends and background workers)
 * to `core`; the backends the postmaster forks later inherit its affinity. Returns how many were
 * pinned, or a reason none was: no /proc, no taskset, or processes this user may not change (run the
 * bench as root or as the server's owner, as .ci/with-postgres does).
 *
 * Why: the benches' servers run alone on core 0 and their load on core 1; a database left to float ran
 * on either, taking core 0 from the server measured at moments that differ from round to round, and
 * the rounds of a write load spread by 0.3 and more (docs/scaling.md, "The rounds' spread"). A
 * database of its own machine, as deployed, takes nothing from the server's core.
 *
 * @example
 * const pinned = pinDatabase(1); // 7, or 'taskset failed: ...'
 */
export function pinDatabase(core: number): number | string {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 'no /proc to find the database processes in';
  }
  let pinned = 0;
  for (const name of names) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    let comm: string;
    try {
      comm = readFileSync(`/proc/${name}/comm`, 'utf8').trim();
    } catch {
      continue; // gone since the listing
    }
    if (comm !== 'postgres') continue;
    const set = spawnSync('taskset', ['-a', '-cp', String(core), name], { encoding: 'utf8' });
    if (set.error) return `taskset failed: ${set.error.message}`;
    // A backend that exited since the listing is not a failure; one we may not change is.
    if (set.status !== 0 && /not permitted/i.test(set.stderr)) return `taskset failed: ${set.stderr.trim()}`;
    if (set.status === 0) pinned++;
  }
  return pinned > 0 ? pinned : 'no postgres process on this machine (a remote database is not pinned)';
}
