// The PostgreSQL schema of the player store, as numbered migrations applied on demand by migrate().
import type { Pool, PoolClient } from 'pg';
import { checkOut } from './connections.js';

/** One schema change: applied once, in order, and recorded in `schema_migrations`. */
export interface Migration {
  version: number;
  description: string;
  /** SQL for a schema whose quoted name is `s`, with pg_trgm's operator classes in schema `trgm`. */
  sql: (s: string, trgm: string) => string;
}

/** The NOTIFY channel of changed players: payload `schema\nplayerId`. */
export const CHANGE_CHANNEL = 'player_hypermedia_changes';

/**
 * The migrations the library ships, oldest first.
 *
 * - Revisions come from one sequence shared by players and avatars, so a revision is never reused, even
 *   for an id deleted and created again.
 * - Friend lists keep a 1-based `position` per owner, appended at the owner's `list_end`; a removal
 *   leaves its position as a row of `list_gaps` instead of shifting every later friend (migration 3),
 *   and a list with many gaps is renumbered in the background (list-gaps.ts). Page N starts at the
 *   position the gaps give for rank `offset + 1` and is an index range of `(owner, position)`, O(page
 *   size + gaps) at any page; the list's length is the owner's `friend_count`, kept in the same
 *   transaction.
 * - Search matches `lower(alias)` / `lower(display_name)` with LIKE through pg_trgm GIN indexes.
 *
 * @example
 * MIGRATIONS.at(-1)?.version; // the schema version this release expects
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'players, friendships, avatars, idempotency keys',
    sql: (s, trgm) => `
      CREATE SEQUENCE ${s}.revision_seq;
      CREATE TABLE ${s}.players (
        player_id text PRIMARY KEY,
        alias text NOT NULL,
        display_name text,
        image text,
        revision bigint NOT NULL DEFAULT nextval('${s}.revision_seq'),
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        friend_count integer NOT NULL DEFAULT 0 CHECK (friend_count >= 0)
      );
      CREATE INDEX players_alias_trgm ON ${s}.players USING gin (lower(alias) ${trgm}.gin_trgm_ops);
      CREATE INDEX players_display_name_trgm ON ${s}.players USING gin (lower(display_name) ${trgm}.gin_trgm_ops);
      CREATE TABLE ${s}.friendships (
        owner text NOT NULL REFERENCES ${s}.players ON DELETE CASCADE,
        -- Deferred: deletePlayer removes the player, then its memberships (shifting positions) in one transaction.
        friend text NOT NULL REFERENCES ${s}.players DEFERRABLE INITIALLY DEFERRED,
        position integer NOT NULL,
        PRIMARY KEY (owner, friend)
      );
      CREATE INDEX friendships_owner_position ON ${s}.friendships (owner, position) INCLUDE (friend);
      CREATE INDEX friendships_friend ON ${s}.friendships (friend);
      CREATE TABLE ${s}.avatars (
        player_id text PRIMARY KEY REFERENCES ${s}.players ON DELETE CASCADE,
        bytes bytea NOT NULL,
        content_type text NOT NULL,
        revision bigint NOT NULL DEFAULT nextval('${s}.revision_seq'),
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE TABLE ${s}.idempotency_keys (
        owner text NOT NULL REFERENCES ${s}.players ON DELETE CASCADE,
        key text NOT NULL,
        fingerprint text NOT NULL,
        friend text NOT NULL REFERENCES ${s}.players ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (owner, key)
      );
      CREATE INDEX idempotency_keys_friend ON ${s}.idempotency_keys (friend);
      CREATE INDEX idempotency_keys_created_at ON ${s}.idempotency_keys (created_at);
    `,
  },
  {
    version: 2,
    description: 'changes of players and avatars notified (LISTEN/NOTIFY) to every instance',
    // NOTIFY is delivered when the writing transaction commits, and never for one that rolls back
    // (PostgreSQL manual, "NOTIFY"): every instance hears of exactly the committed changes. A friend
    // list change updates its owner's row (friend_count, revision), so the players table covers it.
    sql: (s) => `
      CREATE FUNCTION ${s}.notify_change() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_SCHEMA || chr(10) || CASE WHEN TG_OP = 'DELETE' THEN OLD.player_id ELSE NEW.player_id END);
        RETURN NULL;
      END $f$;
      CREATE TRIGGER players_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.players FOR EACH ROW EXECUTE FUNCTION ${s}.notify_change();
      CREATE TRIGGER avatars_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.avatars FOR EACH ROW EXECUTE FUNCTION ${s}.notify_change();
    `,
  },
  {
    version: 3,
    description: 'removals leave gaps in friend list positions (list_gaps, list_end) instead of shifting the rest',
    // Lists are dense when this runs, so each list ends at its count and has no gaps. Filling list_end
    // changes no player anyone sees: the trigger is off meanwhile, so no change is announced.
    sql: (s) => `
      ALTER TABLE ${s}.players ADD COLUMN list_end integer NOT NULL DEFAULT 0;
      ALTER TABLE ${s}.players DISABLE TRIGGER players_changed;
      UPDATE ${s}.players SET list_end = friend_count WHERE friend_count > 0;
      ALTER TABLE ${s}.players ENABLE TRIGGER players_changed;
      CREATE TABLE ${s}.list_gaps (
        owner text NOT NULL REFERENCES ${s}.players ON DELETE CASCADE,
        position integer NOT NULL,
        PRIMARY KEY (owner, position)
      );
    `,
  },
  {
    version: 4,
    description: 'abort_write(reason): ends a one-statement write whose later step found nothing to do',
    // A write of several steps in one statement (with data-modifying CTEs) is atomic: calling this
    // from its last step undoes every step, and the store reads the reason from the message.
    sql: (s) => `
      CREATE FUNCTION ${s}.abort_write(reason text) RETURNS integer LANGUAGE plpgsql AS $f$
      BEGIN
        RAISE EXCEPTION 'player-hypermedia: %', reason USING ERRCODE = 'P0001';
      END $f$;
    `,
  },
  {
    version: 5,
    description: 'rate_limit_counts: request counts of the current window per client, shared by instances',
    // UNLOGGED: counts of the last minute are not worth a WAL write each; a crash empties the table,
    // which gives every client a fresh window, no worse than a restart of one instance.
    sql: (s) => `
      CREATE UNLOGGED TABLE ${s}.rate_limit_counts (
        key text PRIMARY KEY,
        window_number bigint NOT NULL,
        count integer NOT NULL
      );
    `,
  },
];

/** Quotes an SQL identifier (a schema name). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Brings `schema` up to the newest migration: creates the schema, pg_trgm and the migrations table if
 * needed, then applies the missing migrations in one transaction under an advisory lock, so several
 * instances starting together migrate once. Returns the versions applied now.
 *
 * @example
 * await migrate(pool, 'public'); // [1, 2] the first time, [] afterwards
 */
export async function migrate(pool: Pool, schema: string): Promise<number[]> {
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
      await client.query(m.sql(s, trgm));
      await client.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [m.version, m.description]);
      applied.push(m.version);
    }
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
