// Answer: a complete answer of the service (status, header fields, body), what every route handler returns.
import type { Fields } from './fields.js';

export type { Fields } from './fields.js';

/**
 * A complete answer: status, header fields and body (`null` for none: a 204, a 304, or a HEAD whose
 * `content-length` field says what GET would send). `service.fetch` turns it into a standard Response;
 * the Node adapters write it as it is. A kept answer is shared between requests: never changed once made.
 *
 * @example
 * const answer = new Answer(200, new Map([['content-type', 'application/json']]), '{"a":1}');
 * await answer.toResponse().json(); // { a: 1 }
 */
export class Answer {
  #flat: string[] | undefined;

  constructor(
    readonly status: number,
    readonly fields: Fields,
    readonly body: string | Uint8Array | null,
  ) {}

  /**
   * The fields as flat name/value pairs for `writeHead`-style APIs, with `content-length` added when
   * there is a body and the field is absent. Worked out once per answer.
   *
   * @example
   * new Answer(204, new Map([['cache-control', 'no-store']]), null).flatFields(); // ['cache-control', 'no-store']
   */
  flatFields(): readonly string[] {
    if (this.#flat) return this.#flat;
    const flat: string[] = [];
    for (const [name, value] of this.fields) flat.push(name, value);
    const body = this.body;
    if (body !== null && !this.fields.has('content-length')) flat.push('content-length', String(typeof body === 'string' ? utf8Length(body) : body.byteLength));
    return (this.#flat = flat);
  }

  /**
   * The standard Response of this answer: a genuine `Response` any runtime can read and send.
   *
   * @example
   * const response = answer.toResponse();
   */
  toResponse(): Response {
    return new Response(this.body, { status: this.status, headers: [...this.fields] });
  }
}

/** The UTF-8 length of a string, without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) length += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // A surrogate pair: two UTF-16 units, four bytes.
        length += 2;
        i++;
        continue;
      }
      length += 2;
    } else length += 2;
  }
  return length;
}
