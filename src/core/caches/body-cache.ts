// BodyCache: rendered bodies kept by target and strong ETag, so a repeated 200 (or HEAD) is not rendered again.

import { utf8Length } from '../respond/utf8-length.js';
import { bodyBytes, fieldsBytes, keptBody } from './kept-copy.js';

/** An entry's own objects besides its body and fields (the entry, its slot in the map). */
const ENTRY_BYTES = 256;

/**
 * A rendered body: its text or bytes and its length in bytes (text is UTF-8 on the wire), its
 * Content-Type, and the header fields only its 200 carries (Link, Total-Count, X-Content-Type-Options...).
 * Text stays a string: encoding it here would cost more than the socket's own write of a string.
 *
 * @example
 * const body: RenderedBody = { body: '[]', size: 2, contentType: 'application/json', fields: new Map([['total-count', '0']]) };
 */
export interface RenderedBody {
  body: string | Uint8Array;
  size: number;
  contentType: string;
  fields?: ReadonlyMap<string, string> | undefined;
}

/**
 * A rendered body from a renderer's text or bytes, its length counted once.
 *
 * @example
 * renderedBody('{"a":"é"}', 'application/json').size; // 10
 */
export function renderedBody(body: string | Uint8Array, contentType: string, fields?: ReadonlyMap<string, string>): RenderedBody {
  return { body, size: typeof body === 'string' ? utf8Length(body) : body.byteLength, contentType, fields };
}

/**
 * Rendered bodies keyed by their target and strong ETag. A strong ETag names one sequence of bytes
 * among the representations of a resource (RFC 9110 section 8.8.1: a strong validator "is unique across
 * all versions of all representations associated with a particular resource over time"), and the
 * service's tags cover everything a body depends on (format, variant, absolute URL, store revisions,
 * render generation), so a hit is exactly the body rendering would produce. Bounded by total bytes; the
 * oldest entries go first.
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
    const size = bodyBytes(body.size) + key.length + fieldsBytes(body.fields) + ENTRY_BYTES;
    if (size * 4 > this.#maxBytes || this.#entries.has(key)) return;
    // A copy made here, not the renderer's own objects: see `keptCopy` in kept-copy.ts (V8 decides
    // by allocation site whether to allocate straight into the old generation).
    this.#entries.set(key, { body: keptBody(body.body), size: body.size, contentType: body.contentType, fields: body.fields && new Map(body.fields) });
    this.#bytes += size;
    // Map keeps insertion order: the first keys are the oldest.
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= bodyBytes(old.size) + oldKey.length + fieldsBytes(old.fields) + ENTRY_BYTES;
    }
  }

  /** The number of bodies kept (for tests and monitoring). */
  get size(): number {
    return this.#entries.size;
  }
}
