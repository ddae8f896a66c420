// The upkeep of a PostgreSQL bench's tables done between rounds, never inside one: autovacuum off on
// them, VACUUM (ANALYZE) of each before every round, and ANALYZE again once the round's servers are warm.
import pg from 'pg';

/** The tables of the bench's own schemas (named `bench_...`) in the database of `url`. */
async function benchTables(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname LIKE 'bench\\_%' ORDER BY 1`,
  );
  return rows.map((r) => r.name);
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Turns autovacuum off on the tables of the bench's schemas in each database, and returns how many.
 *
 * Why: under the write loads autovacuum visited each database about once a minute and took 0.2-0.6 s of
 * CPU on the database's core (the load's) each time (its log with `log_autovacuum_min_duration = 0`):
 * a quarter of a 2-s slice of whichever side it fell in, a different one each round. Only the bench's
 * own tables (schemas `bench_...`): the server's other databases and tables, and its setting, are left
 * as they are.
 *
 * @example
 * await pauseAutovacuum([baselineUrl, libraryUrl]); // 6
 */
export async function pauseAutovacuum(urls: readonly string[]): Promise<number> {
  let paused = 0;
  for (const url of urls) {
    await withClient(url, async (client) => {
      for (const table of await benchTables(client)) {
        await client.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false, toast.autovacuum_enabled = false)`);
        paused++;
      }
    });
  }
  return paused;
}

/**
 * VACUUM (ANALYZE) of every table of the bench's schemas in each database, one database after the other:
 * what autovacuum would have done, at a moment no side is measured (it also empties the trigram indexes'
 * pending lists, so that every round starts with them empty).
 *
 * @example
 * await vacuumBenchTables([baselineUrl, libraryUrl]);
 */
export async function vacuumBenchTables(urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    await withClient(url, async (client) => {
      // VACUUM runs outside a transaction block: one table a statement.
      for (const table of await benchTables(client)) await client.query(`VACUUM (ANALYZE) ${table}`);
    });
  }
}

/**
 * ANALYZE of every table of the bench's schemas in each database, once a round's servers are warmed and
 * before any is measured: what autovacuum's analyze would have done for tables that grew in the
 * warm-up (autovacuum being off on them), and what makes PostgreSQL plan the servers' prepared
 * statements again (an ANALYZE invalidates the plans cached for the table). Without it, the first
 * round after seeding measured plans made for the seeded 1,000 items (the owners of a batch of appends
 * found by a scan of the whole table, cheaper than nine index probes at that size) on a table 60
 * times larger by the end of the round: (d) POST read 0.34-0.57 of the baseline in that round and
 * 0.73-1.12 in the next four (docs/scaling.md, "The first round after seeding").
 *
 * @example
 * await analyzeBenchTables([baselineUrl, libraryUrl]);
 */
export async function analyzeBenchTables(urls: readonly string[]): Promise<void> {
  for (const url of urls) {
    await withClient(url, async (client) => {
      for (const table of await benchTables(client)) await client.query(`ANALYZE ${table}`);
    });
  }
}
