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
    const count = big
      ? (await client.query(`SELECT l.count FROM ${s}.lists l JOIN ${s}.items o ON o.item = l.owner WHERE o.type = 'player' AND o.id = 'big' AND l.relation = 'friends'`)).rows[0]?.count ?? 0
      : 0;
    if (count === BIG) return;
    const started = Date.now();
    await client.query('BEGIN');
    await client.query(`TRUNCATE ${s}.member_keys, ${s}.media, ${s}.member_gaps, ${s}.members, ${s}.lists, ${s}.items`);
    await client.query(`INSERT INTO ${s}.items (type, id, data) VALUES ('player', 'big', '{"alias":"big","displayName":"Big"}'), ('player', 'small', '{"alias":"small","displayName":"Small"}')`);
    await client.query(`INSERT INTO ${s}.items (type, id, data)
      SELECT 'player', 'p' || i, jsonb_build_object('alias', 'alias' || i, 'displayName', 'Player ' || i) FROM generate_series(1, ${BIG}) i`);
    await client.query(`INSERT INTO ${s}.lists (owner, relation, count, list_end)
      SELECT item, 'friends', CASE id WHEN 'big' THEN ${BIG} ELSE ${SMALL} END, CASE id WHEN 'big' THEN ${BIG} ELSE ${SMALL} END
      FROM ${s}.items WHERE type = 'player' AND id IN ('big', 'small')`);
    for (const [owner, n] of [['big', BIG], ['small', SMALL]] as const) {
      await client.query(`INSERT INTO ${s}.members (list, member, position)
        SELECT l.list, m.item, i FROM generate_series(1, ${n}) i
        JOIN ${s}.items m ON m.type = 'player' AND m.id = 'p' || i
        CROSS JOIN (SELECT l.list FROM ${s}.lists l JOIN ${s}.items o ON o.item = l.owner WHERE o.type = 'player' AND o.id = '${owner}' AND l.relation = 'friends') l`);
    }
    await client.query('COMMIT');
    await client.query(`ANALYZE ${s}.items; ANALYZE ${s}.lists; ANALYZE ${s}.members`);
    console.log(`seeded ${BIG} friends in schema ${schema} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await client.end();
  }
}
