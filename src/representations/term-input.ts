// Reading request bodies written with a type's terms (the field names of the linked-data style formats).
import type { ItemInput } from '../core/model/representation.js';
import type { ResourceType } from '../core/model/api.js';
import { HttpError } from '../core/http/problem.js';
import { acceptedNames } from './term-fields.js';

/** "a, b or c". */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/**
 * Builds an ItemInput from values keyed by the type's alternate names, with `ref` (a URL naming an
 * existing item: HAL's self link, JSON-LD's `@id`) when the body has one; the id field stays a field,
 * which the write route reads as a reference too (docs/decisions.md). `pointers` says where each plain
 * field (and the reference) came from, for the write route's error messages. Unknown names are 400,
 * each named by its JSON Pointer, so that a misspelt field is reported instead of silently dropped.
 *
 * @example
 * // a type whose field `title` is called `name` in the linked-data formats:
 * inputFromTerms(bookType, [['name', 'Dune', '/name']]); // { fields: { title: 'Dune' }, pointers: { title: '/name' } }
 */
export function inputFromTerms(
  type: ResourceType,
  values: Iterable<readonly [name: string, value: unknown, pointer: string]>,
  ref?: { value: string; pointer: string },
): ItemInput {
  const fields: Record<string, unknown> = {};
  const pointers: Record<string, string> = {};
  const unknown: { pointer: string; detail: string }[] = [];
  for (const [name, value, pointer] of values) {
    const plain = type.fieldByTerm(name)?.name;
    if (plain === undefined) unknown.push({ pointer, detail: `unknown field "${name}"; expected ${orList(acceptedNames(type))}` });
    else if (value !== undefined) {
      fields[plain] = value;
      pointers[plain] = pointer;
    }
  }
  if (unknown.length) throw new HttpError(400, `The request body has fields a ${type.title.toLowerCase()} does not have.`, { errors: unknown });
  if (ref === undefined) return { fields, pointers };
  pointers.ref = ref.pointer;
  return { fields, pointers, ref: ref.value };
}

/**
 * The body as a JSON object, or 400 (a body of the wrong JSON type).
 *
 * @example
 * requireObject(JSON.parse('{"name":"Bob"}'), 'HAL'); // { name: 'Bob' }
 */
export function requireObject(body: unknown, format: string, pointer = ''): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, `A ${format} request body must be a JSON object.`, {
      errors: [{ pointer, detail: 'must be an object' }],
    });
  }
  return body as Record<string, unknown>;
}

/**
 * Escapes a member name for a JSON Pointer (RFC 6901 section 3: `~` as `~0`, `/` as `~1`).
 *
 * @example
 * pointerToken('a/b'); // 'a~1b'
 */
export function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
