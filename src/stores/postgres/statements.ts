// The SQL of the PostgreSQL store, for one schema (its rows as stored items: rows.ts).
import type { Relation } from '../../core/model/api.js';
import { quoteIdentifier, quoteLiteral } from './migrations.js';

/** An item's modification time as epoch milliseconds, from the items table aliased `t`. */
function modifiedMs(t: string): string {
  return `floor(extract(epoch FROM ${t}.modified_at) * 1000)::float8`;
}

/**
 * What a write of an item returns: its new revision and modification time only. The data is what the
 * write sent (`itemFields`), so it is not read back: PostgreSQL need not print the jsonb as text, nor
 * node-postgres parse it again.
 *
 * @example
 * `UPDATE items p SET ... RETURNING ${writtenColumns('p')}`;
 */
export function writtenColumns(t: string): string {
  return `${t}.revision::text AS revision, ${modifiedMs(t)} AS modified_ms`;
}

/**
 * The columns of an ItemRow, read from the items table aliased `t`.
 *
 * @example
 * `SELECT ${itemColumns('p')} FROM items p`;
 */
export function itemColumns(t: string): string {
  return `${t}.id, ${t}.data, ${writtenColumns(t)}`;
}

/**
 * A new revision and modification time, for SET clauses.
 *
 * @example
 * `UPDATE items SET ${touch('"public"')} WHERE item = $1`;
 */
export function touch(s: string): string {
  return `revision = nextval('${s}.revision_seq'), modified_at = clock_timestamp()`;
}

/** The owner's columns of a slice's one row. Its data as text, parsed by toSlice. */
const OWNER_COLUMNS = `o.id AS owner_id, o.data::text AS owner_data, o.revision::text AS owner_revision, ${modifiedMs('o')} AS owner_modified_ms`;

/**
 * The members of a page, from a subquery `page` of item columns (see `itemColumns`) and `position`,
 * joined as `mm`: `members`, one json array of `[id, revision, modified_ms]` in list order, and
 * `member_data`, the text of the json array of their data in the same order (both null when it is
 * empty). A page is one row, not one per member with the owner's columns repeated beside each; and the
 * data, the bulk of it, stays text that toSlice parses only when a member is not already known at its
 * revision (`ReadRecords`).
 */
function membersJoin(page: string): string {
  return `CROSS JOIN LATERAL (SELECT json_agg(json_build_array(page.id, page.revision, page.modified_ms) ORDER BY page.position) AS members,
      json_agg(page.data ORDER BY page.position)::text AS member_data FROM ${page} page) mm`;
}

/**
 * Every statement of the store for one schema (searches are made per relation: `searchStatement`).
 * Reads are single statements; writes are run by the store inside one transaction each, or are one
 * statement. `$n` numbering is documented beside each statement. An item is named by its type and id
 * (`$1`, `$2` where not said otherwise); a list by its owner and its relation's name.
 *
 * @example
 * const sql = statements('public');
 * await pool.query(sql.getItem, ['player', 'alice']);
 */
export function statements(schema: string) {
  const s = quoteIdentifier(schema);
  const item = itemColumns('p');
  const written = writtenColumns('p');
  const owner = OWNER_COLUMNS;
  /**
   * A list append as one statement: $1 owner type, $2 owner id, $3 expected revision or null, $4
   * relation, $5 member type, $6 member id, $7 idempotency key or null, $8 fingerprint, and for
   * `create` $9 the new member's data. The owner is updated first (its row lock orders writers of its
   * lists), then its list row is made or counted up, the member created (or read), linked at the list's
   * new `list_end`, and the key saved. No row: the owner is missing or not at the revision. A step that
   * finds nothing to do (the id is taken, the member is missing or already listed, the key was saved
   * meanwhile) calls abort_write, which undoes the whole statement.
   */
  function appendMember(kind: 'create' | 'add'): string {
    return `WITH o AS (
      UPDATE ${s}.items p SET ${touch(s)} WHERE p.type = $1 AND p.id = $2 AND ($3::bigint IS NULL OR p.revision = $3::bigint)
      RETURNING ${item}, p.item),
    l AS (INSERT INTO ${s}.lists AS l (owner, relation, count, list_end) SELECT o.item, $4, 1, 1 FROM o
      ON CONFLICT (owner, relation) DO UPDATE SET count = l.count + 1, list_end = l.list_end + 1 RETURNING l.list, l.list_end, l.count),
    f AS (${
      kind === 'create'
        ? `INSERT INTO ${s}.items AS p (type, id, data) SELECT $5, $6, $9::jsonb FROM o ON CONFLICT (type, id) DO NOTHING RETURNING ${item}, p.item`
        : `SELECT ${item}, p.item FROM ${s}.items p, o WHERE p.type = $5 AND p.id = $6`
    }),
    m AS (INSERT INTO ${s}.members (list, member, position) SELECT l.list, f.item, l.list_end FROM l, f
      ON CONFLICT DO NOTHING RETURNING member),
    k AS (INSERT INTO ${s}.member_keys (list, key, fingerprint, member) SELECT l.list, $7, $8, m.member FROM l, m
      WHERE $7::text IS NOT NULL ON CONFLICT DO NOTHING RETURNING key)
    SELECT json_build_object('id', o.id, 'data', o.data, 'revision', o.revision, 'modified_ms', o.modified_ms) AS owner,
      CASE WHEN f.id IS NULL THEN NULL ELSE json_build_object('id', f.id, 'data', f.data, 'revision', f.revision, 'modified_ms', f.modified_ms) END AS member,
      (SELECT count FROM l) AS total,
      CASE
        WHEN f.id IS NULL THEN ${s}.abort_write(${kind === 'create' ? "'taken'" : "'missing'"})
        WHEN NOT EXISTS (SELECT 1 FROM m) THEN ${s}.abort_write('listed')
        WHEN $7::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM k) THEN ${s}.abort_write('key')
      END AS aborted
    FROM o LEFT JOIN f ON true`;
  }
  return {
    getItem: `SELECT ${item} FROM ${s}.items p WHERE p.type = $1 AND p.id = $2`,
    /**
     * $1 owner type, $2 owner id, $3 relation, $4 offset, $5 limit: one index range of (list, position)
     * from the position of rank $4 + 1, plus the kept count and the owner. With gaps g1 < g2 < ...
     * (positions removals left), gap i lies before the member of rank r exactly when g_i - i < r (the
     * members before it number g_i - i, never decreasing in i), so that member sits at r plus the
     * number of such gaps.
     */
    listMembers: `SELECT coalesce(l.count, 0) AS total, ${owner}, mm.members, mm.member_data FROM ${s}.items o
      LEFT JOIN ${s}.lists l ON l.owner = o.item AND l.relation = $3
      ${membersJoin(`(
        SELECT m.position, ${item} FROM ${s}.members m JOIN ${s}.items p ON p.item = m.member
        WHERE m.list = l.list AND m.position >= $4::bigint + 1 + (
          SELECT count(*) FROM (SELECT g.position - row_number() OVER (ORDER BY g.position) AS before
            FROM ${s}.member_gaps g WHERE g.list = l.list) x WHERE x.before < $4::bigint + 1)
        ORDER BY m.position LIMIT $5
      )`)}
      WHERE o.type = $1 AND o.id = $2`,
    /** Type, id: the revision (text), for diagnosing a compare-and-set that matched no row. */
    revisionOf: `SELECT revision::text AS revision FROM ${s}.items WHERE type = $1 AND id = $2`,
    /** $3 data: create or replace; `created` tells which. */
    upsertItem: `INSERT INTO ${s}.items AS p (type, id, data) VALUES ($1, $2, $3::jsonb)
      ON CONFLICT (type, id) DO UPDATE SET data = $3::jsonb, ${touch(s)}
      RETURNING ${written}, (xmax = 0) AS created`,
    /** $3 data: create only. */
    insertItem: `INSERT INTO ${s}.items AS p (type, id, data) VALUES ($1, $2, $3::jsonb)
      ON CONFLICT (type, id) DO NOTHING RETURNING ${written}`,
    /** $3 data, $4 expected revision or null: the compare-and-set. */
    updateItem: `UPDATE ${s}.items p SET data = $3::jsonb, ${touch(s)}
      WHERE p.type = $1 AND p.id = $2 AND ($4::bigint IS NULL OR p.revision = $4::bigint) RETURNING ${written}`,
    /**
     * Locks the item and every owner of a list holding it, in `item` order, before a delete changes
     * any of their rows. Every write that changes a list locks its owner's row first, so deletes of
     * items on the same lists wait for each other instead of deadlocking.
     */
    lockForDelete: `WITH target AS (SELECT item FROM ${s}.items WHERE type = $1 AND id = $2)
      SELECT 1 FROM ${s}.items WHERE item IN (SELECT item FROM target UNION SELECT l.owner FROM ${s}.members m JOIN ${s}.lists l ON l.list = m.list WHERE m.member IN (SELECT item FROM target))
      ORDER BY item FOR UPDATE`,
    /** $3 expected revision or null: the compare-and-set delete; its surrogate key. */
    deleteItem: `DELETE FROM ${s}.items WHERE type = $1 AND id = $2 AND ($3::bigint IS NULL OR revision = $3::bigint) RETURNING item::text AS item`,
    /**
     * $1 the deleted item's key: removes it from every list, leaving a gap in each, counts each list
     * down and bumps its owner; each list and its gaps now.
     */
    unlinkEverywhere: `WITH gone AS (DELETE FROM ${s}.members WHERE member = $1::bigint RETURNING list, position),
      gapped AS (INSERT INTO ${s}.member_gaps (list, position) SELECT list, position FROM gone),
      counted AS (UPDATE ${s}.lists l SET count = l.count - 1 FROM gone WHERE l.list = gone.list RETURNING l.owner),
      touched AS (UPDATE ${s}.items i SET ${touch(s)} WHERE i.item IN (SELECT owner FROM counted))
      SELECT gone.list::text AS list, (SELECT count(*) FROM ${s}.member_gaps g WHERE g.list = gone.list)::int + 1 AS gaps FROM gone`,
    /** $1 owner type, $2 owner id, $3 expected revision or null, $4 relation, $5 member type, $6 member id, $7 key or null, $8 fingerprint, $9 data (appendMember). */
    createAndLink: appendMember('create'),
    /** $1 owner type, $2 owner id, $3 expected revision or null, $4 relation, $5 member type, $6 member id, $7 key or null, $8 fingerprint (appendMember). */
    linkExisting: appendMember('add'),
    /**
     * $1 owner type, $2 owner id, $3 expected revision or null, $4 relation, $5 member type, $6 member
     * id: compare-and-set of a removal, only when the member is on the list; the owner after it and the
     * list's key.
     */
    touchOwnerIfMember: `WITH target AS (
        SELECT l.list FROM ${s}.items o JOIN ${s}.lists l ON l.owner = o.item AND l.relation = $4
        JOIN ${s}.members m ON m.list = l.list JOIN ${s}.items i ON i.item = m.member AND i.type = $5 AND i.id = $6
        WHERE o.type = $1 AND o.id = $2)
      UPDATE ${s}.items p SET ${touch(s)}
      WHERE p.type = $1 AND p.id = $2 AND ($3::bigint IS NULL OR p.revision = $3::bigint) AND EXISTS (SELECT 1 FROM target)
      RETURNING ${item}, (SELECT list::text FROM target) AS list`,
    /** $1 list, $2 member type, $3 member id: removes the link, leaving its position as a gap, counts the list down; the list's gaps now (none: not linked). */
    unlink: `WITH gone AS (DELETE FROM ${s}.members m USING ${s}.items i WHERE m.list = $1::bigint AND m.member = i.item AND i.type = $2 AND i.id = $3 RETURNING m.list, m.position),
      counted AS (UPDATE ${s}.lists l SET count = l.count - 1 FROM gone WHERE l.list = gone.list)
      INSERT INTO ${s}.member_gaps (list, position) SELECT list, position FROM gone
      RETURNING (SELECT count(*) FROM ${s}.member_gaps g WHERE g.list = $1::bigint)::int + 1 AS gaps`,
    /** $1 list: locks its owner for a compaction; its gaps, counted after the lock. */
    lockList: `SELECT 1 FROM ${s}.items WHERE item = (SELECT owner FROM ${s}.lists WHERE list = $1::bigint) FOR UPDATE`,
    countGaps: `SELECT count(*)::int AS gaps FROM ${s}.member_gaps WHERE list = $1::bigint`,
    /** $1 list: renumbers the list densely in its order and forgets its gaps; not a change anyone sees. */
    compactList: `WITH renumbered AS (SELECT member, row_number() OVER (ORDER BY position) AS n FROM ${s}.members WHERE list = $1::bigint),
      moved AS (UPDATE ${s}.members m SET position = r.n FROM renumbered r WHERE m.list = $1::bigint AND m.member = r.member AND m.position <> r.n),
      cleared AS (DELETE FROM ${s}.member_gaps WHERE list = $1::bigint)
      UPDATE ${s}.lists SET list_end = count WHERE list = $1::bigint`,
    /** $1 owner type, $2 owner id, $3 relation, $4 key: the fingerprint and the member (its id) of a saved key. */
    findKey: `SELECT k.fingerprint, i.id AS member FROM ${s}.member_keys k
      JOIN ${s}.lists l ON l.list = k.list JOIN ${s}.items o ON o.item = l.owner JOIN ${s}.items i ON i.item = k.member
      WHERE o.type = $1 AND o.id = $2 AND l.relation = $3 AND k.key = $4`,
    /** $1 age in milliseconds */
    pruneKeys: `DELETE FROM ${s}.member_keys WHERE created_at < clock_timestamp() - $1 * interval '1 millisecond'`,
    /** $3 name */
    getMedia: `SELECT d.bytes, d.content_type, ${writtenColumns('d')}
      FROM ${s}.media d JOIN ${s}.items i ON i.item = d.item WHERE i.type = $1 AND i.id = $2 AND d.name = $3`,
    /** $3 name, $4 bytes, $5 content type: create or replace, for an existing item. */
    upsertMedia: `INSERT INTO ${s}.media AS d (item, name, bytes, content_type)
      SELECT i.item, $3, $4, $5 FROM ${s}.items i WHERE i.type = $1 AND i.id = $2
      ON CONFLICT (item, name) DO UPDATE SET bytes = $4, content_type = $5, ${touch(s)}
      RETURNING ${writtenColumns('d')}`,
    /** $3 name, $4 bytes, $5 content type: create only. */
    insertMedia: `INSERT INTO ${s}.media AS d (item, name, bytes, content_type)
      SELECT i.item, $3, $4, $5 FROM ${s}.items i WHERE i.type = $1 AND i.id = $2
      ON CONFLICT (item, name) DO NOTHING
      RETURNING ${writtenColumns('d')}`,
    /** $3 name, $4 bytes, $5 content type, $6 expected revision or null: the compare-and-set. */
    updateMedia: `UPDATE ${s}.media d SET bytes = $4, content_type = $5, ${touch(s)}
      FROM ${s}.items i WHERE i.item = d.item AND i.type = $1 AND i.id = $2 AND d.name = $3 AND ($6::bigint IS NULL OR d.revision = $6::bigint)
      RETURNING ${writtenColumns('d')}`,
    /** Empties every table of items (tests). */
    truncate: `TRUNCATE ${s}.member_keys, ${s}.media, ${s}.member_gaps, ${s}.members, ${s}.lists, ${s}.items`,
  };
}

/** The statements of one schema. */
export type Statements = ReturnType<typeof statements>;

/**
 * The prepared statements of one kind for any number of rows: `make(count)`'s text, named `<key><count>`
 * for the schema (as `statementNames`), each made once.
 *
 * @example
 * const byCount = statementsByCount('public', 'updateItems', (n) => updateItemsStatement('public', n));
 * byCount(3).name; // 'ph_updateItems3_public'
 */
export function statementsByCount(schema: string, key: string, make: (count: number) => string): (count: number) => { text: string; name: string } {
  const made = new Map<number, { text: string; name: string }>();
  return (count) => {
    const found = made.get(count);
    if (found) return found;
    const statement = { text: make(count), name: statementNames([`${key}${count}`], schema)[`${key}${count}`]! };
    made.set(count, statement);
    return statement;
  };
}

/**
 * The search of a relation's list, for one schema: $1 owner type, $2 owner id, $3 relation, $4 LIKE
 * pattern (already escaped), $5 offset, $6 limit, $7 most matches to read (null: all). Matches are
 * members whose searched fields contain the pattern, case-insensitively, counted up to $7 in list
 * order; one page is returned with the owner. The fields and the target type are written into the
 * text (a relation's search is one statement), so that the partial pg_trgm indexes `migrate` makes
 * apply. (Positions are compared as bigint: an offset past int4 is a page that does not exist.)
 *
 * @example
 * await pool.query(searchStatement('public', friends), ['player', 'alice', 'friends', '%ada%', 0, 10, 1001]);
 */
export function searchStatement(schema: string, relation: Relation): string {
  const s = quoteIdentifier(schema);
  const target = relation.target;
  const tests = (relation.search?.fields ?? []).map((f) => (f === target.idField ? 'lower(p.id) LIKE lower($4)' : `lower(p.data->>${quoteLiteral(f)}) LIKE lower($4)`));
  const matches = tests.length ? tests.join(' OR ') : 'false';
  const owner = OWNER_COLUMNS;
  // The list is found first (an InitPlan), so that its members are walked in position order through
  // members_list_position and the walk stops at the count limit ($7) when most members match; a term
  // that few match goes through the trigram indexes instead, as the planner estimates from the
  // expression statistics migrate makes.
  return `WITH m AS MATERIALIZED (
      SELECT m.position, ${itemColumns('p')} FROM ${s}.members m JOIN ${s}.items p ON p.item = m.member
      WHERE m.list = (SELECT l.list FROM ${s}.items o JOIN ${s}.lists l ON l.owner = o.item AND l.relation = $3 WHERE o.type = $1 AND o.id = $2)
        AND p.type = ${quoteLiteral(target.name)} AND (${matches})
      ORDER BY m.position LIMIT $7
    )
    SELECT (SELECT count(*)::int FROM m) AS total, ${owner}, mm.members, mm.member_data
    FROM ${s}.items o ${membersJoin('(SELECT * FROM m ORDER BY m.position OFFSET $5 LIMIT $6)')} WHERE o.type = $1 AND o.id = $2`;
}

/**
 * The prepared-statement names of some statements of one schema: `ph_<key>_<schema>`, unique per
 * schema because pooled connections may serve several. PostgreSQL keeps the first 63 bytes of a name
 * (NAMEDATALEN), so a longer one ends in a hash of the schema instead.
 *
 * @example
 * statementNames(['getItem'], 'public'); // { getItem: 'ph_getItem_public' }
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
