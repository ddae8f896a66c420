// The PostgreSQL benches' upkeep between rounds (bench/support/database-upkeep.ts): autovacuum off on the
// tables of the bench's own schemas only, a VACUUM (ANALYZE) of each that leaves them freshly vacuumed, and
// an ANALYZE that gives the planner their size after a warm-up grew them; and the load's core reading of bench/profile (bench/support/core-load.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { ownDatabase } from '../bench/support/own-database.js';
import { analyzeBenchTables, pauseAutovacuum, vacuumBenchTables } from '../bench/support/database-upkeep.js';
import { busyShare, coreTicks } from '../bench/support/core-load.js';
import { POSTGRES_SKIP, TEST_DATABASE_URL, noteSkip } from './support/postgres.js';

const core = suite('coreTicks and busyShare: how busy a core was');

core('should read a core of this machine, its busy ticks within its total and growing', () => {
  const before = coreTicks(0);
  if (before === undefined) return; // no /proc/stat (not Linux): the bench prints nothing then
  assert.ok(before.busy > 0 && before.busy <= before.total);
  const spinUntil = Date.now() + 50;
  while (Date.now() < spinUntil);
  const after = coreTicks(0)!;
  assert.ok(after.total >= before.total && after.busy >= before.busy);
  assert.is(coreTicks(4096), undefined, 'a core the machine does not have');
});

core('should give the busy share of the time between two readings', () => {
  assert.is(busyShare({ busy: 100, total: 200 }, { busy: 190, total: 300 }), 0.9);
  assert.is(busyShare({ busy: 100, total: 200 }, { busy: 100, total: 200 }), undefined, 'no time between them');
  assert.is(busyShare(undefined, { busy: 1, total: 2 }), undefined);
});

core.run();

const upkeep = suite('PostgreSQL: the benches\' upkeep between rounds');

if (POSTGRES_SKIP) {
  noteSkip();
  upkeep.skip('should turn autovacuum off on the bench schemas\' tables only, and vacuum and analyze them', () => undefined);
  upkeep.run();
} else {
  upkeep('should turn autovacuum off on the bench schemas\' tables only, and vacuum and analyze them', async () => {
    const url = await ownDatabase(TEST_DATABASE_URL!, `upkeep_${process.pid}`);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA bench_a; CREATE TABLE bench_a.t (n int); CREATE TABLE bench_a.u (n int);
        CREATE SCHEMA benchmark; CREATE TABLE benchmark.t (n int); CREATE TABLE public.t (n int);
        INSERT INTO bench_a.t SELECT generate_series(1, 1000); DELETE FROM bench_a.t WHERE n % 2 = 0`);
      assert.is(await pauseAutovacuum([url]), 2, 'bench_a.t and bench_a.u, not benchmark.t (no underscore) nor public.t');
      const options = await client.query<{ name: string; options: string[] | null }>(
        `SELECT n.nspname || '.' || c.relname AS name, c.reloptions AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relname IN ('t', 'u') AND c.relkind = 'r' ORDER BY 1`,
      );
      assert.equal(
        options.rows.map((r) => [r.name, r.options]),
        [['bench_a.t', ['autovacuum_enabled=false']], ['bench_a.u', ['autovacuum_enabled=false']], ['benchmark.t', null], ['public.t', null]],
      );
      await vacuumBenchTables([url]);
      // pg_stat's counters reach the view at the end of the vacuuming session's transactions.
      const stats = await client.query<{ relname: string; vacuumed: boolean; analyzed: boolean; dead: string }>(
        `SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed, n_dead_tup::text AS dead
         FROM pg_stat_user_tables WHERE schemaname = 'bench_a' ORDER BY 1`,
      );
      assert.equal(stats.rows, [
        { relname: 't', vacuumed: true, analyzed: true, dead: '0' },
        { relname: 'u', vacuumed: true, analyzed: true, dead: '0' },
      ]);
      const other = await client.query<{ vacuumed: boolean }>(`SELECT last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE schemaname = 'public'`);
      assert.equal(other.rows, [{ vacuumed: false }], 'public.t left alone');

      // A warm-up grows a table 40-fold; the planner's estimate follows once analyzeBenchTables ran (20,500
      // rows: fewer than ANALYZE samples, so counted exactly).
      await client.query(`INSERT INTO bench_a.t SELECT generate_series(1, 20000); INSERT INTO bench_a.u SELECT generate_series(1, 10)`);
      const tuples = async () =>
        (await client.query<{ name: string; n: number }>(
          `SELECT n.nspname || '.' || c.relname AS name, c.reltuples::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind = 'r' AND n.nspname = 'bench_a' ORDER BY 1`,
        )).rows;
      assert.equal(await tuples(), [{ name: 'bench_a.t', n: 500 }, { name: 'bench_a.u', n: 0 }], 'as the VACUUM (ANALYZE) left them');
      await analyzeBenchTables([url]);
      assert.equal(await tuples(), [{ name: 'bench_a.t', n: 20500 }, { name: 'bench_a.u', n: 10 }], 'each table of the bench schema analyzed');
    } finally {
      await client.end();
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS upkeep_${process.pid} WITH (FORCE)`);
      await admin.end();
    }
  });
  upkeep.run();
}
