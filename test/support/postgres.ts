// Test helpers for PostgreSQL: the scratch database of .ci/with-postgres, one schema per store, a skip notice.
import pg from 'pg';
import { PostgresPlayerStore, PostgresStore } from '../../src/stores/postgres/index.js';
import type { Api } from '../../src/core/model/api.js';

/** The database the PostgreSQL tests use (never DATABASE_URL: the tests create and drop schemas). */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

/** Why the PostgreSQL tests are skipped, or undefined when they run. */
export const POSTGRES_SKIP = TEST_DATABASE_URL
  ? undefined
  : 'PostgreSQL suite skipped: TEST_DATABASE_URL is not set. Run it with `.ci/with-postgres npm test` ' +
    '(starts a scratch PostgreSQL 15), or set TEST_DATABASE_URL=postgres://... to a database you can create schemas in.';

/** Prints the skip notice in the form test/run.mjs repeats in its summary. */
export function noteSkip(): void {
  if (POSTGRES_SKIP) console.log(`note: ${POSTGRES_SKIP}`);
}

let counter = 0;
const schemas: string[] = [];

/** A pool on the test database (undefined when skipped). */
export const testPool = TEST_DATABASE_URL ? new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 8 }) : undefined;

/** A migrated store in a new schema of its own. */
export async function freshPostgresStore(prefix = 't'): Promise<PostgresPlayerStore> {
  const schema = `${prefix}_${process.pid}_${++counter}`;
  schemas.push(schema);
  const store = new PostgresPlayerStore({ pool: testPool!, schema });
  await store.migrate();
  return store;
}

/**
 * A generic PostgresStore for `api` in a new schema of its own, migrated (search indexes included).
 *
 * @example
 * const store = await freshGenericPostgresStore(storeKitApi, 'kit');
 */
export async function freshGenericPostgresStore(api: Api, prefix = 't'): Promise<PostgresStore> {
  const schema = `${prefix}_${process.pid}_${++counter}`;
  schemas.push(schema);
  const store = new PostgresStore({ pool: testPool!, schema, api });
  await store.migrate();
  return store;
}

/**
 * A PostgresStore for `api` that tells changes (LISTEN), on a pool and schema of its own, and how to
 * dispose of all three.
 *
 * @example
 * const { store, dispose } = await watchingPostgresStore(teamsApi, 'teams');
 */
export async function watchingPostgresStore(api: Api, prefix: string, max = 8): Promise<{ store: PostgresStore; dispose: () => Promise<void> }> {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max });
  const schema = `${prefix}_${process.pid}`;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresStore({ api, pool, schema, watchChanges: true });
  await store.migrate();
  return {
    store,
    dispose: async () => {
      await store.close();
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    },
  };
}

/**
 * Counts the store's prepared statements run on any node-postgres client from now on, by their key
 * (`ph_<key>_<schema>` named for `schema`), until `restore`.
 *
 * @example
 * const counting = countStatements(schema);
 * await service.fetch(request);
 * counting.statements; // ['listMembers']
 * counting.restore();
 */
export function countStatements(schema: string): { statements: string[]; restore: () => void } {
  const statements: string[] = [];
  const query = pg.Client.prototype.query;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as { name?: string } | string;
    if (typeof q === 'object' && q?.name?.startsWith('ph_') && q.name.endsWith(`_${schema}`)) statements.push(q.name.slice(3, q.name.length - schema.length - 1));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  };
  return { statements, restore: () => void (pg.Client.prototype.query = query) };
}

/** Drops the schemas this process created and ends the pool. */
export async function dropTestSchemas(): Promise<void> {
  if (!testPool) return;
  for (const schema of schemas.splice(0)) await testPool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await testPool.end();
}

/**
 * SQL taking a migrated schema (quoted name `s`) back from migration 11 to the tables migration 10 left:
 * the foreign keys from `members` and `member_keys` to `lists`, with their cascade, in place of the
 * trigger. For tests of what migrating does to a schema of an earlier release.
 *
 * @example
 * await pool.query(`${beforeListCascade(s)}; DELETE FROM ${s}.schema_migrations WHERE version = 11`);
 */
export function beforeListCascade(s: string): string {
  return `DROP TRIGGER lists_deleted ON ${s}.lists; DROP FUNCTION ${s}.delete_list_rows();
    ALTER TABLE ${s}.members ADD CONSTRAINT members_list_fkey FOREIGN KEY (list) REFERENCES ${s}.lists ON DELETE CASCADE;
    ALTER TABLE ${s}.member_keys ADD CONSTRAINT member_keys_list_fkey FOREIGN KEY (list) REFERENCES ${s}.lists ON DELETE CASCADE`;
}
