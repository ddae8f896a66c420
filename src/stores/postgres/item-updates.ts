// The compare-and-set updates of items as a kind of write sent together (Together).
import type { Pool } from 'pg';
import type { WrittenRow } from './item-put.js';
import { statementsByCount, touch, writtenColumns } from './statements.js';
import { quoteIdentifier } from './migrations.js';
import { queryOrStoreError } from './transaction.js';
import type { TogetherKind } from './together.js';

/**
 * One compare-and-set: type, id, fields as JSON text, expected revision (null: whatever it is).
 *
 * @example
 * const update: UpdateValues = ['player', 'alice', '{"alias":"a"}', '7'];
 */
export type UpdateValues = readonly [type: string, id: string, text: string, revision: string | null];

/**
 * The compare-and-set of `count` items (2 or more) as one statement, for one schema: for each item $n
 * type, $n+1 id, $n+2 data, $n+3 expected revision or null, as `updateItem` takes them. Each matching
 * row is updated and returned with its type and id; one whose revision differs is left as it is. The
 * items are looked up in the order given (a nested loop over the VALUES, by the (type, id) index), so
 * their rows are locked in that order. docs/decisions.md, "PostgreSQL writes together".
 *
 * @example
 * await pool.query(updateItemsStatement('public', 2), ['player', 'alice', '{}', '7', 'player', 'bob', '{}', null]);
 */
export function updateItemsStatement(schema: string, count: number): string {
  const s = quoteIdentifier(schema);
  const rows = Array.from({ length: count }, (_, i) => `($${4 * i + 1}::text, $${4 * i + 2}::text, $${4 * i + 3}::jsonb, $${4 * i + 4}::bigint)`);
  return `UPDATE ${s}.items p SET data = v.data, ${touch(s)}
    FROM (VALUES ${rows.join(', ')}) AS v (type, id, data, revision)
    WHERE p.type = v.type AND p.id = v.id AND (v.revision IS NULL OR p.revision = v.revision)
    RETURNING p.type, p.id, ${writtenColumns('p')}`;
}

/** A row the statement of several updates returns. */
type UpdatedRow = WrittenRow & { type: string; id: string };

/**
 * The updates of items (`one`: the store's prepared `updateItem`; several: `updateItemsStatement`) as a
 * kind of Together, keyed by type and id.
 *
 * @example
 * const updates = new Together(itemUpdates(pool, 'public', (values) => prepared('updateItem', values)));
 * const row = await updates.send(['player', 'alice', '{"alias":"a"}', '7']); // undefined: changed since
 */
export function itemUpdates(pool: Pool, schema: string, one: (values: unknown[]) => Promise<{ rows: WrittenRow[] }>): TogetherKind<WrittenRow> {
  const prepared = statementsByCount(schema, 'updateItems', (count) => updateItemsStatement(schema, count));
  return {
    keys: (values) => [`${values[0] as string}/${values[1] as string}`],
    one: async (values) => (await one([...values])).rows[0],
    many: async (updates) => {
      const { text, name } = prepared(updates.length);
      const { rows } = await queryOrStoreError<UpdatedRow>(pool, text, updates.flat(), name);
      const written = new Map(rows.map((row) => [`${row.type}/${row.id}`, row]));
      return updates.map(([type, id]) => written.get(`${type as string}/${id as string}`));
    },
  };
}
