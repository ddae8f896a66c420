// List appends as a kind of write sent together (Together): several appends, to distinct owners, in one statement.
import type { Pool } from 'pg';
import type { ItemRow } from './rows.js';
import { itemColumns, statementsByCount, touch } from './statements.js';
import { quoteIdentifier } from './migrations.js';
import { queryOrStoreError } from './transaction.js';
import type { TogetherKind } from './together.js';
import type { AppendStatement } from './list-append.js';

/**
 * What an append statement returns: the owner and the member after it, and the list's members.
 *
 * @example
 * const { owner, member, total } = (await appends.send(values))!;
 */
export interface AppendedRow {
  owner: ItemRow;
  member: ItemRow;
  total: number;
}

/**
 * `count` list appends (2 or more, to distinct owners, of distinct members) as one statement, for one
 * schema: each the parameters of the one-append statement (`createAndLink`: 9, `linkExisting`: 8) in
 * turn, and each the same steps in the same order: the owners updated first (the compare-and-set, in
 * the order given: their row locks order the writers of their lists), their lists counted up, the
 * members made or read, linked at their lists' new ends, the keys saved. An append whose owner is
 * missing or not at its revision returns no row and changes nothing; one whose later step finds
 * nothing to do calls abort_write, which undoes the whole statement (the store then sends each alone).
 *
 * @example
 * await pool.query(appendMembersStatement('public', 'linkExisting', 2), [...first, ...second]);
 */
export function appendMembersStatement(schema: string, statement: AppendStatement, count: number): string {
  const s = quoteIdentifier(schema);
  const create = statement === 'createAndLink';
  const width = create ? 9 : 8;
  const types = ['text', 'text', 'bigint', 'text', 'text', 'text', 'text', 'text', 'jsonb'].slice(0, width);
  const rows = Array.from({ length: count }, (_, i) => `(${i}, ${types.map((type, k) => `$${width * i + k + 1}::${type}`).join(', ')})`);
  const item = itemColumns('p');
  const json = (t: string) => `json_build_object('id', ${t}.id, 'data', ${t}.data, 'revision', ${t}.revision, 'modified_ms', ${t}.modified_ms)`;
  return `WITH v AS (SELECT * FROM (VALUES ${rows.join(', ')}) AS v (n, otype, oid, orev, relation, mtype, mid, key, fingerprint${create ? ', data' : ''})),
    o AS (UPDATE ${s}.items p SET ${touch(s)} FROM v WHERE p.type = v.otype AND p.id = v.oid AND (v.orev IS NULL OR p.revision = v.orev)
      RETURNING v.n, ${item}, p.item),
    l AS (INSERT INTO ${s}.lists AS l (owner, relation, count, list_end) SELECT o.item, v.relation, 1, 1 FROM o JOIN v ON v.n = o.n
      ON CONFLICT (owner, relation) DO UPDATE SET count = l.count + 1, list_end = l.list_end + 1 RETURNING l.owner, l.list, l.list_end, l.count),
    f AS (${
      create
        ? `INSERT INTO ${s}.items AS p (type, id, data) SELECT v.mtype, v.mid, v.data FROM v JOIN o ON o.n = v.n ON CONFLICT (type, id) DO NOTHING RETURNING p.type, ${item}, p.item`
        : `SELECT p.type, ${item}, p.item FROM v JOIN o ON o.n = v.n JOIN ${s}.items p ON p.type = v.mtype AND p.id = v.mid`
    }),
    m AS (INSERT INTO ${s}.members (list, member, position) SELECT l.list, f.item, l.list_end
      FROM v JOIN o ON o.n = v.n JOIN l ON l.owner = o.item JOIN f ON f.type = v.mtype AND f.id = v.mid
      ON CONFLICT DO NOTHING RETURNING list, member),
    k AS (INSERT INTO ${s}.member_keys (list, key, fingerprint, member) SELECT m.list, v.key, v.fingerprint, m.member
      FROM v JOIN o ON o.n = v.n JOIN l ON l.owner = o.item JOIN m ON m.list = l.list
      WHERE v.key IS NOT NULL ON CONFLICT DO NOTHING RETURNING list, key)
    SELECT o.n, ${json('o')} AS owner, CASE WHEN f.id IS NULL THEN NULL ELSE ${json('f')} END AS member, l.count AS total,
      CASE
        WHEN f.id IS NULL THEN ${s}.abort_write(${create ? "'taken'" : "'missing'"})
        WHEN NOT EXISTS (SELECT 1 FROM m WHERE m.list = l.list) THEN ${s}.abort_write('listed')
        WHEN v.key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM k WHERE k.list = l.list) THEN ${s}.abort_write('key')
      END AS aborted
    FROM o JOIN v ON v.n = o.n JOIN l ON l.owner = o.item LEFT JOIN f ON f.type = v.mtype AND f.id = v.mid`;
}

/**
 * The appends of one statement (`createAndLink` or `linkExisting`) as a kind of Together: alone as the
 * store's prepared statement, several as `appendMembersStatement`; keyed by owner, then member.
 *
 * @example
 * const appends = new Together(listAppends(pool, 'public', 'createAndLink', (values) => prepared('createAndLink', values)));
 */
export function listAppends(
  pool: Pool,
  schema: string,
  statement: AppendStatement,
  one: (values: unknown[]) => Promise<{ rows: AppendedRow[] }>,
): TogetherKind<AppendedRow> {
  const prepared = statementsByCount(schema, statement, (count) => appendMembersStatement(schema, statement, count));
  return {
    keys: (v) => [`${v[0] as string}/${v[1] as string}`, `${v[4] as string}/${v[5] as string}`],
    one: async (values) => (await one([...values])).rows[0],
    many: async (appends) => {
      const { text, name } = prepared(appends.length);
      const { rows } = await queryOrStoreError<AppendedRow & { n: number }>(pool, text, appends.flat(), name);
      const byOrder: (AppendedRow | undefined)[] = appends.map(() => undefined);
      for (const row of rows) byOrder[row.n] = row;
      return byOrder;
    },
  };
}
