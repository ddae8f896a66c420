// BodyCache: rendered bodies kept by target and strong ETag, so a repeated 200 (or HEAD) is not rendered again.

/**
 * A rendered body as it is kept: its bytes, its Content-Type and the header fields only a 200 carries.
 *
 * @example
 * const body: CachedBody = { bytes: new TextEncoder().encode('{}'), contentType: 'application/json', headers: { 'Total-Count': '3' } };
 */
export interface CachedBody {
  bytes: Uint8Array;
  contentType: string;
  headers: Readonly<Record<string, string>> | undefined;
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
 * cache.set('/player/alice "3-abc"', { bytes: new TextEncoder().encode('{}'), contentType: 'application/json', headers: undefined });
 * cache.get('/player/alice "3-abc"')?.contentType; // 'application/json'
 */
export class BodyCache {
  readonly #entries = new Map<string, CachedBody>();
  readonly #maxBytes: number;
  #bytes = 0;

  /** @param maxBytes the most body bytes kept; a body larger than a quarter of it is never kept. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string): CachedBody | undefined {
    return this.#entries.get(key);
  }

  set(key: string, body: CachedBody): void {
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
