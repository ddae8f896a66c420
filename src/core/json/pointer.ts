// JSON Pointer (RFC 6901): parsing, escaping and array-index tokens, with no access to prototypes.

/**
 * Member names a pointer may never name: through them a path could reach an object's prototype
 * (`__proto__`) or its constructor (`constructor`, `prototype`). Refused in every pointer we evaluate.
 *
 * @example
 * PROTOTYPE_SEGMENTS.has('__proto__'); // true
 */
export const PROTOTYPE_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Splits a JSON Pointer into its reference tokens, unescaping `~1` to `/` and `~0` to `~`
 * (RFC 6901 section 4: `~1` first, then `~0`, so `~01` is `~1`). `''` is the whole document.
 * Throws a SyntaxError for a pointer that is not `''` and does not start with `/` (section 3), or
 * that holds a `~` not followed by `0` or `1` (section 3, `escaped = "~" ( "0" / "1" )`).
 *
 * @example
 * parseJsonPointer('/a~1b/m~0n/0'); // ['a/b', 'm~n', '0']
 * parseJsonPointer('');             // []
 */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (pointer.charCodeAt(0) !== 47 /* / */) throw new SyntaxError(`JSON Pointer "${pointer}" must be empty or start with "/"`);
  // One scan (faster than split for the short pointers of patches), unescaping only tokens with "~".
  const tokens: string[] = [];
  let start = 1;
  let tilde = false;
  for (let i = 1; i <= pointer.length; i++) {
    const c = i === pointer.length ? 47 : pointer.charCodeAt(i);
    if (c === 126 /* ~ */) {
      const next = pointer.charCodeAt(i + 1);
      if (next !== 48 && next !== 49) throw new SyntaxError(`JSON Pointer "${pointer}" holds "~" not followed by 0 or 1`);
      tilde = true;
    } else if (c === 47) {
      const token = pointer.slice(start, i);
      tokens.push(tilde ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token);
      start = i + 1;
      tilde = false;
    }
  }
  return tokens;
}

/**
 * Escapes one reference token: `~` to `~0`, then `/` to `~1` (RFC 6901 section 3).
 *
 * @example
 * escapeJsonPointerToken('a/b~c'); // 'a~1b~0c'
 */
export function escapeJsonPointerToken(token: string): string {
  // Most tokens (member names) hold neither character: returned as they are, without two regex passes.
  if (token.indexOf('~') < 0 && token.indexOf('/') < 0) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Builds a JSON Pointer from reference tokens (the inverse of `parseJsonPointer`).
 *
 * @example
 * formatJsonPointer(['friends', 0, 'a/b']); // '/friends/0/a~1b'
 * formatJsonPointer([]);                    // ''
 */
export function formatJsonPointer(tokens: readonly (string | number)[]): string {
  let pointer = '';
  for (const token of tokens) pointer += '/' + escapeJsonPointerToken(String(token));
  return pointer;
}

/**
 * Whether a reference token is an array index as RFC 6901 section 4 spells it:
 * `"0"` or digits without a leading zero (so `01`, `1e0`, `-1` and `+1` are not).
 *
 * @example
 * isArrayIndexToken('10'); // true
 * isArrayIndexToken('01'); // false
 */
export function isArrayIndexToken(token: string): boolean {
  const n = token.length;
  if (n === 0 || n > 15) return false; // beyond 15 digits no JavaScript array can hold the index
  const first = token.charCodeAt(0);
  if (first === 48 /* 0 */) return n === 1;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Whether a pointer holds a `__proto__`, `constructor` or `prototype` token (see PROTOTYPE_SEGMENTS).
 *
 * @example
 * hasPrototypeToken(['a', '__proto__']); // true
 */
export function hasPrototypeToken(tokens: readonly string[]): boolean {
  for (const token of tokens) if (PROTOTYPE_SEGMENTS.has(token)) return true;
  return false;
}

/**
 * The value a pointer names, reading own members only (never inherited ones), or undefined when the
 * pointer names nothing. Throws a SyntaxError for a malformed pointer and a TypeError for a pointer that
 * holds a prototype token.
 *
 * @example
 * getByJsonPointer({ friends: [{ alias: 'bo' }] }, '/friends/0/alias'); // 'bo'
 * getByJsonPointer({ a: 1 }, '/toString');                               // undefined
 */
export function getByJsonPointer(document: unknown, pointer: string): unknown {
  const tokens = parseJsonPointer(pointer);
  if (hasPrototypeToken(tokens)) throw new TypeError(`JSON Pointer "${pointer}" may not name __proto__, constructor or prototype`);
  let current = document;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      if (!isArrayIndexToken(token)) return undefined;
      const index = Number(token);
      if (index >= current.length) return undefined;
      current = current[index];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, token)) return undefined;
      current = (current as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return current;
}
