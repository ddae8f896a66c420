// What the caches keep of an answer: their own copies (bytes for bodies), and what those cost in memory.
import { dependenciesOf, type SelectedAnswers } from '../respond/selected.js';

/**
 * The memo's own copy of a selected representation (its body shared: strings are immutable). Kept
 * objects are made here rather than retained from the request that computed them: V8 decides by
 * allocation site whether to allocate straight into the old generation, and a site whose objects the
 * memo keeps looks long-lived, so retaining the request path's own objects had every request's fields,
 * validators and lists allocated there too (measured: seven times the bytes promoted, twice the
 * scavenge time, under 10% writes).
 *
 * @example
 * entries.set(key, { selected: keptCopy(ctx.selected), since });
 */
export function keptCopy(selected: SelectedAnswers): SelectedAnswers {
  const ok = selected.ok;
  const dependsOn = dependenciesOf(selected);
  return {
    validators: { ...selected.validators },
    fields: new Map(selected.fields),
    maxAge: selected.maxAge,
    dependsOn: dependsOn === 'all' ? 'all' : [...dependsOn],
    ok: ok && { contentType: ok.contentType, fields: ok.fields && new Map(ok.fields), body: keptBody(ok.body), size: ok.size },
  };
}

const encoder = new TextEncoder();

/**
 * A body as kept by a cache: its UTF-8 bytes in a buffer of exactly their size. A rendered text is
 * usually a rope of the pieces it was joined from (V8 cons strings: about four times its length in
 * heap, and still twice once a write flattened it); a coded body from node:zlib may be a view of a
 * larger pooled buffer that it would keep alive. Bytes are also what a kept answer is written as, each
 * time, with no encoding.
 *
 * @example
 * keptBody('{"a":1}').byteLength; // 7
 */
export function keptBody(body: string | Uint8Array): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
}

/**
 * What one kept object costs besides the bytes counted for it, measured with bench/memory (heap after
 * GC over a crawl of distinct URLs in every format): its own objects, a Map's table, a typed array's
 * buffer. Estimates err on the high side, so that a cache's real heap stays within its budget.
 */
const OBJECT_BYTES = 96;
const MAP_BYTES = 160;
const FIELD_BYTES = 56;
const BODY_BYTES = 200;

/**
 * An estimate of the heap a header-field map costs: its table and each value (names are shared constants).
 *
 * @example
 * fieldsBytes(new Map([['etag', '"1-a"']])); // 221
 */
export function fieldsBytes(fields: ReadonlyMap<string, string> | undefined): number {
  if (fields === undefined) return 0;
  let bytes = MAP_BYTES;
  fields.forEach((value) => (bytes += FIELD_BYTES + value.length));
  return bytes;
}

/**
 * An estimate of what a kept body costs: its bytes and their buffer's objects.
 *
 * @example
 * bodyBytes(100); // 300
 */
export function bodyBytes(size: number): number {
  return BODY_BYTES + size;
}

/**
 * An estimate of the heap a kept selected representation costs under `key`: the key, the body, both
 * field maps, the validators and dependencies, and the answers it makes once asked (a 200 and its
 * fields, kept for a second of the clock: see `answerSelected`).
 *
 * @example
 * const bytes = keptBytes(key, selected);
 */
export function keptBytes(key: string, selected: SelectedAnswers): number {
  const ok = selected.ok;
  const shared = fieldsBytes(selected.fields);
  let bytes = 4 * OBJECT_BYTES + key.length + shared;
  if (ok) bytes += bodyBytes(ok.size) + fieldsBytes(ok.fields) + OBJECT_BYTES + shared + fieldsBytes(ok.fields);
  const shows = dependenciesOf(selected);
  if (shows !== 'all') bytes += 16 + 8 * shows.length;
  return bytes;
}
