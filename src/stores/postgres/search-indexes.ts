// The search indexes (pg_trgm) and expression statistics the declared types' searches need, and the SQL
// quoting they and the statements share.
import type { Api } from '../../core/model/api.js';

/**
 * The name of the search index of one field of one type: `items_<type>_<field>_trgm`, or a hash of
 * both past PostgreSQL's 63 bytes.
 *
 * @example
 * searchIndexName('player', 'alias'); // 'items_player_alias_trgm'
 */
export function searchIndexName(type: string, field: string): string {
  const name = `items_${type.replace(/-/g, '_')}_${field}_trgm`;
  if (Buffer.byteLength(name) <= 63) return name.toLowerCase();
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return `items_trgm_${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** An SQL string literal. */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The pg_trgm GIN index of every field a declared relation searches, on the items of its target type
 * (`lower(data->>'<field>')`, partial on the type): what makes a search of a long list cheap. Made by
 * `migrate` when missing; an index no declaration names any more is left alone. Beside each, the
 * statistics of its expression: the planner ignores a partial index's statistics, and without them it
 * guessed a few dozen matches for a term every member matches, chose the index and read the whole list
 * (2.3 s at 1M members) instead of walking the list in order and stopping at the count limit.
 *
 * @example
 * searchIndexes(playerApi, '"public"', 'public'); // ['CREATE INDEX IF NOT EXISTS items_player_alias_trgm ...', 'CREATE STATISTICS ...', ...]
 */
export function searchIndexes(api: Api, s: string, trgm: string): string[] {
  const wanted = new Map<string, string>();
  for (const type of api.types) {
    for (const relation of type.relations) {
      for (const field of relation.search?.fields ?? []) {
        const target = relation.target;
        const expression = field === target.idField ? 'lower(id)' : `lower(data->>${quoteLiteral(field)})`;
        wanted.set(
          `CREATE INDEX IF NOT EXISTS ${quoteIdentifier(searchIndexName(target.name, field))}`,
          `ON ${s}.items USING gin (${expression} ${trgm}.gin_trgm_ops) WHERE type = ${quoteLiteral(target.name)}`,
        );
        // Extended statistics on an expression (PostgreSQL 14+): one per expression, whatever the type.
        if (field !== target.idField) wanted.set(`CREATE STATISTICS IF NOT EXISTS ${s}.${quoteIdentifier(searchIndexName('stat', field))}`, `ON (${expression}) FROM ${s}.items`);
      }
    }
  }
  return [...wanted].map(([head, rest]) => `${head} ${rest}`);
}

/** Quotes an SQL identifier (a schema name). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

