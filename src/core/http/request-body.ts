// Reading request bodies safely: size limit (413 before reading too much), strict UTF-8, JSON depth.
import { andThen, type Awaitable } from '../service/awaitable.js';
import { HttpError } from './problem.js';

/**
 * Default largest request body accepted (bytes): 64 KiB (docs/decisions.md).
 *
 * @example
 * createPlayerService({ baseUrl, maxBodyBytes: 4 * DEFAULT_MAX_BODY_BYTES });
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * Default deepest nesting of arrays and objects accepted in a JSON body.
 *
 * @example
 * createPlayerService({ baseUrl, maxBodyDepth: DEFAULT_MAX_BODY_DEPTH / 2 });
 */
export const DEFAULT_MAX_BODY_DEPTH = 32;

/**
 * A parsed Content-Type: the lowercased `type/subtype` essence and its parameters (names lowercased,
 * quoted values unquoted), per RFC 9110 section 8.3.1.
 *
 * @example
 * parseContentType('application/json; charset=UTF-8'); // { mediaType: 'application/json', params: { charset: 'UTF-8' } }
 */
export interface ContentType {
  mediaType: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses a Content-Type field value; undefined when it is missing or not a valid media type. The
 * result is frozen: the parse of a short value is kept and shared by every request that sends it.
 *
 * @example
 * parseContentType('application/vnd.api+json')?.mediaType; // 'application/vnd.api+json'
 * parseContentType('nonsense'); // undefined
 */
export function parseContentType(value: string | null): ContentType | undefined {
  if (value === null) return undefined;
  // Clients send the same few short Content-Type values: each is parsed once (frozen, as it is shared);
  // a long one is parsed each time, so that what is kept stays small whatever clients send.
  if (value.length > MAX_KEPT_LENGTH) return parseContentTypeText(value);
  let parsed = parsedContentTypes.get(value);
  if (parsed === undefined) {
    parsed = parseContentTypeText(value) ?? null;
    if (parsedContentTypes.size >= MAX_KEPT) parsedContentTypes.clear();
    parsedContentTypes.set(value, parsed);
  }
  return parsed ?? undefined;
}

const parsedContentTypes = new Map<string, Readonly<ContentType> | null>();
/** At most this many Content-Type values of at most MAX_KEPT_LENGTH characters are kept parsed (about 32 KiB). */
const MAX_KEPT = 256;
const MAX_KEPT_LENGTH = 128;

function parseContentTypeText(value: string): ContentType | undefined {
  const [essence = '', ...rest] = value.split(';');
  const [type, subtype, extra] = essence.trim().toLowerCase().split('/');
  if (!type || !subtype || extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let v = part.slice(eq + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    if (name) params[name] = v;
  }
  return Object.freeze({ mediaType: `${type}/${subtype}`, params: Object.freeze(params) });
}

/**
 * Whether a media type uses JSON syntax: `application/json` or any `+json` structured suffix
 * (RFC 6838 section 4.2.8).
 *
 * @example
 * isJsonMediaType('application/hal+json'); // true
 */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * What a body is read from: the request's header fields (Content-Length) and its body stream. A
 * `Request` is one; the service reads from the request head and what an adapter gives when it has no
 * Request (see `RequestHead.bodyStream` and `RequestHead.bodyBytes`).
 *
 * @example
 * const source: BodySource = new Request(url, { method: 'PUT', body: '{}' });
 */
export interface BodySource {
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /**
   * The whole body read without a stream, longer than `limit` when it is (see `RequestHead.bodyBytes`;
   * not `bytes`, a Request's own method): the bytes themselves when they are all here already.
   */
  readonly readUpTo?: (limit: number) => Awaitable<Uint8Array>;
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `The request body is larger than ${limit} bytes.`, { extensions: { maxBodyBytes: limit } });
}

/**
 * Reads the whole body as bytes, at most `limit` of them. A Content-Length over the limit is 413 before
 * anything is read (RFC 9110 section 15.5.14); a streamed body is counted as it arrives and reading
 * stops at the first byte past the limit (413), so the rest is never buffered. The bytes come at once
 * (no promise, no turn of the microtask queue) when an adapter already holds them all, as Node does
 * for a small body that arrived with the head; a failure is then thrown rather than a rejection.
 *
 * @example
 * const bytes = await readBodyBytes(request, 64 * 1024);
 */
export function readBodyBytes(request: BodySource, limit: number): Awaitable<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    // RFC 9110 section 8.6: 1*DIGIT.
    if (!/^\s*\d+\s*$/.test(declared)) throw new HttpError(400, 'Content-Length is not a number of bytes.');
    if (Number(declared) > limit) throw tooLarge(limit);
  }
  // An adapter's whole body: the bytes or one promise, not a stream and its reader.
  if (request.readUpTo) {
    return andThen(request.readUpTo(limit), (bytes) => {
      if (bytes.byteLength > limit) throw tooLarge(limit);
      return bytes;
    });
  }
  return readStream(request, limit);
}

/** The body stream of `request` read whole (at most `limit` bytes, else 413). */
async function readStream(request: BodySource, limit: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Decodes UTF-8 strictly: invalid byte sequences are 400 rather than replaced (RFC 8259 section 8.1:
 * JSON exchanged between systems is UTF-8). A leading byte order mark is dropped.
 *
 * @example
 * decodeUtf8(new TextEncoder().encode('{"a":1}')); // '{"a":1}'
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, 'The request body is not valid UTF-8.');
  }
}

/**
 * The deepest nesting of arrays and objects in JSON text, counted without parsing (strings skipped),
 * stopping as soon as `limit` is passed.
 *
 * @example
 * jsonDepth('{"a":[1,{"b":2}]}', 32); // 3
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/**
 * Parses JSON text: 400 for malformed JSON (RFC 8259) or nesting deeper than `maxDepth`.
 *
 * @example
 * parseJsonText('{"alias":"bobby"}', 32); // { alias: 'bobby' }
 */
export function parseJsonText(text: string, maxDepth: number): unknown {
  // JSON nested deeper than maxDepth has at least maxDepth + 1 opening brackets and as many closing
  // ones: a shorter text is either shallow enough or not JSON at all (JSON.parse says so), and is not
  // scanned (most bodies of writes are).
  if (text.length >= 2 * (maxDepth + 1) && jsonDepth(text, maxDepth) > maxDepth) {
    throw new HttpError(400, `The JSON body is nested deeper than ${maxDepth} levels.`, { extensions: { maxBodyDepth: maxDepth } });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'invalid JSON';
    throw new HttpError(400, `The request body is not valid JSON: ${reason}`);
  }
}

/** Limits for reading one body. */
export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

/**
 * A body read and parsed according to its Content-Type: JSON syntax types as a JSON value,
 * `application/x-www-form-urlencoded` as URLSearchParams, anything else as text.
 *
 * @example
 * const { value }: ParsedBody = await readParsedBody(request, contentType, { maxBytes: 65536, maxDepth: 32 });
 */
export interface ParsedBody {
  contentType: ContentType;
  /** The body as text (decoded UTF-8), e.g. for an idempotency fingerprint. */
  text: string;
  value: unknown;
}

/**
 * Reads and parses a request body whose Content-Type was already accepted: at once when the body is
 * all here (see `readBodyBytes`).
 *
 * @example
 * const body = await readParsedBody(request, parseContentType('application/json')!, { maxBytes: 65536, maxDepth: 32 });
 */
export function readParsedBody(request: BodySource, contentType: ContentType, limits: BodyLimits): Awaitable<ParsedBody> {
  return andThen(readBodyBytes(request, limits.maxBytes), (bytes) => parsedBody(decodeUtf8(bytes), contentType, limits));
}

function parsedBody(text: string, contentType: ContentType, limits: BodyLimits): ParsedBody {
  const { mediaType } = contentType;
  if (isJsonMediaType(mediaType)) return { contentType, text, value: parseJsonText(text, limits.maxDepth) };
  // WHATWG URL standard, application/x-www-form-urlencoded parsing (always UTF-8).
  if (mediaType === 'application/x-www-form-urlencoded') return { contentType, text, value: new URLSearchParams(text) };
  return { contentType, text, value: text };
}
