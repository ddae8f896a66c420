// The PostgreSQL schema of the store, as numbered migrations (applied on demand by migrate(), see migrate.ts).

import { CHANGE_CHANNEL } from './channels.js';
import { NOTICE_MIGRATIONS } from './notice-migrations.js';
import { LIST_CASCADE_MIGRATION } from './list-cascade-migration.js';

export { quoteIdentifier, quoteLiteral } from './search-indexes.js';

/** One schema change: applied once, in order, and recorded in `schema_migrations`. */
export interface Migration {
  version: number;
  description: string;
  /** SQL for a schema whose quoted name is `s` (its name `schema`), with pg_trgm's operator classes in schema `trgm`. */
  sql: (s: string, trgm: string, schema: string) => string;
}

/**
 * The migrations the library ships, oldest first. Migrations 1 to 5 made the Player API's own tables
 * (players, friendships, avatars); migration 6 moves their rows into the tables of any declared type
 * and drops them, so a database made by an earlier release keeps its data.
 *
 * - Items of every type are rows of `items` (type, id, their fields as jsonb), each with a surrogate
 *   key `item` the other tables refer to.
 * - Revisions come from one sequence shared by items and media, so a revision is never reused, even
 *   for an id deleted and created again.
 * - A to-many relation of an item is a row of `lists` (its count and `list_end`) and its members rows
 *   of `members` with a 1-based `position`, appended at `list_end`; a removal leaves its position as a
 *   row of `list_gaps` instead of shifting every later member, and a list with many gaps is renumbered
 *   in the background (list-gaps.ts). Page N starts at the position the gaps give for rank `offset +
 *   1` and is an index range of `(list, position)`, O(page size + gaps) at any page; the count is kept
 *   in the same transaction.
 * - Search matches `lower(data->>'<field>')` with LIKE, through pg_trgm GIN indexes `migrate` makes for
 *   each searched field of the declared types.
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
  {
    version: 6,
    description: 'items, lists and members of any declared type; the players, friendships and avatars moved into them',
    // The Player API's rows become items of type "player" (alias, displayName, image as jsonb), its
    // friend lists lists named "friends" (positions, gaps and counts kept as they are), its avatars
    // media named "avatar", its idempotency keys keys of those lists. Revisions and modification times
    // are kept, so every ETag a client holds still matches. The old tables and triggers go.
    sql: (s) => `
      CREATE TABLE ${s}.items (
        item bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        type text NOT NULL,
        id text NOT NULL,
        data jsonb NOT NULL,
        revision bigint NOT NULL DEFAULT nextval('${s}.revision_seq'),
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (type, id)
      );
      CREATE TABLE ${s}.lists (
        list bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        owner bigint NOT NULL REFERENCES ${s}.items ON DELETE CASCADE,
        relation text NOT NULL,
        count integer NOT NULL DEFAULT 0 CHECK (count >= 0),
        list_end bigint NOT NULL DEFAULT 0,
        UNIQUE (owner, relation)
      );
      CREATE TABLE ${s}.members (
        list bigint NOT NULL REFERENCES ${s}.lists ON DELETE CASCADE,
        -- Deferred: a delete removes the item, then its memberships, in one transaction.
        member bigint NOT NULL REFERENCES ${s}.items DEFERRABLE INITIALLY DEFERRED,
        position bigint NOT NULL,
        PRIMARY KEY (list, member)
      );
      CREATE INDEX members_list_position ON ${s}.members (list, position) INCLUDE (member);
      CREATE INDEX members_member ON ${s}.members (member);
      CREATE TABLE ${s}.member_gaps (
        list bigint NOT NULL REFERENCES ${s}.lists ON DELETE CASCADE,
        position bigint NOT NULL,
        PRIMARY KEY (list, position)
      );
      CREATE TABLE ${s}.media (
        item bigint NOT NULL REFERENCES ${s}.items ON DELETE CASCADE,
        name text NOT NULL,
        bytes bytea NOT NULL,
        content_type text NOT NULL,
        revision bigint NOT NULL DEFAULT nextval('${s}.revision_seq'),
        modified_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (item, name)
      );
      CREATE TABLE ${s}.member_keys (
        list bigint NOT NULL REFERENCES ${s}.lists ON DELETE CASCADE,
        key text NOT NULL,
        fingerprint text NOT NULL,
        member bigint NOT NULL REFERENCES ${s}.items ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (list, key)
      );
      CREATE INDEX member_keys_member ON ${s}.member_keys (member);
      CREATE INDEX member_keys_created_at ON ${s}.member_keys (created_at);

      INSERT INTO ${s}.items (type, id, data, revision, modified_at)
        SELECT 'player', p.player_id, jsonb_strip_nulls(jsonb_build_object('alias', p.alias, 'displayName', p.display_name, 'image', p.image)), p.revision, p.modified_at
        FROM ${s}.players p ORDER BY p.player_id;
      INSERT INTO ${s}.lists (owner, relation, count, list_end)
        SELECT i.item, 'friends', p.friend_count, p.list_end FROM ${s}.players p JOIN ${s}.items i ON i.type = 'player' AND i.id = p.player_id
        WHERE p.friend_count > 0 OR p.list_end > 0;
      INSERT INTO ${s}.members (list, member, position)
        SELECT l.list, m.item, f.position FROM ${s}.friendships f
        JOIN ${s}.items o ON o.type = 'player' AND o.id = f.owner
        JOIN ${s}.lists l ON l.owner = o.item AND l.relation = 'friends'
        JOIN ${s}.items m ON m.type = 'player' AND m.id = f.friend;
      INSERT INTO ${s}.member_gaps (list, position)
        SELECT l.list, g.position FROM ${s}.list_gaps g
        JOIN ${s}.items o ON o.type = 'player' AND o.id = g.owner
        JOIN ${s}.lists l ON l.owner = o.item AND l.relation = 'friends';
      INSERT INTO ${s}.media (item, name, bytes, content_type, revision, modified_at)
        SELECT i.item, 'avatar', a.bytes, a.content_type, a.revision, a.modified_at FROM ${s}.avatars a JOIN ${s}.items i ON i.type = 'player' AND i.id = a.player_id;
      INSERT INTO ${s}.member_keys (list, key, fingerprint, member, created_at)
        SELECT l.list, k.key, k.fingerprint, m.item, k.created_at FROM ${s}.idempotency_keys k
        JOIN ${s}.items o ON o.type = 'player' AND o.id = k.owner
        JOIN ${s}.lists l ON l.owner = o.item AND l.relation = 'friends'
        JOIN ${s}.items m ON m.type = 'player' AND m.id = k.friend;
      DROP TABLE ${s}.idempotency_keys, ${s}.avatars, ${s}.list_gaps, ${s}.friendships, ${s}.players;
      DROP FUNCTION ${s}.notify_change();

      -- NOTIFY is delivered when the writing transaction commits, and never for one that rolls back
      -- (PostgreSQL manual, "NOTIFY"): every instance hears of exactly the committed changes. A list
      -- change updates its owner's row (its revision), so the items table covers it.
      CREATE FUNCTION ${s}.notify_item_change() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_SCHEMA || chr(10) || OLD.type || '/' || OLD.id);
        ELSE
          PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_SCHEMA || chr(10) || NEW.type || '/' || NEW.id);
        END IF;
        RETURN NULL;
      END $f$;
      CREATE FUNCTION ${s}.notify_media_change() RETURNS trigger LANGUAGE plpgsql AS $f$
      DECLARE changed text;
      BEGIN
        SELECT i.type || '/' || i.id INTO changed FROM ${s}.items i WHERE i.item = CASE WHEN TG_OP = 'DELETE' THEN OLD.item ELSE NEW.item END;
        -- Media deleted with their item: the item's own notice tells it.
        IF changed IS NOT NULL THEN PERFORM pg_notify('${CHANGE_CHANNEL}', TG_TABLE_SCHEMA || chr(10) || changed); END IF;
        RETURN NULL;
      END $f$;
      CREATE TRIGGER items_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.items FOR EACH ROW EXECUTE FUNCTION ${s}.notify_item_change();
      CREATE TRIGGER media_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.media FOR EACH ROW EXECUTE FUNCTION ${s}.notify_media_change();
    `,
  },
  ...NOTICE_MIGRATIONS,
  LIST_CASCADE_MIGRATION,
];
