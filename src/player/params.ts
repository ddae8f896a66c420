// Validation of path and query parameters: player ids, page numbers, search text.
import { isValidPlayerId } from './player.js';
import { HttpError } from '../core/http/problem.js';

/** Longest search text accepted (characters). */
export const MAX_SEARCH_LENGTH = 128;

/**
 * The player id of a path parameter, or 400 when it breaks the id rules.
 *
 * @example
 * requirePlayerId('alice'); // 'alice'
 * requirePlayerId('a b');   // throws HttpError 400
 */
export function requirePlayerId(id: string | undefined, name = 'id'): string {
  if (id === undefined || !isValidPlayerId(id)) {
    throw new HttpError(400, `The player id must be 1 to 64 characters of A-Z a-z 0-9 . _ ~ -.`, {
      errors: [{ parameter: name, detail: 'invalid player id' }],
    });
  }
  return id;
}

/**
 * The 1-based page number of the `page` query parameter (default 1), or 400 unless it is a positive
 * integer written in plain decimal digits.
 *
 * @example
 * requirePage(new URLSearchParams('page=3')); // 3
 * requirePage(new URLSearchParams(''));       // 1
 */
export function requirePage(query: URLSearchParams): number {
  const values = query.getAll('page');
  if (values.length === 0) return 1;
  const raw = values[0]!;
  if (values.length > 1 || !/^[1-9][0-9]{0,8}$/.test(raw)) {
    throw new HttpError(400, 'The page parameter must be one positive integer (1, 2, 3...).', {
      errors: [{ parameter: 'page', detail: `"${values.join(',')}" is not a positive integer` }],
    });
  }
  return Number(raw);
}

/**
 * The text of the `search` query parameter (or the format's own `name` for it): present once, 1 to 128
 * characters after trimming.
 *
 * @example
 * requireSearch(new URLSearchParams('search=ali')); // 'ali'
 */
export function requireSearch(query: URLSearchParams, name = 'search'): string {
  const values = query.getAll(name);
  const text = values[0]?.trim() ?? '';
  if (values.length !== 1 || text.length === 0 || text.length > MAX_SEARCH_LENGTH) {
    throw new HttpError(400, `The ${name} parameter is required once, with 1 to ${MAX_SEARCH_LENGTH} characters.`, {
      errors: [{ parameter: name, detail: values.length === 0 ? 'missing' : 'must have 1 to 128 characters' }],
    });
  }
  return text;
}
