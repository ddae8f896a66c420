// From a Node request to what the service reads: its head, its URL, a web Request built on demand, and the answer.
import type { IncomingMessage } from 'node:http';
import { isValidHost } from '../core/http/host.js';
import { HttpError, PROBLEM_MEDIA_TYPE } from '../core/http/problem.js';
import type { Answer } from '../core/respond/answer.js';
import { answererOf } from '../core/service/answerer.js';
import { headerPairs, type HeaderReader, type RequestHead } from '../core/http/request-head.js';
import { bodyBytes, bodyStream } from './node-body.js';

/**
 * Anything with a fetch handler, such as the PlayerService.
 *
 * @example
 * const handler: FetchHandler = { fetch: (request) => service.fetch(request) };
 */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
}

/**
 * Converts a Node request into a web Request. The body is streamed (not buffered) for methods that
 * have one, or taken from `body` when a framework already read it; the URL's path and query come from
 * the request target alone (`target`, default `req.url`: frameworks that strip a mount path pass the
 * original one), its host from a valid Host header. Throws a TypeError for what `Request` refuses
 * (the methods CONNECT, TRACE and TRACK, an invalid URL).
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
    init.body = bodyStream(req);
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * The head of a Node request (method, absolute URL, header fields read in place from `rawHeaders`):
 * all a service made by createPlayerService reads before it needs a body.
 *
 * @example
 * const head = toRequestHead(req);
 */
export function toRequestHead(req: IncomingMessage, target: string = req.url ?? '/'): RequestHead {
  const headers = headerReaderOf(req);
  return { method: req.method ?? 'GET', url: requestUrl(req, target, headers.get('host') ?? undefined), headers, clientAddress: req.socket?.remoteAddress };
}

/**
 * Answers a Node request with a fetch handler, the one step every Node adapter takes. A service made
 * by createPlayerService is asked through its internal answer step: from the request's head, building a
 * web Request only when it needs one, so that it decides about every method (even those `Request`
 * refuses) and its answer is written without a Response; the result is synchronous when the service
 * kept the answer or read it from a store without I/O (`Store.readsNow`). Any other handler gets a web Request through `fetch`, and a request `Request`
 * refuses is answered 501 (a refused method) or 400. `target` and `body` are those of `toRequest`.
 *
 * @example
 * const answered = answerNode(service, req);
 */
export function answerNode(handler: FetchHandler, req: IncomingMessage, target?: string, body?: Uint8Array | string): Answer | Response | Promise<Answer | Response> {
  const answer = answererOf(handler);
  if (answer) {
    const head = toRequestHead(req, target);
    // The body streams from the request as the service reads it: no web Request is built for it.
    const method = head.method;
    const withBody =
      body === undefined && method !== 'GET' && method !== 'HEAD'
        ? { method, url: head.url, headers: head.headers, clientAddress: head.clientAddress, bodyStream: () => bodyStream(req), bodyBytes: (limit: number) => bodyBytes(req, limit) }
        : head;
    return answer(withBody, () => requestFor(req, target, body));
  }
  let request: Request;
  try {
    request = toRequest(req, target, body);
  } catch (error) {
    const refused = refusal(req, error);
    return new Response(JSON.stringify(refused.toProblem()), {
      status: refused.status,
      headers: { 'content-type': PROBLEM_MEDIA_TYPE, 'cache-control': 'no-store' },
    });
  }
  return handler.fetch(request);
}

/** The web Request the service asked for; what `Request` refuses is an HttpError the service renders. */
function requestFor(req: IncomingMessage, target?: string, body?: Uint8Array | string): Request {
  try {
    return toRequest(req, target, body);
  } catch (error) {
    throw refusal(req, error);
  }
}

/** Why a request cannot be a web Request: a method Fetch forbids is 501 (RFC 9110 section 15.6.2), anything else 400. */
function refusal(req: IncomingMessage, error: unknown): HttpError {
  const method = (req.method ?? '').toUpperCase();
  if (method === 'CONNECT' || method === 'TRACE' || method === 'TRACK') return new HttpError(501, `${method} is not a method this server implements.`);
  return new HttpError(400, `The request cannot be read: ${error instanceof Error ? error.message : String(error)}`);
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

/**
 * The absolute URL of a request. RFC 9112 section 3.2: an origin-form target ("/path?query") is the
 * path and query, put after the scheme and the Host (a valid one, else `localhost`); an absolute-form
 * target is the URL itself (section 3.2.2: its authority wins over Host); nothing in Host can reach the
 * path. An invalid Host gives an empty URL and any other target is passed as it is: the service answers
 * both 400 (an empty string or a relative reference is no absolute http(s) URL).
 */
function requestUrl(req: IncomingMessage, target: string, host: string | undefined): string {
  if (host !== undefined && !isValidHost(host)) return '';
  const origin = `${(req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'}://${host || 'localhost'}`;
  if (target.startsWith('/')) return origin + target;
  // Asterisk-form (OPTIONS *, section 3.2.4) names the server, no resource: nothing is served at /*.
  return target === '*' ? `${origin}/*` : target;
}
