// Validation of path and query parameters: item ids, page numbers, search text.
import type { ResourceType } from '../model/api.js';
import { HttpError } from '../http/problem.js';
import { isValidId } from './validation.js';
import type { RequestContext } from '../service/context.js';
import { itemKey } from '../../stores/contract.js';

/** Longest search text accepted (characters). */
export const MAX_SEARCH_LENGTH = 128;

/**
 * The id of a path parameter for `type`, or 400 when its id field refuses it.
 *
 * @example
 * requireId(type, 'alice'); // 'alice'
 * requireId(type, 'a b');   // throws HttpError 400
 */
export function requireId(type: ResourceType, id: string | undefined, name = 'id'): string {
  if (id === undefined || !isValidId(type, id)) {
    const t = type.title.toLowerCase();
    const rule = type.field(type.idField)!.invalid ?? 'is not valid';
    throw new HttpError(400, `The ${t} id ${rule}.`, { errors: [{ parameter: name, detail: `invalid ${t} id` }] });
  }
  return id;
}

/**
 * The id of the item a route addresses (its `{id}` parameter; the owner, for a list's routes), checked
 * (400 when `type`'s id field refuses it), and noted on the context (`ctx.item`): a successful write
 * purges the cache tags of that item.
 *
 * @example
 * const id = addressedItem(ctx, type); // 'alice'
 */
export function addressedItem(ctx: RequestContext, type: ResourceType): string {
  const id = requireId(type, ctx.params.id);
  ctx.item = itemKey(type.name, id);
  return id;
}

/**
 * What the parameter checks read of a query: a URLSearchParams, or a request's target (RequestTarget),
 * which reads a query needing no decoding off its string.
 *
 * @example
 * const query: QueryValues = ctx.target;
 */
export type QueryValues = Pick<URLSearchParams, 'getAll'>;

/**
 * The 1-based page number of the `page` query parameter (default 1), or 400 unless it is a positive
 * integer written in plain decimal digits.
 *
 * @example
 * requirePage(new URLSearchParams('page=3')); // 3
 * requirePage(new URLSearchParams(''));       // 1
 */
export function requirePage(query: QueryValues): number {
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
export function requireSearch(query: QueryValues, name = 'search'): string {
  const values = query.getAll(name);
  const text = values[0]?.trim() ?? '';
  if (values.length !== 1 || text.length === 0 || text.length > MAX_SEARCH_LENGTH) {
    throw new HttpError(400, `The ${name} parameter is required once, with 1 to ${MAX_SEARCH_LENGTH} characters.`, {
      errors: [{ parameter: name, detail: values.length === 0 ? 'missing' : 'must have 1 to 128 characters' }],
    });
  }
  return text;
}
