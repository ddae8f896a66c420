// BodyCache: rendered bodies kept by target and strong ETag, so a repeated 200 (or HEAD) is not rendered again.

/**
 * A rendered body: its bytes (UTF-8 for text), its Content-Type, and the header fields only its 200
 * carries (Link, Total-Count, X-Content-Type-Options...).
 *
 * @example
 * const body: RenderedBody = { bytes: new TextEncoder().encode('[]'), contentType: 'application/json', fields: new Map([['total-count', '0']]) };
 */
export interface RenderedBody {
  bytes: Uint8Array;
  contentType: string;
  fields?: ReadonlyMap<string, string> | undefined;
}

const encoder = new TextEncoder();

/**
 * A rendered body from a renderer's text (encoded as UTF-8 once) or bytes.
 *
 * @example
 * renderedBody('{"a":1}', 'application/json').bytes.byteLength; // 7
 */
export function renderedBody(body: string | Uint8Array, contentType: string, fields?: ReadonlyMap<string, string>): RenderedBody {
  return { bytes: typeof body === 'string' ? encoder.encode(body) : body, contentType, fields };
}

/**
 * Rendered bodies keyed by their target and strong ETag. A strong ETag names one sequence of bytes
 * among the representations of a resource (RFC 9110 section 8.8.1: a strong validator "is unique across
 * all versions of all representations associated with a particular resource over time"), and the
 * service's tags cover everything a body depends on (format, variant, absolute URL, store revisions,
 * render generation), so a hit is exactly the body rendering would produce. Bounded by total bytes; the oldest entries go first. The bytes are UTF-8,
 * encoded once, so answers also skip the encoding and know their Content-Length.
 *
 * @example
 * const cache = new BodyCache(8 * 1024 * 1024);
 * cache.set('/player/alice "3-abc"', renderedBody('{}', 'application/json'));
 * cache.get('/player/alice "3-abc"')?.contentType; // 'application/json'
 */
export class BodyCache {
  readonly #entries = new Map<string, RenderedBody>();
  readonly #maxBytes: number;
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  /** @param maxBytes the most body bytes kept; a body larger than a quarter of it is never kept. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string): RenderedBody | undefined {
    const body = this.#entries.get(key);
    if (body) this.#hits++;
    else this.#misses++;
    return body;
  }

  /** How lookups went (for monitoring: /metrics). */
  get stats(): { hits: number; misses: number; bytes: number } {
    return { hits: this.#hits, misses: this.#misses, bytes: this.#bytes };
  }

  set(key: string, body: RenderedBody): void {
    const size = body.bytes.byteLength + key.length;
    if (size * 4 > this.#maxBytes || this.#entries.has(key)) return;
    this.#entries.set(key, body);
    this.#bytes += size;
    // Map keeps insertion order: the first keys are the oldest.
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= old.bytes.byteLength + oldKey.length;
    }
  }

  /** The number of bodies kept (for tests and monitoring). */
  get size(): number {
    return this.#entries.size;
  }
}
