// Classifies node-postgres errors: unreachable database, retryable transaction, constraint violations.

/** Socket-level error codes of Node that mean "the database cannot be reached right now". */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOENT']);

/**
 * SQLSTATEs (PostgreSQL manual, appendix A) meaning the server is going away or not accepting work:
 * class 08 connection exceptions, 57P01-57P03 shutdown / cannot connect now, 53300 too many connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53000']);

/** Messages node-postgres gives to errors without a code when the connection is gone. */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable|terminating connection/i;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * True when the error says the database is unreachable (refused, reset, shut down, starting up, pool
 * connect timeout), as opposed to a problem with the statement.
 *
 * @example
 * isUnavailable(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })); // true
 */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (code && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true;
  return code === undefined && UNAVAILABLE_MESSAGES.test(error.message);
}

/**
 * True when a connection could not be had because every connection of the pool stayed checked out
 * past `connectionTimeoutMillis`: the pool is saturated, while the database may be fine.
 *
 * @example
 * if (isPoolSaturated(error, pool)) throw new StoreError('busy', 'all connections are in use');
 */
export function isPoolSaturated(error: unknown, pool: { totalCount: number; options: { max?: number } }): boolean {
  if (!(error instanceof Error) || codeOf(error) !== undefined || !/timeout exceeded when trying to connect/i.test(error.message)) return false;
  return pool.totalCount >= (pool.options.max ?? 10);
}

/**
 * True when PostgreSQL refused a value it cannot hold: SQLSTATE 22P05 (untranslatable character: jsonb
 * and text refuse U+0000) or 22021 (a character not in the database's encoding). PostgreSQL manual,
 * "jsonb": "\u0000 is disallowed, as it is in text".
 *
 * @example
 * isUnstorable({ code: '22P05' }); // true
 */
export function isUnstorable(error: unknown): boolean {
  const code = codeOf(error);
  return code === '22P05' || code === '22021';
}

/**
 * True for a transaction PostgreSQL aborted that is safe to run again from the start: a deadlock
 * (40P01) or a serialization failure (40001).
 *
 * @example
 * isRetryable({ code: '40P01' }); // true
 */
export function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40P01' || code === '40001';
}

/**
 * The constraint a unique (23505) or foreign key (23503) violation names, or undefined.
 *
 * @example
 * violated({ code: '23505', constraint: 'players_pkey' }); // { kind: 'unique', constraint: 'players_pkey' }
 */
export function violated(error: unknown): { kind: 'unique' | 'foreign-key'; constraint: string } | undefined {
  const code = codeOf(error);
  const constraint = (error as { constraint?: unknown }).constraint;
  if (typeof constraint !== 'string') return undefined;
  if (code === '23505') return { kind: 'unique', constraint };
  if (code === '23503') return { kind: 'foreign-key', constraint };
  return undefined;
}
