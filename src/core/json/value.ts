// JSON values (RFC 8259): the type, equality as RFC 6902 section 4.6 defines it, and deep copies.

/**
 * Any JSON value.
 *
 * @example
 * const v: JsonValue = { playerId: 'bob', tags: ['a', 1, null, true] };
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [member: string]: JsonValue };

/**
 * A JSON object (not an array, not null).
 *
 * @example
 * const o: JsonObject = { alias: 'bo' };
 */
export type JsonObject = { [member: string]: JsonValue };

/**
 * Whether a value is a JSON object: a non-null, non-array object.
 *
 * @example
 * isJsonObject({}); // true
 * isJsonObject([]); // false
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Deep equality of JSON values, RFC 6902 section 4.6: same type; strings equal by code units; numbers
 * equal numerically (`1` equals `1.0`); arrays of the same length with equal elements in order;
 * objects with the same set of own member names and equal values, in any order; literals equal.
 *
 * @example
 * jsonEqual({ a: [1, { b: null }] }, { a: [1.0, { b: null }] }); // true
 * jsonEqual({ a: 1 }, { a: 1, b: 2 });                        // false
 * jsonEqual(10, '10');                                        // false
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * A deep copy of a JSON value: new arrays and objects all the way down, own enumerable members only.
 * Member names are copied as data (an own `__proto__` member stays a plain member).
 *
 * @example
 * const copy = cloneJson({ a: [1, 2] }); // a structurally equal, fully independent value
 */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = cloneJson((value as Record<string, unknown>)[key]);
    // Assigning to "__proto__" would set the prototype; define it as a plain member instead.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: member, writable: true, enumerable: true, configurable: true });
    else copy[key] = member;
  }
  return copy as T;
}
