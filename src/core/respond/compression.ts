// Content codings of answers (RFC 9110 section 8.4): gzip or br by Accept-Encoding, a tag per coding.
import { Answer, type Fields } from './answer.js';
import type { BodyCache } from '../caches/body-cache.js';
import { appendVary, copyFields } from './fields.js';
import { changedHead, type HeaderReader, type RequestHead } from '../http/request-head.js';

/**
 * Encodes a body in one content coding (gzip, br...): returns the coded bytes, at once or later.
 *
 * @example
 * const gzip: ContentCoder = (bytes) => new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).bytes();
 */
export type ContentCoder = (bytes: Uint8Array) => Uint8Array | Promise<Uint8Array>;

/**
 * Compression of answers: 200s to GET (and the fields of HEAD) whose body is text (JSON, its `+json`
 * types, HTML, `text/*`) and at least `threshold` bytes are sent in the best coding the client accepts
 * (`Accept-Encoding` with q-values, RFC 9110 section 12.5.3), with `Vary: Accept-Encoding` and an ETag of
 * their own (the identity tag with `-gzip` or `-br` inside the quotes, section 8.8.3). `codings` are the
 * codings offered, in the server's order of preference; by default gzip through the web-standard
 * `CompressionStream`, which every runtime has. On Node, `nodeContentCodings()` (from
 * `player-hypermedia/node`) adds br. Compressed bodies are kept in the body cache, so a repeated read is
 * compressed once.
 *
 * @example
 * createPlayerService({ baseUrl, compression: { threshold: 1024 } });
 */
export interface CompressionOptions {
  /** Smallest body compressed, in bytes (default 1024: below it the coding costs more than it saves). */
  threshold?: number;
  /** Coding name (lower case) to coder, in preference order (default `{ gzip }` by CompressionStream). */
  codings?: Readonly<Record<string, ContentCoder>>;
}

/** A validated compression configuration. */
export interface CompressionPolicy {
  threshold: number;
  codings: ReadonlyMap<string, ContentCoder>;
  /** Accept-Encoding value to chosen coding (or '' for identity), worked out once per value. */
  chosen: Map<string, string>;
}

/** gzip by the web-standard CompressionStream (Compression Streams standard), on every runtime. */
export const webGzip: ContentCoder = async (bytes) => {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};

/**
 * Validates compression options (a TypeError for misuse); `true` is the defaults.
 *
 * @example
 * resolveCompression(true)?.threshold; // 1024
 */
export function resolveCompression(options: boolean | CompressionOptions | undefined): CompressionPolicy | undefined {
  if (options === undefined || options === false) return undefined;
  const { threshold = 1024, codings = { gzip: webGzip } } = options === true ? {} : options;
  if (!Number.isSafeInteger(threshold) || threshold < 0) throw new TypeError('createService: compression.threshold must be a non-negative integer');
  const map = new Map<string, ContentCoder>();
  for (const [name, coder] of Object.entries(codings)) {
    // RFC 9110 section 8.4.1: a coding is a token; identity is the absence of one.
    if (!/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name) || name === 'identity') throw new TypeError(`createService: "${name}" is not a content coding name`);
    if (typeof coder !== 'function') throw new TypeError(`createService: compression.codings.${name} must be a function`);
    map.set(name, coder);
  }
  if (map.size === 0) throw new TypeError('createService: compression.codings offers no coding');
  return { threshold, codings: map, chosen: new Map() };
}

/**
 * The coding to answer in: the offered coding with the highest q-value in Accept-Encoding (RFC 9110
 * section 12.5.3; `*` stands for any coding not named, `x-gzip` is gzip, section 8.4.1.3), ties going to
 * the server's order, and only when it is not ranked below identity; '' for identity. No field: identity.
 *
 * @example
 * chooseCoding('gzip;q=0.8, br', policy); // 'br' (when br is offered)
 */
export function chooseCoding(acceptEncoding: string | null, policy: CompressionPolicy): string {
  if (!acceptEncoding) return '';
  const known = policy.chosen.get(acceptEncoding);
  if (known !== undefined) return known;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    let name = rawName.trim().toLowerCase();
    if (!name) continue;
    if (name === 'x-gzip') name = 'gzip';
    let weight = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (m) weight = Math.min(1, Number(m[1]));
    }
    q.set(name, Math.max(weight, q.get(name) ?? 0));
  }
  const star = q.get('*');
  const identity = q.get('identity') ?? 0;
  let best = '';
  let bestQ = 0;
  for (const name of policy.codings.keys()) {
    const weight = q.get(name) ?? star ?? 0;
    if (weight > bestQ && weight >= identity) {
      best = name;
      bestQ = weight;
    }
  }
  // Clients send few distinct values; a hostile stream of new ones only refills the table.
  if (policy.chosen.size >= 256) policy.chosen.clear();
  policy.chosen.set(acceptEncoding, best);
  return best;
}

/**
 * The request as the service evaluates its preconditions under compression: a tag with a coding's
 * suffix (`"t-gzip"`) names the representation `"t"` in that coding. In If-None-Match (section 13.1.2)
 * it stands for `"t"` only when that coding is still the one chosen, or it is the identity tag, and the
 * 304 then names the tag the client holds (`held`). In If-Match (section 13.1.1) any coding's tag stands
 * for `"t"`: a write's precondition is about the resource's state, which every coding shows alike.
 * The head is returned as is when no tag carries a suffix.
 *
 * @example
 * const { head, held } = decodedPreconditions(given, 'gzip', policy);
 */
export function decodedPreconditions(given: RequestHead, coding: string, policy: CompressionPolicy): { head: RequestHead; held: Map<string, string> | undefined } {
  const headers = given.headers;
  const ifMatch = headers.get('if-match');
  const ifNoneMatch = headers.get('if-none-match');
  const matchSuffixed = ifMatch !== null && hasCodingSuffix(ifMatch, policy);
  const noneSuffixed = ifNoneMatch !== null && hasCodingSuffix(ifNoneMatch, policy);
  if (!matchSuffixed && !noneSuffixed) return { head: given, held: undefined };
  const replaced = new Map<string, string | null>();
  if (matchSuffixed) replaced.set('if-match', mapTags(ifMatch, (tag) => stripSuffix(tag, policy)?.tag ?? tag));
  let held: Map<string, string> | undefined;
  if (noneSuffixed) {
    held = new Map();
    const map = held;
    const value = mapTags(ifNoneMatch, (tag) => {
      const stripped = stripSuffix(tag, policy);
      if (!stripped) return tag;
      // A tag of a coding other than the one chosen names a representation this request would not get.
      if (stripped.coding !== coding) return undefined;
      map.set(stripped.tag, tag);
      return stripped.tag;
    });
    replaced.set('if-none-match', value);
  }
  const head = changedHead(given, { headers: new ReplacedHeaders(headers, replaced) });
  return { head, held };
}

/**
 * The answer in the chosen coding: a 200 to GET or HEAD with a text body of at least the threshold gets
 * the coded body (from the body cache when it holds it), `Content-Encoding`, its own ETag and no
 * identity Content-Length; a 304 names the tag the client holds; both, and every other 200 to GET or
 * HEAD, say `Vary: Accept-Encoding`. Other answers are returned as they are. `kind` names the kind
 * of answer (the request's route) the body cache judges a coded body's usefulness by.
 *
 * @example
 * const coded = await encodedAnswer(answer, head, 'gzip', held, policy, config.bodyCache);
 */
export function encodedAnswer(
  answer: Answer,
  head: RequestHead,
  coding: string,
  held: Map<string, string> | undefined,
  policy: CompressionPolicy,
  cache: BodyCache | undefined,
  kind: () => string = () => '',
): Answer | Promise<Answer> {
  const status = answer.status;
  if ((status !== 200 && status !== 304) || (head.method !== 'GET' && head.method !== 'HEAD')) return answer;
  const etag = answer.fields.get('etag');
  if (status === 304) {
    const tag = etag !== undefined && coding ? held?.get(etag) : undefined;
    return memoized(answer, `304 ${tag ?? ''}`, () => {
      const fields = varied(answer.fields);
      if (tag !== undefined) fields.set('etag', tag);
      return new Answer(304, fields, null);
    });
  }
  const size = answer.body === null ? Number(answer.fields.get('content-length') ?? 0) : answer.size;
  if (!coding || size < policy.threshold || answer.fields.has('content-encoding') || !isText(answer.fields.get('content-type'))) {
    return memoized(answer, '', () => new Answer(status, varied(answer.fields), answer.body));
  }
  const kept = (answer as Answer & { [CODED]?: Map<string, Answer> })[CODED]?.get(coding);
  if (kept) return kept;
  const fields = varied(answer.fields);
  fields.set('content-encoding', coding);
  fields.delete('content-length');
  if (etag !== undefined) fields.set('etag', withSuffix(etag, coding));
  if (answer.body === null) return memoized(answer, coding, () => new Answer(status, fields, null));
  const bytes = typeof answer.body === 'string' ? encoder.encode(answer.body) : answer.body;
  // A strong tag names these bytes among the resource's representations (RFC 9110 section 8.8.1).
  const key = etag !== undefined && !etag.startsWith('W/') && cache ? `${coding} ${head.url} ${etag}` : undefined;
  const cached = key !== undefined ? cache!.get(key) : undefined;
  if (cached) return memoized(answer, coding, () => new Answer(status, fields, cached.body));
  const coder = policy.codings.get(coding)!;
  const done = (coded: Uint8Array): Answer => {
    // Kept by usefulness, each kind (the request's route) judged on its own, as rendered bodies are.
    if (key !== undefined) cache!.set(key, { body: coded, size: coded.byteLength, contentType: answer.fields.get('content-type') ?? '' }, kind());
    return memoized(answer, coding, () => new Answer(status, fields, coded));
  };
  const coded = coder(bytes);
  return coded instanceof Uint8Array ? done(coded) : coded.then(done);
}

const encoder = new TextEncoder();

/**
 * The coded answers made from an answer, kept on it (the answer memo shares one Answer for a second), so
 * a repeated read of a kept answer costs a lookup. A property of the answer, not a WeakMap: V8's
 * young-generation collector keeps a WeakMap's young entries alive, which would promote every computed
 * answer (docs/decisions.md, "Kept answers and records").
 */
const CODED = Symbol('player-hypermedia.coded-answers');

function memoized(answer: Answer, key: string, make: () => Answer): Answer {
  const keeper = answer as Answer & { [CODED]?: Map<string, Answer> };
  let byKey = keeper[CODED];
  if (!byKey) keeper[CODED] = byKey = new Map();
  let made = byKey.get(key);
  if (!made) byKey.set(key, (made = make()));
  return made;
}

function varied(fields: Fields): Fields {
  const copy: Fields = copyFields(fields);
  appendVary(copy, 'Accept-Encoding');
  return copy;
}

/** JSON, the `+json` types, HTML and `text/*`: what compresses well (images are already compressed). */
function isText(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type.startsWith('text/') || type.endsWith('/json') || type.endsWith('+json');
}

function withSuffix(etag: string, coding: string): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

function hasCodingSuffix(value: string, policy: CompressionPolicy): boolean {
  for (const coding of policy.codings.keys()) if (value.includes(`-${coding}"`)) return true;
  return false;
}

function stripSuffix(tag: string, policy: CompressionPolicy): { tag: string; coding: string } | undefined {
  for (const coding of policy.codings.keys()) {
    const suffix = `-${coding}"`;
    if (tag.endsWith(suffix) && tag.length > suffix.length + 1) return { tag: `${tag.slice(0, -suffix.length)}"`, coding };
  }
  return undefined;
}

/**
 * A list of entity tags (RFC 9110 section 8.8.3) with each tag mapped; `*` and malformed members are
 * kept as they are (the evaluation refuses them); an emptied list becomes null (no field).
 */
function mapTags(value: string, map: (tag: string) => string | undefined): string | null {
  const out: string[] = [];
  for (const member of value.split(',')) {
    const tag = member.trim();
    if (!tag) continue;
    const mapped = /^(W\/)?"[^"]*"$/.test(tag) ? map(tag) : tag;
    if (mapped !== undefined) out.push(mapped);
  }
  return out.length ? out.join(', ') : null;
}

/** Header fields with some replaced (null: absent). */
class ReplacedHeaders implements HeaderReader {
  constructor(
    readonly inner: HeaderReader,
    readonly replaced: ReadonlyMap<string, string | null>,
  ) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    return this.replaced.has(key) ? this.replaced.get(key)! : this.inner.get(name);
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}
