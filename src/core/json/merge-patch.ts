// JSON Merge Patch (RFC 7396): non-mutating, own members only, no member named like a prototype path.
import { escapeJsonPointerToken, PROTOTYPE_SEGMENTS } from './pointer.js';
import { isJsonObject, type JsonValue } from './value.js';

/**
 * The error `applyMergePatch` throws when a patch names a `__proto__`, `constructor` or `prototype`
 * member; `pointer` is where in the patch (e.g. `/profile/__proto__`). Nothing was changed.
 *
 * @example
 * try { applyMergePatch({}, JSON.parse('{"__proto__": {"x": 1}}')); }
 * catch (e) { if (e instanceof MergePatchError) console.log(e.pointer); } // '/__proto__'
 */
export class MergePatchError extends Error {
  readonly reason = 'prototype-path' as const;
  readonly pointer: string;

  constructor(pointer: string) {
    super(`The merge patch member at ${JSON.stringify(pointer)} is refused: members named __proto__, constructor or prototype are not allowed`);
    this.name = 'MergePatchError';
    this.pointer = pointer;
  }
}

/**
 * Applies a JSON Merge Patch (RFC 7396 section 2) and returns the result; neither input is changed.
 * An object patch merges member by member (`null` removes a member, objects merge recursively, anything
 * else replaces); any other patch (array, string, number, boolean, null) replaces the target whole.
 * Unchanged members are shared with the target. Only own members of the target are read.
 *
 * @example
 * import { applyMergePatch } from 'player-hypermedia';
 * applyMergePatch({ alias: 'bo', displayName: 'Bo' }, { displayName: null, alias: 'bobby' });
 * // { alias: 'bobby' }
 */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  return merge(target, patch, '');
}

/**
 * Checks a merge patch without applying it: throws the MergePatchError `applyMergePatch` would throw
 * for any target (every member a merge can visit is visited), and builds nothing.
 *
 * @example
 * checkMergePatch({ alias: 'bobby', profile: { city: null } }); // fine
 * checkMergePatch(JSON.parse('{"a": {"__proto__": 1}}')); // throws MergePatchError at '/a/__proto__'
 */
export function checkMergePatch(patch: JsonValue): void {
  check(patch, '');
}

function check(patch: JsonValue, at: string): void {
  if (!isJsonObject(patch)) return;
  for (const name of Object.keys(patch)) {
    if (PROTOTYPE_SEGMENTS.has(name)) throw new MergePatchError(memberPointer(at, name));
    const value = patch[name]!;
    // null removes a member and anything but an object replaces one: only objects are walked into.
    if (isJsonObject(value)) check(value, memberPointer(at, name));
  }
}

/** The pointer of member `name` of the object at `at` (made only where it is used: errors and nested objects). */
function memberPointer(at: string, name: string): string {
  return `${at}/${escapeJsonPointerToken(name)}`;
}

function merge(target: unknown, patch: JsonValue, at: string): JsonValue {
  if (!isJsonObject(patch)) return patch;
  const source = isJsonObject(target) ? target : undefined;
  const result: Record<string, JsonValue> = source ? { ...source } : {};
  for (const name of Object.keys(patch)) {
    if (PROTOTYPE_SEGMENTS.has(name)) throw new MergePatchError(memberPointer(at, name));
    const value = patch[name]!;
    if (value === null) {
      delete result[name];
    } else if (isJsonObject(value)) {
      const current = source && Object.hasOwn(source, name) ? source[name] : undefined;
      result[name] = merge(current, value, memberPointer(at, name));
    } else {
      // Anything but an object replaces the member whole (RFC 7396 section 2).
      result[name] = value;
    }
  }
  return result;
}
