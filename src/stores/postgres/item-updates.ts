// The compare-and-set updates of items as a kind of write sent together (Together).
import type { Pool } from 'pg';
import type { WrittenRow } from './item-put.js';
import { updateItemsStatement, statementNames } from './statements.js';
import { queryOrStoreError } from './transaction.js';
import type { TogetherKind } from './together.js';

/**
 * One compare-and-set: type, id, fields as JSON text, expected revision (null: whatever it is).
 *
 * @example
 * const update: UpdateValues = ['player', 'alice', '{"alias":"a"}', '7'];
 */
export type UpdateValues = readonly [type: string, id: string, text: string, revision: string | null];

/** A row the statement of several updates returns. */
type UpdatedRow = WrittenRow & { type: string; id: string };

/**
 * The updates of items (`updateItem`, one at a time; `updateItemsStatement`, several) as a kind of
 * Together, keyed by type and id.
 *
 * @example
 * const updates = new Together(itemUpdates(pool, 'public', sql.updateItem, 'ph_updateItem_public'));
 * const row = await updates.send(['player', 'alice', '{"alias":"a"}', '7']); // undefined: changed since
 */
export function itemUpdates(pool: Pool, schema: string, singleText: string, singleName: string): TogetherKind<WrittenRow> {
  const statements = new Map<number, { text: string; name: string }>();
  const statement = (count: number) => {
    const made = statements.get(count);
    if (made) return made;
    const key = `updateItems${count}`;
    const created = { text: updateItemsStatement(schema, count), name: statementNames([key], schema)[key]! };
    statements.set(count, created);
    return created;
  };
  return {
    keys: (values) => [`${values[0] as string}/${values[1] as string}`],
    one: async (values) => (await queryOrStoreError<WrittenRow>(pool, singleText, [...values], singleName)).rows[0],
    many: async (updates) => {
      const { text, name } = statement(updates.length);
      const { rows } = await queryOrStoreError<UpdatedRow>(pool, text, updates.flat(), name);
      const written = new Map(rows.map((row) => [`${row.type}/${row.id}`, row]));
      return updates.map(([type, id]) => written.get(`${type as string}/${id as string}`));
    },
  };
}
