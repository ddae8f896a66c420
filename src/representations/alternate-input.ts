// Reading request bodies written with the alternate field names (name, alternateName, image, playerId).
import type { PlayerInput } from '../core/model/representation.js';
import { HttpError } from '../core/http/problem.js';

/**
 * The alternate field names of the Player API (those of the linked-data style formats)
 * and the plain names they stand for.
 *
 * @example
 * ALTERNATE_TO_PLAIN.alternateName; // 'alias'
 */
export const ALTERNATE_TO_PLAIN: Readonly<Record<string, string>> = Object.freeze({
  playerId: 'playerId',
  name: 'displayName',
  alternateName: 'alias',
  image: 'image',
});

/**
 * Builds a PlayerInput from values keyed by alternate names, with `ref` (a URL naming an existing
 * player: HAL's self link, JSON-LD's `@id`) when the body has one; a `playerId` stays a field, which
 * the write route reads as a reference too (docs/decisions.md). `pointers` says where each plain field (and
 * the reference) came from, for the write route's error messages. Unknown names are 400, each named by
 * its JSON Pointer, so that a misspelt field is reported instead of silently dropped.
 *
 * @example
 * playerInputFromAlternate([['name', 'Bob', '/name'], ['alternateName', 'bobby', '/alternateName']]);
 * // { fields: { displayName: 'Bob', alias: 'bobby' }, pointers: { displayName: '/name', alias: '/alternateName' } }
 */
export function playerInputFromAlternate(
  values: Iterable<readonly [name: string, value: unknown, pointer: string]>,
  ref?: { value: string; pointer: string },
): PlayerInput {
  const fields: Record<string, unknown> = {};
  const pointers: Record<string, string> = {};
  const unknown: { pointer: string; detail: string }[] = [];
  for (const [name, value, pointer] of values) {
    const plain = Object.hasOwn(ALTERNATE_TO_PLAIN, name) ? ALTERNATE_TO_PLAIN[name] : undefined;
    if (plain === undefined) unknown.push({ pointer, detail: `unknown field "${name}"; expected playerId, name, alternateName or image` });
    else if (value !== undefined) {
      fields[plain] = value;
      pointers[plain] = pointer;
    }
  }
  if (unknown.length) throw new HttpError(400, 'The request body has fields a player does not have.', { errors: unknown });
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
