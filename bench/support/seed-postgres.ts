// Bulk data for the PostgreSQL benchmarks: `big` with 100,000 friends and `small` with 100, written in SQL.
import pg from 'pg';
import { PostgresPlayerStore } from '../../src/stores/postgres/index.js';

/** How many friends `big` and `small` have. */
export const BIG = 100_000;
export const SMALL = 100;

/**
 * Creates (once) a schema with players p1..p100000, `big` (all of them as friends, in order) and `small`
 * (the first 100). Rows are written with set-based SQL in the store's layout, since 100,000 single
 * writes through the store API would take minutes; the store is then used as is.
 *
 * @example
 * await seedFriendsBench(process.env.DATABASE_URL!, 'bench_http');
 */
export async function seedFriendsBench(url: string, schema: string): Promise<void> {
  const store = new PostgresPlayerStore({ connectionString: url, schema });
  await store.migrate();
  const big = await store.getPlayer('big');
  await store.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const s = `"${schema}"`;
    const count = big ? (await client.query(`SELECT friend_count FROM ${s}.players WHERE player_id = 'big'`)).rows[0].friend_count : 0;
    if (count === BIG) return;
    const started = Date.now();
    await client.query('BEGIN');
    await client.query(`TRUNCATE ${s}.idempotency_keys, ${s}.avatars, ${s}.friendships, ${s}.players`);
    await client.query(`INSERT INTO ${s}.players (player_id, alias, display_name, friend_count) VALUES ('big', 'big', 'Big', ${BIG}), ('small', 'small', 'Small', ${SMALL})`);
    await client.query(`INSERT INTO ${s}.players (player_id, alias, display_name)
      SELECT 'p' || i, 'alias' || i, 'Player ' || i FROM generate_series(1, ${BIG}) i`);
    await client.query(`INSERT INTO ${s}.friendships (owner, friend, position) SELECT 'big', 'p' || i, i FROM generate_series(1, ${BIG}) i`);
    await client.query(`INSERT INTO ${s}.friendships (owner, friend, position) SELECT 'small', 'p' || i, i FROM generate_series(1, ${SMALL}) i`);
    await client.query('COMMIT');
    await client.query(`ANALYZE ${s}.players`);
    await client.query(`ANALYZE ${s}.friendships`);
    console.log(`seeded ${BIG} friends in schema ${schema} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await client.end();
  }
}
