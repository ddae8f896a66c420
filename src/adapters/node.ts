// node:http adapter: an IncomingMessage to a Request, the Response back to a ServerResponse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Anything with a fetch handler, such as the PlayerService. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
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
  const proto = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const url = new URL(target, `${proto}://${req.headers.host ?? 'localhost'}`);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // `duplex: 'half'` is required by the fetch spec for a streamed request body.
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (hasBody && body !== undefined) init.body = body;
  else if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

/**
 * Writes a web Response to a Node ServerResponse. The service's bodies are small and complete, so the
 * body is sent in one piece with its Content-Length rather than chunked.
 *
 * @example
 * await writeResponse(await service.fetch(toRequest(req)), res);
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) return void res.end();
  const body = new Uint8Array(await response.arrayBuffer());
  res.setHeader('Content-Length', body.byteLength);
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
    handler
      .fetch(toRequest(req))
      .then((response) => writeResponse(response, res))
      .catch((error: unknown) => {
        console.error('player-hypermedia/node: failed to answer', error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' });
        res.end(res.headersSent ? undefined : '{"type":"about:blank","title":"Internal Server Error","status":500}');
      });
  };
}
