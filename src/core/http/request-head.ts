// The head of a request (method, URL, header fields): all the service reads before a body, and all a GET has.

/**
 * Read access to a request's header fields, as the web `Headers` gives it: names are case-insensitive,
 * repeated fields come back joined with ", " (RFC 9110 section 5.3). A `Headers` is one.
 *
 * @example
 * const reader: HeaderReader = new Headers({ Accept: 'application/hal+json' });
 * reader.get('accept'); // 'application/hal+json'
 */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * What the service reads of a request that has no body: its method, absolute URL and header fields.
 * A web `Request` is one; an adapter may hand the service a lighter object (see `service.answer`)
 * so that a GET does not pay for building a `Request`, its `Headers` and its `AbortSignal`.
 *
 * @example
 * const head: RequestHead = new Request('https://api.example.com/player/alice');
 */
export interface RequestHead {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  /**
   * The body as a stream, from an adapter that has no web Request to give (else the service reads the
   * Request's body). Called at most once, and only when the service reads the body.
   */
  readonly bodyStream?: () => ReadableStream<Uint8Array> | null;
  /**
   * The whole body, from an adapter that can read it without a web stream (cheaper than `bodyStream`,
   * which it then stands beside): at most `limit` bytes, or once past it, the bytes read so far (the
   * service answers 413 and the adapter settles the rest); the bytes themselves, not a promise, when
   * they have all arrived. Called at most once.
   */
  readonly bodyBytes?: (limit: number) => Uint8Array | Promise<Uint8Array>;
  /** The address of the client's end of the connection, from an adapter that knows it (rate limits). */
  readonly clientAddress?: string;
}

/**
 * A head like `head` with its method or header fields replaced, everything else (URL, body stream,
 * client address) carried over: a stage that rewrites a head must not lose what later stages read.
 *
 * @example
 * const upper = changedHead(head, { method: head.method.toUpperCase() });
 */
export function changedHead(head: RequestHead, change: { method?: string; headers?: HeaderReader }): RequestHead {
  const changed: { -readonly [K in keyof RequestHead]: RequestHead[K] } = { method: change.method ?? head.method, url: head.url, headers: change.headers ?? head.headers };
  if (head.bodyStream) changed.bodyStream = head.bodyStream;
  if (head.bodyBytes) changed.bodyBytes = head.bodyBytes;
  if (head.clientAddress !== undefined) changed.clientAddress = head.clientAddress;
  return changed;
}

/**
 * A `HeaderReader` over header fields as flat name/value pairs in arrival order (the shape of Node's
 * `rawHeaders`), read in place: nothing is copied or validated up front. `get` joins repeated fields
 * with ", " and trims surrounding whitespace from each value, as `Headers` does (Fetch "get" and
 * "normalize"); names must be asked in lower case or any case.
 *
 * @example
 * const h = headerPairs(['Accept', 'application/hal+json', 'X-A', '1', 'x-a', '2']);
 * h.get('x-a'); // '1, 2'
 */
export function headerPairs(pairs: readonly string[]): HeaderReader {
  return new HeaderPairs(pairs);
}

class HeaderPairs implements HeaderReader {
  readonly #pairs: readonly string[];

  constructor(pairs: readonly string[]) {
    this.#pairs = pairs;
  }

  get(name: string): string | null {
    const pairs = this.#pairs;
    const wanted = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i < pairs.length; i += 2) {
      const field = pairs[i]!;
      // Lengths first: most fields are not the one asked for; then letters case-folded, without allocating.
      if (field.length !== wanted.length || (field !== wanted && !sameIgnoringCase(field, wanted))) continue;
      const v = trimOws(pairs[i + 1]!);
      value = value === null ? v : `${value}, ${v}`;
    }
    return value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/** True when `field` equals `lower` (lower case, same length) with ASCII letters compared case-insensitively. */
function sameIgnoringCase(field: string, lower: string): boolean {
  for (let i = 0; i < field.length; i++) {
    let c = field.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** Strips leading and trailing spaces and tabs (RFC 9110 section 5.5), without allocating when there are none. */
function trimOws(value: string): string {
  const last = value.length - 1;
  if (last < 0) return value;
  const a = value.charCodeAt(0);
  const z = value.charCodeAt(last);
  return a === 32 || a === 9 || z === 32 || z === 9 ? value.replace(/^[ \t]+|[ \t]+$/g, '') : value;
}

/**
 * The head with its method in upper case, as Fetch normalizes the standard methods (a head from an
 * adapter may carry the method as its server gave it, e.g. lower case).
 *
 * @example
 * // Fetch upper-cases the standard methods, not PATCH (Fetch standard, "normalize a method")
 * normalizedHead(new Request('https://api.example.com/player/alice', { method: 'patch' })).method; // 'PATCH'
 */
export function normalizedHead(head: RequestHead): RequestHead {
  if (head.method === 'GET' || head.method === 'HEAD') return head;
  const method = head.method.toUpperCase();
  return method === head.method ? head : changedHead(head, { method });
}
