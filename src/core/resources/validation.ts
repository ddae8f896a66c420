// An item's plain form checked against its type's schema, errors as JSON Pointers to the client's own members.
import type { ResourceType } from '../model/api.js';
import { validateItem, valueIsValid, type SchemaError } from '../model/validate.js';
import { HttpError, type FieldError } from '../http/problem.js';

/** A schema error as the service reports it: a missing member, an unknown one, a value the field's own rule refuses. */
function fieldError(type: ResourceType, e: SchemaError): FieldError {
  const top = /^\/([^/]*)/.exec(e.pointer)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
  if (e.keyword === 'required') return { pointer: e.pointer, detail: 'is required' };
  if (e.keyword === 'additionalProperties') return { pointer: e.pointer, detail: `is not a member of a ${type.title.toLowerCase()}` };
  const field = top === undefined ? undefined : type.field(top);
  if ((e.keyword === 'pattern' || e.keyword === 'format') && field?.invalid !== undefined) return { pointer: e.pointer, detail: field.invalid };
  return { pointer: e.pointer, detail: e.detail };
}

/**
 * The broken rules of a document against the type's schema (each once), and whether a member has the
 * wrong JSON type.
 *
 * @example
 * checkItem(type, { playerId: 'bob', alias: '' }).errors; // [{ pointer: '/alias', detail: 'must NOT have fewer than 1 characters' }]
 */
export function checkItem(type: ResourceType, document: unknown): { errors: FieldError[]; wrongType: boolean } {
  const raw = validateItem(type.schema, document);
  if (raw.length === 0) return { errors: [], wrongType: false };
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of raw) {
    const fe = fieldError(type, e);
    const key = `${fe.pointer}|${fe.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    errors.push(fe);
  }
  return { errors, wrongType: raw.some((e) => e.keyword === 'type') };
}

/**
 * Throws unless `document` is a valid item of `type`: 400 when a member has the wrong JSON type
 * (malformed input), 422 when it is well-formed but breaks a rule (docs/decisions.md).
 * `wrongTypeStatus` lets PATCH answer 422 for a patched result of the wrong type. `rename` maps a
 * plain field name back to the member the client sent (`/alias` to `/alternateName`), so pointers
 * name the client's own members.
 *
 * @example
 * requireValidItem(type, { playerId: 'bob', alias: 'bobby' }); // passes
 * requireValidItem(type, { playerId: 'bob', alias: 7 });        // throws HttpError 400
 */
export function requireValidItem(
  type: ResourceType,
  document: unknown,
  options: { wrongTypeStatus?: 400 | 422; rename?: Readonly<Record<string, string>> } = {},
): void {
  const { errors, wrongType } = checkItem(type, document);
  if (errors.length === 0) return;
  const rename = options.rename ?? {};
  const named = errors.map((e) => {
    const top = /^\/([^/]*)/.exec(e.pointer ?? '')?.[1];
    const pointer = top !== undefined && Object.hasOwn(rename, top) ? rename[top] : undefined;
    return pointer !== undefined ? { ...e, pointer: pointer + (e.pointer ?? '').slice(top!.length + 1) } : e;
  });
  const status = wrongType ? (options.wrongTypeStatus ?? 400) : 422;
  const t = type.title.toLowerCase();
  const detail = status === 400 ? `The ${t} has members of the wrong JSON type.` : `The ${t} breaks the ${t} schema.`;
  throw new HttpError(status, detail, { errors: named });
}

/**
 * Whether `id` is a valid id of `type`: a non-empty string its id field's schema accepts, and not a
 * dot segment (RFC 3986 section 5.2.4: `/player/..` is `/`).
 *
 * @example
 * isValidId(type, 'alice'); // true
 * isValidId(type, '..');    // false
 */
export function isValidId(type: ResourceType, id: string): boolean {
  if (id === '' || id === '.' || id === '..') return false;
  return valueIsValid(type.field(type.idField)!.schema, id);
}
