// PresetResponse: a Response whose complete body is known up front, readable by adapters without streams.

/** Response without the body readers PresetResponse redefines (the DOM typings declare them as fields). */
type ResponseBase = new (body: null, init: ResponseInit) => Omit<Response, 'body' | 'bodyUsed' | 'text' | 'json' | 'arrayBuffer' | 'blob' | 'clone'>;

const PRESET = Symbol('presetBody');

/**
 * A Response built from a complete body (a string or bytes). It behaves as a standard Response for
 * every reader (`text()`, `json()`, `arrayBuffer()`, `bytes()`, `blob()`, `body`, `clone()`), but creates
 * the body stream only when someone asks for it: building a ReadableStream for every answer is the
 * largest cost of a small response in Node. Adapters read the preset body directly with `presetBody`.
 *
 * @example
 * const res = new PresetResponse('{"a":1}', { status: 200, headers: { 'Content-Type': 'application/json' } });
 * await res.json(); // { a: 1 }
 * presetBody(res); // '{"a":1}' (for adapters; undefined once the body was read)
 */
export class PresetResponse extends (Response as unknown as ResponseBase) implements Response {
  #preset: string | Uint8Array | undefined;
  #stream: ReadableStream<Uint8Array> | null = null;
  #used = false;

  constructor(body: string | Uint8Array, init: ResponseInit = {}) {
    const { headers: fields, ...rest } = init;
    super(null, rest);
    // The fields go straight into the response's own Headers: building a Headers and handing it to
    // the constructor would copy every field once more.
    const headers = this.headers;
    fill(headers, fields);
    if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    this.#preset = body;
  }

  /** The preset body, unless it was already handed out (then undefined). */
  [PRESET](): string | Uint8Array | undefined {
    return this.#used || this.#stream ? undefined : this.#preset;
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (!this.#stream) this.#stream = new Response(this.#take()).body;
    return this.#stream;
  }

  get bodyUsed(): boolean {
    return this.#stream ? this.#stream.locked : this.#used;
  }

  async text(): Promise<string> {
    if (this.#stream) return new Response(this.#stream).text();
    const body = this.#take();
    return typeof body === 'string' ? body : new TextDecoder().decode(body);
  }

  async json(): Promise<any> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#stream) return new Response(this.#stream).arrayBuffer();
    const bytes = toBytes(this.#take());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  clone(): Response {
    const init = { status: this.status, statusText: this.statusText, headers: this.headers };
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    if (!this.#stream) return new PresetResponse(this.#preset!, init);
    const [mine, theirs] = this.#stream.tee();
    this.#stream = mine;
    return new Response(theirs, init);
  }

  #take(): string | Uint8Array {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#preset!;
  }
}

/** Appends a HeadersInit's fields in order, as the Response constructor does (Fetch "fill"). */
function fill(headers: Headers, init: ResponseInit['headers']): void {
  if (init === undefined) return;
  if (init instanceof Headers) return init.forEach((value, name) => headers.append(name, value));
  if (Symbol.iterator in init) {
    for (const pair of init as Iterable<string[]>) {
      if (pair.length !== 2) throw new TypeError('Headers constructor: expected name/value pair to be length 2.');
      headers.append(pair[0]!, pair[1]!);
    }
    return;
  }
  for (const name of Object.keys(init)) headers.append(name, (init as Record<string, string>)[name]!);
}

function toBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/**
 * The complete body of a PresetResponse not yet read, or undefined for any other response. An adapter
 * that gets a body here writes it as is and must not read the response otherwise.
 *
 * @example
 * const body = presetBody(response);
 * if (body !== undefined) res.end(body);
 */
export function presetBody(response: Response): string | Uint8Array | undefined {
  return response instanceof PresetResponse ? response[PRESET]() : undefined;
}
