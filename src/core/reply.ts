// Reply: a complete answer (status, header fields, body) as plain data, turned into a Response only when asked.
import { PresetResponse } from './preset-response.js';

/** The brand of a Reply, shared by every copy of the package (Symbol.for), for `isReply`. */
const REPLY = Symbol.for('player-hypermedia.reply');

/**
 * An answer of the service whose body is complete: its status, its header fields (lower-case names,
 * one value each, in the order they are written) and its body (`null` for none: a 304, or a HEAD
 * whose `content-length` field says what GET would send). The service's GET and HEAD answers are
 * Replies; `service.fetch` turns them into standard Responses with `toResponse`, and an adapter may
 * write one as it is (`service.answer`), sparing a `Response` and its `Headers`.
 *
 * @example
 * const reply = new Reply(200, new Map([['content-type', 'application/json']]), '{"a":1}');
 * await reply.toResponse().json(); // { a: 1 }
 */
export class Reply {
  #flat: string[] | undefined;
  readonly [REPLY] = true;

  constructor(
    readonly status: number,
    /** Read-only once the Reply is made: a Reply may be kept and answered many times (AnswerMemo). */
    readonly fields: ReadonlyMap<string, string>,
    readonly body: string | Uint8Array | null,
  ) {}

  /**
   * The header fields as flat name/value pairs, with `content-length` added when the body is known
   * and the field is absent (for `writeHead`-style APIs).
   *
   * @example
   * new Reply(204, new Map([['cache-control', 'no-store']]), null).flatFields(); // ['cache-control', 'no-store']
   */
  flatFields(): readonly string[] {
    if (this.#flat) return this.#flat;
    const flat: string[] = [];
    for (const [name, value] of this.fields) flat.push(name, value);
    const body = this.body;
    if (body !== null && !this.fields.has('content-length')) {
      flat.push('content-length', String(typeof body === 'string' ? utf8Length(body) : body.byteLength));
    }
    return (this.#flat = flat);
  }

  /**
   * The standard Response of this reply (a PresetResponse when it has a body).
   *
   * @example
   * const response = reply.toResponse();
   */
  toResponse(): Response {
    const init = { status: this.status, headers: [...this.fields] };
    return this.body === null ? new Response(null, init) : new PresetResponse(this.body, init);
  }
}

/** The UTF-8 length of a string, without encoding it. */
function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) length += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair: two UTF-16 units, four bytes.
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length += 2;
        i++;
        continue;
      }
      length += 2;
    } else length += 2;
  }
  return length;
}

/**
 * Whether a service's answer is a Reply (else it is a Response). Adapters use it rather than
 * `instanceof`, which fails when the service and the adapter come from two installed copies of the package.
 *
 * @example
 * if (isReply(answer)) writeReply(answer, res); else await writeResponse(answer, res);
 */
export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && (value as { [REPLY]?: unknown })[REPLY] === true;
}
