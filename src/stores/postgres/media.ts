// Writing an item's media (an avatar's bytes) with the write's expectation as a compare-and-set.
import type { QueryResult, QueryResultRow } from 'pg';
import type { ResourceType } from '../../core/model/api.js';
import { StoreError, type Expectation } from '../contract.js';
import type { Statements } from './statements.js';
import { revisionParam } from './rows.js';

type Query = <R extends QueryResultRow>(text: string, values: unknown[]) => Promise<QueryResult<R>>;

/**
 * Writes media `name` of an item: created only (`exists: false`), replaced at a revision (`revision` or
 * `exists: true`), or either. A write that does not take is `not-found` when the item does not exist,
 * else `revision-mismatch`. Returns the media's new revision and modification time.
 *
 * @example
 * const { revision } = await writeMedia(query, sql, player, 'alice', 'avatar', png, 'image/png', {});
 */
export async function writeMedia(
  query: Query,
  sql: Statements,
  type: ResourceType,
  id: string,
  name: string,
  bytes: Uint8Array,
  contentType: string,
  expect: Expectation,
): Promise<{ revision: string; modifiedAt: number }> {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let statement = sql.upsertMedia;
  const values: unknown[] = [type.name, id, name, data, contentType];
  if (expect.exists === false) statement = sql.insertMedia;
  else if (expect.revision !== undefined || expect.exists === true) {
    statement = sql.updateMedia;
    values.push(revisionParam(expect.revision));
  }
  const { rows } = expect.exists === false && expect.revision !== undefined ? { rows: [] } : await query<{ revision: string; modified_ms: number }>(statement, values);
  if (!rows[0]) {
    const item = await query(sql.revisionOf, [type.name, id]);
    if (!item.rows[0]) throw StoreError.exposed('not-found', `no ${type.name} "${id}"`);
    throw new StoreError('revision-mismatch', `${name} revision or existence differs`);
  }
  return { revision: rows[0].revision, modifiedAt: rows[0].modified_ms };
}
