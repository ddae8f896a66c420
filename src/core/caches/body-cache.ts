// BodyCache: rendered bodies kept by target and strong ETag, so a repeated 200 (or HEAD) is not rendered again.

import { utf8Length } from '../respond/utf8-length.js';
import { newKind, noteDropped, skipsKeeping, type Kind } from './answer-kinds.js';
import { bodyBytes, fieldsBytes, keptBody } from './kept-copy.js';

/**
 * An entry's own objects besides its body and fields (the entry, with its kind and hit count, and its
 * slot in the map): bench:memory found the heap of a full cache of small bodies a fifth over the bytes
 * counted with 256.
 */
const ENTRY_BYTES = 320;

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
 * oldest entries go first. Keeping pays only when a body is asked for again: each kind of body (a route,
 * as the answer memo tells its kinds apart) whose dropped entries went unused is then kept sparsely, one
 * body in SPARSE_STRIDE, until its kept bodies are used again (answer-kinds.ts; docs/decisions.md,
 * "Kept answers and records", the body cache), so a crawler of distinct URLs does not have every body copied and
 * pushed out again.
 *
 * @example
 * const cache = new BodyCache(8 * 1024 * 1024);
 * cache.set('/player/alice "3-abc"', renderedBody('{}', 'application/json'));
 * cache.get('/player/alice "3-abc"')?.contentType; // 'application/json'
 */
export class BodyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #kinds = new Map<string, Kind>();
  readonly #maxBytes: number;
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  /** @param maxBytes the most body bytes kept; a body larger than a quarter of it is never kept. */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  get(key: string): RenderedBody | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    entry.hits++;
    return entry;
  }

  /** How lookups went (for monitoring: /metrics). */
  get stats(): { hits: number; misses: number; bytes: number } {
    return { hits: this.#hits, misses: this.#misses, bytes: this.#bytes };
  }

  /**
   * Keeps `body` under `key`, unless it is too large, already kept, or its `kind` (e.g. the route's
   * template) is kept sparsely and this body is not the one in SPARSE_STRIDE that is.
   */
  set(key: string, body: RenderedBody, kind = ''): void {
    const size = entryBytes(key, body);
    if (size * 4 > this.#maxBytes || this.#entries.has(key)) return;
    const of = this.#kindOf(kind);
    if (skipsKeeping(of)) return;
    // A copy made here, not the renderer's own objects: see `keptCopy` in kept-copy.ts (V8 decides
    // by allocation site whether to allocate straight into the old generation).
    // The copy is the entry too (one object per body kept, not two).
    this.#entries.set(key, { body: keptBody(body.body), size: body.size, contentType: body.contentType, fields: body.fields && new Map(body.fields), kind: of, hits: 0 });
    this.#bytes += size;
    // Map keeps insertion order: the first keys are the oldest.
    for (const [oldKey, old] of this.#entries) {
      if (this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(oldKey);
      this.#bytes -= entryBytes(oldKey, old);
      noteDropped(old.kind, old.hits);
    }
  }

  #kindOf(name: string): Kind {
    let kind = this.#kinds.get(name);
    if (kind === undefined) this.#kinds.set(name, (kind = newKind()));
    return kind;
  }

  /** The number of bodies kept (for tests and monitoring). */
  get size(): number {
    return this.#entries.size;
  }
}

/** The bytes counted for keeping `body` under `key`. */
function entryBytes(key: string, body: RenderedBody): number {
  return bodyBytes(body.size) + key.length + fieldsBytes(body.fields) + ENTRY_BYTES;
}

/** A kept copy of a body, with its kind and how many lookups it answered. */
interface Entry extends RenderedBody {
  kind: Kind;
  hits: number;
}
