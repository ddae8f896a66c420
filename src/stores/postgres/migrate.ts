// Bringing a schema up to the newest migration, with the search indexes of the declared types.
import type { Pool, PoolClient } from 'pg';
import { checkOut } from './connections.js';
import type { Api } from '../../core/model/api.js';
import { quoteIdentifier, searchIndexes } from './search-indexes.js';
import { MIGRATIONS } from './migrations.js';

/**
 * Brings `schema` up to the newest migration: creates the schema, pg_trgm and the migrations table if
 * needed, then applies the missing migrations in one transaction under an advisory lock, so several
 * instances starting together migrate once, and makes the search indexes `api`'s declarations need.
 * Returns the versions applied now.
 *
 * @example
 * await migrate(pool, 'public', playerApi); // [1, 2, 3, 4, 5, 6, 7, 8] the first time, [] afterwards
 */
export async function migrate(pool: Pool, schema: string, api?: Api): Promise<number[]> {
  const s = quoteIdentifier(schema);
  const client: PoolClient = await checkOut(pool);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    // One lock for every schema: CREATE EXTENSION and CREATE SCHEMA race with each other too.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('player-hypermedia migrate'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const ext = await client.query<{ schema: string }>(
      "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'",
    );
    const trgm = ext.rows[0]!.schema;
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
      version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = await client.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
    const have = new Set(done.rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (have.has(m.version)) continue;
      await client.query(m.sql(s, trgm, schema));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [m.version, m.description]);
      applied.push(m.version);
    }
    if (api) for (const index of searchIndexes(api, s, trgm)) await client.query(index);
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    await client.query('ROLLBACK').catch((failure: Error) => (broken = failure));
    throw error;
  } finally {
    // A session that failed is discarded, not pooled.
    client.release(broken);
  }
}
