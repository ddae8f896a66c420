// JSON text written by concatenation, byte for byte what JSON.stringify would write (RFC 8259 section 7).
import { hasUriSafeLinks, type Resource } from '../model/resource.js';

/**
 * The characters JSON.stringify escapes in a string (ECMA-262 QuoteJSONString): the quote, the
 * backslash, C0 controls, and surrogates (only lone ones are escaped: any surrogate takes the slow path).
 */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as a JSON string literal, exactly as `JSON.stringify(s)` writes it: quoted as is when it
 * holds nothing to escape (the common case: ids, URLs, names), else by JSON.stringify itself.
 *
 * @example
 * jsonString('bob');    // '"bob"'
 * jsonString('say "hi"'); // '"say \\"hi\\""'
 */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * The characters of `s` as they stand between the quotes of its JSON string literal: `s` itself when it
 * holds nothing to escape (no copy), else the inside of `JSON.stringify(s)`. Renderers write the quotes
 * in their fixed text, so a value costs one concatenation on each side.
 *
 * @example
 * `{"name":"${jsonChars('Zoe "Z" Quill')}"}`; // '{"name":"Zoe \\"Z\\" Quill"}'
 */
export function jsonChars(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s).slice(1, -1) : s;
}

/** True while rendering a resource whose URIs are known to need no escaping (see `withUris`). */
let urisVerified = false;

/**
 * Renders `resource` with `render`, telling `uriChars` and `jsonUri` whether its URIs may be written as
 * they are: true for a resource from the document builders over a base URL with nothing JSON escapes
 * (`hasUriSafeLinks`: its URIs are that base plus percent-encoded parts), false for anything else (a
 * resource built by hand), whose URIs are checked and escaped like any text. Rendering is synchronous,
 * so one flag serves; it is restored afterwards (renders may nest).
 *
 * @example
 * render(resource) { return withUris(resource, () => renderHal(resource)); }
 */
export function withUris<T>(resource: Resource, render: () => T): T {
  const outer = urisVerified;
  urisVerified = hasUriSafeLinks(resource);
  try {
    return render();
  } finally {
    urisVerified = outer;
  }
}

/**
 * A URI as it stands between quotes in JSON: as it is when the resource being rendered has verified
 * URIs (`withUris`), else checked and escaped as `jsonChars` does.
 *
 * @example
 * `{"href":"${uriChars('https://x.test/player/bob')}"}`;
 */
export function uriChars(s: string): string {
  return urisVerified ? s : jsonChars(s);
}

/**
 * A URI as a JSON string literal (see `uriChars`).
 *
 * @example
 * jsonUri('https://x.test/player/bob'); // '"https://x.test/player/bob"'
 */
export function jsonUri(s: string): string {
  return urisVerified ? `"${s}"` : jsonString(s);
}

/**
 * A number as JSON writes it: finite numbers in their shortest form, anything else `null`
 * (ECMA-262 SerializeJSONProperty).
 *
 * @example
 * jsonNumber(32);  // '32'
 * jsonNumber(NaN); // 'null'
 */
export function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/**
 * `s` as one flat string. V8 keeps a string built by concatenation as a tree (a rope) that every later
 * copy walks again; text that renderers keep and write on every item is made flat once. Reading one
 * character of a rope makes V8 flatten it in place (the rope then points at one sequential copy): one
 * copy, where reading it back through JSON.parse made two and parsed; every later concatenation of it
 * then copies one piece.
 *
 * @example
 * const HEAD = flat(`{"rel":${JSON.stringify(rel)},"href":"`);
 */
export function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

const keys = new Map<string, string>();

/**
 * `"name":` for a member name, remembered (flat): names come from a small set (relation types,
 * field names) that a page repeats on every item; the memory is bounded in case a caller passes anything.
 *
 * @example
 * jsonKey('self'); // '"self":'
 */
export function jsonKey(name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    key = flat(`${jsonString(name)}:`);
    if (keys.size < 512) keys.set(name, key);
  }
  return key;
}

/**
 * Whether the resource being rendered has verified URIs (see `withUris`): a format may then write URIs
 * it derives from the resource's own URL (a relation's list, `{url}/friends`) without reading its links.
 *
 * @example
 * if (urisAreVerified()) text = `${head}${doc.url}${tail}`;
 */
export function urisAreVerified(): boolean {
  return urisVerified;
}

/**
 * The pieces of a text with holes marked by U+0000 (which no JSON text or URI written raw holds),
 * each made flat: `interleave(pieces, x)` writes the text with `x` in every hole.
 *
 * @example
 * interleave(holes('{"self":"\u0000","list":"\u0000/list"}'), 'https://x.test/a'); // '{"self":"https://x.test/a","list":"https://x.test/a/list"}'
 */
export function holes(template: string): readonly string[] {
  return template.split('\u0000').map(flat);
}

/**
 * The text of `pieces` (see `holes`) with `value` in every hole.
 *
 * @example
 * interleave(['{"a":"', '"}'], 'x'); // '{"a":"x"}'
 */
export function interleave(pieces: readonly string[], value: string): string {
  let out = pieces[0]!;
  for (let i = 1; i < pieces.length; i++) out += value + pieces[i]!;
  return out;
}
