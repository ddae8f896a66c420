// node:http adapter: an IncomingMessage to a Request, the Response back to a ServerResponse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { presetBody } from '../core/preset-response.js';
import { isReply, type Reply } from '../core/reply.js';
import { headerPairs, type HeaderReader, type RequestHead } from '../core/request-head.js';

/**
 * Anything with a fetch handler, such as the PlayerService.
 *
 * @example
 * const handler: FetchHandler = { fetch: (request) => service.fetch(request) };
 */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
  /** When present (the PlayerService has it), GET and HEAD are answered from the request head: see `PlayerService.answer`. */
  answer?(head: RequestHead, request: () => Request): Promise<Reply | Response>;
  /** When present (the PlayerService has it), a kept answer to a GET or HEAD, synchronously: see `PlayerService.kept`. */
  kept?(head: RequestHead): Reply | undefined;
}

/**
 * Converts a Node request into a web Request. The body is streamed (not buffered) for methods that
 * have one, or taken from `body` when a framework already read it; the URL is built from the Host
 * header and the request target (`target`, default `req.url`: frameworks that strip a mount path pass
 * the original one).
 *
 * @example
 * const request = toRequest(req);
 */
export function toRequest(req: IncomingMessage, target: string = req.url ?? '/', body?: Uint8Array | string): Request {
  const url = requestUrl(req, target, req.headers.host);
  const method = req.method ?? 'GET';
  const raw = req.rawHeaders;
  if (method === 'GET' || method === 'HEAD') {
    // No body: the header pairs go straight into the Request's own Headers, with no init to convert
    // (the WebIDL conversion of a header sequence costs more than the appends themselves).
    const request = new Request(url, { method });
    for (let i = 0; i < raw.length; i += 2) request.headers.append(raw[i]!, raw[i + 1]!);
    return request;
  }
  // Header pairs go to the Request as they are: building a Headers first would copy them twice. They
  // must be in the init here: a string body's default Content-Type is only added when none is given.
  const headers: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i]!, raw[i + 1]!]);
  // `duplex: 'half'` is required by the fetch spec for a streamed request body.
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (body !== undefined) init.body = body;
  else {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * The head of a Node request (method, absolute URL, header fields read in place from `rawHeaders`),
 * for `PlayerService.answer`: a GET or HEAD is answered without building a web Request.
 *
 * @example
 * const answer = await service.answer(toRequestHead(req), () => toRequest(req));
 */
export function toRequestHead(req: IncomingMessage, target: string = req.url ?? '/'): RequestHead {
  const headers = headerReaderOf(req);
  return { method: req.method ?? 'GET', url: requestUrl(req, target, headers.get('host') ?? undefined), headers };
}

/**
 * The header fields of a Node request as `Headers` would read them. Node has already built
 * `req.headers` (its server reads Host and Expect from it for every request); when no field name is
 * repeated, that object says exactly what `Headers` would, one property per field, so it is read
 * directly. A repeated field is where Node differs (it keeps only the first Host, Authorization,
 * If-Modified-Since...), so then the raw pairs are read instead (`headerPairs`).
 */
function headerReaderOf(req: IncomingMessage): HeaderReader {
  const parsed = req.headers;
  let fields = 0;
  for (const name in parsed) fields++;
  return fields * 2 === req.rawHeaders.length ? new ParsedHeaders(parsed) : headerPairs(req.rawHeaders);
}

/** A HeaderReader over Node's parsed headers of a request without repeated fields (see headerReaderOf). */
class ParsedHeaders implements HeaderReader {
  readonly #fields: IncomingMessage['headers'];

  constructor(fields: IncomingMessage['headers']) {
    this.#fields = fields;
  }

  get(name: string): string | null {
    const value = this.#fields[name.toLowerCase()];
    // Single fields are strings (set-cookie, an array, is a response field).
    return typeof value === 'string' ? value : value === undefined ? null : value.join(', ');
  }

  has(name: string): boolean {
    return this.#fields[name.toLowerCase()] !== undefined;
  }
}

/** The absolute URL of a request: an origin-form target ("/path?query") is appended as is, any other resolved. */
function requestUrl(req: IncomingMessage, target: string, host: string | undefined): string {
  const origin = `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host ?? 'localhost'}`;
  if (target.startsWith('/')) return origin + target;
  try {
    return new URL(target, origin).href;
  } catch {
    // Left for the service to answer 400.
    return origin + '/' + target;
  }
}

/**
 * Writes a Reply to a Node ServerResponse: its status, fields and complete body in one `writeHead` and
 * one `end`.
 *
 * @example
 * writeReply(reply, res);
 */
export function writeReply(reply: Reply, res: ServerResponse): void {
  // Node reads the pairs without changing them: a kept Reply's pairs are written as they are.
  res.writeHead(reply.status, reply.flatFields() as string[]);
  if (reply.body === null) res.end();
  else res.end(reply.body);
}

/**
 * Answers a Node request with a fetch handler: GET and HEAD through `answer` when the handler has it
 * (no web Request is built unless the service asks for one), anything else through `fetch`; then
 * writes the answer. `target` and `body` are those of `toRequest`.
 *
 * @example
 * await serveNode(service, req, res);
 */
export async function serveNode(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, target?: string, body?: Uint8Array | string): Promise<void> {
  const method = req.method;
  if (handler.answer && (method === 'GET' || method === 'HEAD')) {
    const head = toRequestHead(req, target);
    const kept = handler.kept?.(head);
    if (kept) return writeReply(kept, res);
    return serveHead(handler, req, res, head, target, body);
  }
  return writeResponse(await handler.fetch(toRequest(req, target, body)), res);
}

/** Answers a GET or HEAD through `answer` (its kept answer was looked up already) and writes it. */
async function serveHead(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, head: RequestHead, target?: string, body?: Uint8Array | string): Promise<void> {
  const answered = await handler.answer!(head, () => toRequest(req, target, body));
  return isReply(answered) ? writeReply(answered, res) : writeResponse(answered, res);
}

/**
 * Writes a web Response to a Node ServerResponse. The service's bodies are small and complete, so the
 * body is sent in one piece with its Content-Length rather than chunked.
 *
 * @example
 * await writeResponse(await service.fetch(toRequest(req)), res);
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const fields: string[] = [];
  response.headers.forEach((value, name) => fields.push(name, value));
  // The service's own bodies are complete strings or bytes: written as they are, no stream read.
  const preset = presetBody(response);
  if (preset !== undefined) {
    fields.push('content-length', String(typeof preset === 'string' ? Buffer.byteLength(preset) : preset.byteLength));
    res.writeHead(response.status, fields);
    return void res.end(preset);
  }
  if (!response.body) return void res.writeHead(response.status, fields).end();
  const body = new Uint8Array(await response.arrayBuffer());
  fields.push('content-length', String(body.byteLength));
  res.writeHead(response.status, fields);
  res.end(body);
}

/**
 * A node:http request listener serving a fetch handler.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createPlayerService } from 'player-hypermedia';
 * import { toNodeListener } from 'player-hypermedia/node';
 * createServer(toNodeListener(createPlayerService({ baseUrl: 'http://127.0.0.1:3000' }))).listen(3000);
 */
export function toNodeListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let answered: Promise<void>;
    try {
      if (handler.answer && (req.method === 'GET' || req.method === 'HEAD')) {
        const head = toRequestHead(req);
        // A kept answer is written synchronously, as a server replaying bytes would (no promise).
        const kept = handler.kept?.(head);
        if (kept) return writeReply(kept, res);
        answered = serveHead(handler, req, res, head);
      } else answered = serveNode(handler, req, res);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.catch((error: unknown) => {
      console.error('player-hypermedia/node: failed to answer', error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' });
      res.end(res.headersSent ? undefined : '{"type":"about:blank","title":"Internal Server Error","status":500}');
    });
  };
}
