// The SQL of the PostgreSQL player store, for one schema, and the mapping of its rows to StoredPlayer.
import type { StoredPlayer } from '../../player/player.js';
import type { StoredAvatar } from '../contract.js';
import { quoteIdentifier } from './migrations.js';

/** A players row as the statements select it (`revision` as text, `modified_ms` as epoch milliseconds). */
export interface PlayerRow {
  player_id: string;
  alias: string;
  display_name: string | null;
  image: string | null;
  revision: string;
  modified_ms: number;
}

/** The columns of a PlayerRow, read from the players table aliased `t`. */
function columns(t: string): string {
  return `${t}.player_id, ${t}.alias, ${t}.display_name, ${t}.image, ${t}.revision::text AS revision,
    floor(extract(epoch FROM ${t}.modified_at) * 1000)::float8 AS modified_ms`;
}

/** A new revision and modification time, for SET clauses. */
function touch(s: string): string {
  return `revision = nextval('${s}.revision_seq'), modified_at = clock_timestamp()`;
}

/**
 * Every statement of the store for one schema. Reads are single statements; writes are run by the
 * store inside one transaction each. `$n` numbering is documented beside each statement.
 *
 * @example
 * const sql = statements('public');
 * await pool.query(sql.getPlayer, ['alice']);
 */
export function statements(schema: string) {
  const s = quoteIdentifier(schema);
  const player = columns('p');
  // The owner's columns beside every row of a slice (one snapshot: the page and its owner agree).
  // A page's players' columns, without the position they are ordered by (the client does not read it).
  const pageColumns = 'page.player_id, page.alias, page.display_name, page.image, page.revision, page.modified_ms';
  const owner = `o.player_id AS owner_id, o.alias AS owner_alias, o.display_name AS owner_display_name, o.image AS owner_image,
    o.revision::text AS owner_revision, floor(extract(epoch FROM o.modified_at) * 1000)::float8 AS owner_modified_ms`;
  /**
   * A friend-list append as one statement: $1 owner, $2 expected revision or null, $3 friend id,
   * then for `create` $4 alias, $5 display_name, $6 image of the new player and $7 idempotency key or
   * null, $8 fingerprint; for `add` $4 key, $5 fingerprint. The owner is updated first (its row lock orders writers of a list), then
   * the friend is created (or read), linked at the owner's new `list_end`, and the key saved. No
   * row: the owner is missing or not at the revision. A step that finds nothing to do (the id is
   * taken, the friend is missing or already listed, the key was saved meanwhile) calls abort_write,
   * which undoes the whole statement.
   */
  function appendFriend(kind: 'create' | 'add'): string {
    const [key, fingerprint] = kind === 'create' ? ['$7', '$8'] : ['$4', '$5'];
    return `WITH o AS (
      UPDATE ${s}.players p SET friend_count = p.friend_count + 1, list_end = p.list_end + 1, ${touch(s)}
      WHERE p.player_id = $1 AND ($2::bigint IS NULL OR p.revision = $2::bigint)
      RETURNING ${player}, p.list_end),
    f AS (${
      kind === 'create'
        ? `INSERT INTO ${s}.players AS p (player_id, alias, display_name, image) SELECT $3, $4, $5, $6 FROM o
      ON CONFLICT (player_id) DO NOTHING RETURNING ${player}`
        : `SELECT ${player} FROM ${s}.players p, o WHERE p.player_id = $3`
    }),
    l AS (INSERT INTO ${s}.friendships (owner, friend, position) SELECT $1, f.player_id, o.list_end FROM o, f
      ON CONFLICT DO NOTHING RETURNING friend),
    k AS (INSERT INTO ${s}.idempotency_keys (owner, key, fingerprint, friend) SELECT $1, ${key}, ${fingerprint}, l.friend FROM l
      WHERE ${key}::text IS NOT NULL ON CONFLICT DO NOTHING RETURNING key)
    SELECT row_to_json(o) AS owner, row_to_json(f) AS friend,
      CASE
        WHEN f.player_id IS NULL THEN ${s}.abort_write(${kind === 'create' ? "'taken'" : "'missing'"})
        WHEN NOT EXISTS (SELECT 1 FROM l) THEN ${s}.abort_write('listed')
        WHEN ${key}::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM k) THEN ${s}.abort_write('key')
      END AS aborted
    FROM o LEFT JOIN f ON true`;
  }
  return {
    /** $1 id */
    getPlayer: `SELECT ${player} FROM ${s}.players p WHERE p.player_id = $1`,
    /**
     * $1 owner, $2 offset, $3 limit: one index range of (owner, position) from the position of rank
     * $2 + 1, plus the kept count and the owner. With gaps g1 < g2 < ... (positions removals left),
     * gap i lies before the friend of rank r exactly when g_i - i < r (the friends before it number
     * g_i - i, never decreasing in i), so that friend sits at r plus the number of such gaps.
     */
    listFriends: `SELECT o.friend_count AS total, ${owner}, ${pageColumns} FROM ${s}.players o
      LEFT JOIN LATERAL (
        SELECT f.position, ${player} FROM ${s}.friendships f JOIN ${s}.players p ON p.player_id = f.friend
        WHERE f.owner = o.player_id AND f.position >= $2::bigint + 1 + (
          SELECT count(*) FROM (SELECT g.position - row_number() OVER (ORDER BY g.position) AS before
            FROM ${s}.list_gaps g WHERE g.owner = o.player_id) x WHERE x.before < $2::bigint + 1)
        ORDER BY f.position LIMIT $3
      ) page ON true
      WHERE o.player_id = $1 ORDER BY page.position`,
    /**
     * $1 owner, $2 LIKE pattern (already escaped), $3 offset, $4 limit, $5 most matches to read (null: all):
     * matches counted up to $5 in list order, one page returned. (Positions are compared as bigint:
     * an offset past int4 is a page that does not exist, not an overflow.)
     */
    searchFriends: `WITH m AS MATERIALIZED (
        SELECT f.position, ${player} FROM ${s}.friendships f JOIN ${s}.players p ON p.player_id = f.friend
        WHERE f.owner = $1 AND (lower(p.alias) LIKE lower($2) OR lower(p.display_name) LIKE lower($2))
        ORDER BY f.position LIMIT $5
      )
      SELECT t.total, ${owner}, ${pageColumns} FROM ${s}.players o
      CROSS JOIN (SELECT count(*)::int AS total FROM m) t
      LEFT JOIN LATERAL (SELECT * FROM m ORDER BY m.position OFFSET $3 LIMIT $4) page ON true
      WHERE o.player_id = $1 ORDER BY page.position`,
    /** $1 id */
    revisionOf: `SELECT revision::text AS revision FROM ${s}.players WHERE player_id = $1`,
    /** $1 id, $2 alias, $3 display_name, $4 image: create or replace; `created` tells which. */
    upsertPlayer: `INSERT INTO ${s}.players AS p (player_id, alias, display_name, image) VALUES ($1, $2, $3, $4)
      ON CONFLICT (player_id) DO UPDATE SET alias = $2, display_name = $3, image = $4, ${touch(s)}
      RETURNING ${player}, (xmax = 0) AS created`,
    /** $1 id, $2 alias, $3 display_name, $4 image: create only. */
    insertPlayer: `INSERT INTO ${s}.players AS p (player_id, alias, display_name, image) VALUES ($1, $2, $3, $4)
      ON CONFLICT (player_id) DO NOTHING RETURNING ${player}`,
    /** $1 id, $2 alias, $3 display_name, $4 image, $5 expected revision or null: the compare-and-set. */
    updatePlayer: `UPDATE ${s}.players p SET alias = $2, display_name = $3, image = $4, ${touch(s)}
      WHERE p.player_id = $1 AND ($5::bigint IS NULL OR p.revision = $5::bigint) RETURNING ${player}`,
    /** $1 owner, $2 expected revision or null, $3 friend: compare-and-set of a removal, only when on the list. */
    touchOwnerIfFriend: `UPDATE ${s}.players p SET friend_count = p.friend_count - 1, ${touch(s)}
      WHERE p.player_id = $1 AND ($2::bigint IS NULL OR p.revision = $2::bigint)
        AND EXISTS (SELECT 1 FROM ${s}.friendships f WHERE f.owner = $1 AND f.friend = $3)
      RETURNING ${player}`,
    /**
     * $1 id: locks the player and every owner listing it, in player_id order, before a delete changes
     * any of their rows. Every write that changes a list locks its owner's row first, so deletes of
     * players on the same lists wait for each other instead of deadlocking.
     */
    lockForDelete: `SELECT 1 FROM ${s}.players WHERE player_id = $1 OR player_id IN (SELECT owner FROM ${s}.friendships WHERE friend = $1)
      ORDER BY player_id FOR UPDATE`,
    /** $1 id, $2 expected revision or null: the compare-and-set delete. */
    deletePlayer: `DELETE FROM ${s}.players WHERE player_id = $1 AND ($2::bigint IS NULL OR revision = $2::bigint) RETURNING player_id`,
    /** $1 deleted friend: removes it from every list, leaving a gap in each, bumps each owner; each owner's gaps now. */
    unlinkEverywhere: `WITH gone AS (DELETE FROM ${s}.friendships WHERE friend = $1 RETURNING owner, position),
      gapped AS (INSERT INTO ${s}.list_gaps (owner, position) SELECT owner, position FROM gone),
      counted AS (UPDATE ${s}.players p SET friend_count = p.friend_count - 1, ${touch(s)} FROM gone WHERE p.player_id = gone.owner)
      SELECT gone.owner, (SELECT count(*) FROM ${s}.list_gaps g WHERE g.owner = gone.owner)::int + 1 AS gaps FROM gone`,
    /** $1 owner, $2 expected revision or null, $3 new id, $4 alias, $5 display_name, $6 image, $7 key or null, $8 fingerprint (appendFriend). */
    createAndLink: appendFriend('create'),
    /** $1 owner, $2 expected revision or null, $3 friend id, $4 key or null, $5 fingerprint (appendFriend). */
    linkExisting: appendFriend('add'),
    /** $1 owner, $2 friend: removes the link, leaving its position as a gap; the list's gaps now (none: not linked). */
    unlink: `WITH gone AS (DELETE FROM ${s}.friendships WHERE owner = $1 AND friend = $2 RETURNING owner, position)
      INSERT INTO ${s}.list_gaps (owner, position) SELECT owner, position FROM gone
      RETURNING (SELECT count(*) FROM ${s}.list_gaps g WHERE g.owner = $1)::int + 1 AS gaps`,
    /** $1 owner: locks it for a compaction; its gaps, counted after the lock. */
    lockList: `SELECT 1 FROM ${s}.players WHERE player_id = $1 FOR UPDATE`,
    countGaps: `SELECT count(*)::int AS gaps FROM ${s}.list_gaps WHERE owner = $1`,
    /** $1 owner: renumbers the list densely in its order and forgets its gaps; not a change anyone sees. */
    compactList: `WITH renumbered AS (SELECT friend, row_number() OVER (ORDER BY position) AS n FROM ${s}.friendships WHERE owner = $1),
      moved AS (UPDATE ${s}.friendships f SET position = r.n FROM renumbered r WHERE f.owner = $1 AND f.friend = r.friend AND f.position <> r.n),
      cleared AS (DELETE FROM ${s}.list_gaps WHERE owner = $1)
      UPDATE ${s}.players SET list_end = friend_count WHERE player_id = $1`,
    /** $1 owner, $2 key */
    findKey: `SELECT fingerprint, friend FROM ${s}.idempotency_keys WHERE owner = $1 AND key = $2`,
    /** $1 age in milliseconds */
    pruneKeys: `DELETE FROM ${s}.idempotency_keys WHERE created_at < clock_timestamp() - $1 * interval '1 millisecond'`,
    /** $1 id */
    getAvatar: `SELECT bytes, content_type, revision::text AS revision,
      floor(extract(epoch FROM modified_at) * 1000)::float8 AS modified_ms FROM ${s}.avatars WHERE player_id = $1`,
    /** $1 id, $2 bytes, $3 content type: create or replace, for an existing player. */
    upsertAvatar: `INSERT INTO ${s}.avatars AS a (player_id, bytes, content_type)
      SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM ${s}.players WHERE player_id = $1)
      ON CONFLICT (player_id) DO UPDATE SET bytes = $2, content_type = $3, ${touch(s)}
      RETURNING a.revision::text AS revision, floor(extract(epoch FROM a.modified_at) * 1000)::float8 AS modified_ms`,
    /** $1 id, $2 bytes, $3 content type: create only. */
    insertAvatar: `INSERT INTO ${s}.avatars AS a (player_id, bytes, content_type)
      SELECT $1, $2, $3 WHERE EXISTS (SELECT 1 FROM ${s}.players WHERE player_id = $1)
      ON CONFLICT (player_id) DO NOTHING
      RETURNING a.revision::text AS revision, floor(extract(epoch FROM a.modified_at) * 1000)::float8 AS modified_ms`,
    /** $1 id, $2 bytes, $3 content type, $4 expected revision or null: the compare-and-set. */
    updateAvatar: `UPDATE ${s}.avatars a SET bytes = $2, content_type = $3, ${touch(s)}
      WHERE a.player_id = $1 AND ($4::bigint IS NULL OR a.revision = $4::bigint)
      RETURNING a.revision::text AS revision, floor(extract(epoch FROM a.modified_at) * 1000)::float8 AS modified_ms`,
    /** Empties every table (tests). */
    truncate: `TRUNCATE ${s}.idempotency_keys, ${s}.avatars, ${s}.friendships, ${s}.players`,
  };
}

/** The statements of one schema. */
export type Statements = ReturnType<typeof statements>;

/**
 * The prepared-statement names of some statements of one schema: `ph_<key>_<schema>`, unique per
 * schema because pooled connections may serve several. PostgreSQL keeps the first 63 bytes of a name
 * (NAMEDATALEN), so a longer one ends in a hash of the schema instead.
 *
 * @example
 * statementNames(['getPlayer'], 'public'); // { getPlayer: 'ph_getPlayer_public' }
 */
export function statementNames<K extends string>(keys: readonly K[], schema: string): Record<K, string> {
  const names = {} as Record<K, string>;
  for (const key of keys) {
    const name = `ph_${key}_${schema}`;
    names[key] = Buffer.byteLength(name) <= 63 ? name : `ph_${key}_${fnv1a(schema)}`;
  }
  return names;
}

/** FNV-1a of a string's UTF-16 units, as 8 hex digits. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * A players row as a StoredPlayer (null columns left out, as the memory store does).
 *
 * @example
 * toStoredPlayer(row).revision; // '42'
 */
export function toStoredPlayer(row: PlayerRow): StoredPlayer {
  const player: StoredPlayer = { playerId: row.player_id, alias: row.alias, revision: row.revision, modifiedAt: row.modified_ms };
  if (row.display_name !== null) player.displayName = row.display_name;
  if (row.image !== null) player.image = row.image;
  return player;
}

/**
 * An avatars row as a StoredAvatar.
 *
 * @example
 * toStoredAvatar({ bytes: Buffer.from([1]), content_type: 'image/png', revision: '3', modified_ms: 0 });
 */
export function toStoredAvatar(row: { bytes: Uint8Array; content_type: string; revision: string; modified_ms: number }): StoredAvatar {
  return { bytes: new Uint8Array(row.bytes), contentType: row.content_type, revision: row.revision, modifiedAt: row.modified_ms };
}
