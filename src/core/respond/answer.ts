// Answer: a complete answer of the service (status, header fields, body), what every route handler returns.
import type { Fields } from './fields.js';
import { utf8Length } from './utf8-length.js';

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

  #size: number | undefined;

  /**
   * @param size the body's length in bytes when the maker knows it (a string body is UTF-8 on the wire),
   *   so that it is not counted again.
   */
  constructor(
    readonly status: number,
    readonly fields: Fields,
    readonly body: string | Uint8Array | null,
    size?: number,
  ) {
    this.#size = size;
  }

  /**
   * The body's length in bytes as sent (UTF-8 for a string body), 0 for none.
   *
   * @example
   * new Answer(200, new Map(), 'naïve').size; // 6
   */
  get size(): number {
    const body = this.body;
    return body === null ? 0 : typeof body === 'string' ? (this.#size ??= utf8Length(body)) : body.byteLength;
  }

  /**
   * The same answer (status, body) with other fields: what a stage that adds fields makes of a kept answer.
   *
   * @example
   * const exposed = answer.withFields(new Map([...answer.fields, ['access-control-allow-origin', '*']]));
   */
  withFields(fields: Fields): Answer {
    return new Answer(this.status, fields, this.body, this.#size);
  }

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
    // forEach: iterating entries would make a [name, value] array for each field.
    this.fields.forEach((value, name) => flat.push(name, value));
    const body = this.body;
    if (body !== null && !this.fields.has('content-length')) flat.push('content-length', String(this.size));
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
