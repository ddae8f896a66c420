// A put of an item as one statement: an insert, an upsert or a compare-and-set update, as its expectation says.
import type { QueryResult } from 'pg';
import { StoreError, type Expectation } from '../contract.js';
import { revisionParam, type ItemRow } from './rows.js';
import type { UpdateValues } from './item-updates.js';

/**
 * What a write of an item returns (see `writtenItem`): its new revision and modification time.
 *
 * @example
 * const row: WrittenRow = { revision: '42', modified_ms: 1764230400000 };
 */
export type WrittenRow = Pick<ItemRow, 'revision' | 'modified_ms'>;

/**
 * Writes an item (`values`: type, id, fields as json text) with the one statement its expectation
 * needs: `insertItem` when it must not exist, `upsertItem` when nothing is expected, else the
 * compare-and-set (`update`, which may send it with others: Together). Returns the row written and
 * whether it made the item; a failed expectation is StoreError('revision-mismatch').
 *
 * @example
 * const { row, created } = await putRow((key, values) => prepared(key, values), (v) => updates.send(v), ['player', 'alice', '{"alias":"a"}'], {});
 */
export async function putRow(
  run: <R extends object>(key: 'insertItem' | 'upsertItem', values: unknown[]) => Promise<QueryResult<R>>,
  update: (values: UpdateValues) => Promise<WrittenRow | undefined>,
  values: readonly [string, string, string],
  expect: Expectation,
): Promise<{ row: WrittenRow; created: boolean }> {
  const [type, id] = values;
  if (expect.exists === false) {
    const { rows } = expect.revision === undefined ? await run<WrittenRow>('insertItem', [...values]) : { rows: [] };
    if (!rows[0]) throw new StoreError('revision-mismatch', `${type} "${id}" already exists`);
    return { row: rows[0], created: true };
  }
  if (expect.revision === undefined && expect.exists === undefined) {
    const { rows } = await run<WrittenRow & { created: boolean }>('upsertItem', [...values]);
    return { row: rows[0]!, created: rows[0]!.created };
  }
  const row = await update([type, id, values[2], revisionParam(expect.revision)]);
  if (!row) throw new StoreError('revision-mismatch', `${type} "${id}" has changed or does not exist`);
  return { row, created: false };
}
