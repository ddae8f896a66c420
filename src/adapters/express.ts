// Express 5 adapter: a request handler that serves the Player API wherever it is mounted.
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import { serveNode, type FetchHandler } from './node.js';

/**
 * An Express 5 handler serving a fetch handler such as the PlayerService. Mount it at the path of the
 * service's `baseUrl` (`app.use('/games/api', ...)` for `baseUrl: 'https://x.test/games/api'`): the
 * service sees the original URL (`req.originalUrl`), so its links carry the prefix. Mount it before any
 * body parser if you can. A body that `express.raw()` or `express.text()` already read is passed on; a
 * JSON body `express.json()` parsed is written back as JSON text (its meaning kept, not its bytes:
 * duplicate names and number spellings are lost); any other parsed body (`express.urlencoded()`) cannot
 * be recovered, and the request is answered 500 in problem+json saying to mount the API before that parser.
 *
 * @example
 * import express from 'express';
 * import { createPlayerService } from 'player-hypermedia';
 * import { toExpressHandler } from 'player-hypermedia/express';
 * const app = express();
 * app.use('/games/api', toExpressHandler(createPlayerService({ baseUrl: 'http://127.0.0.1:3000/games/api' })));
 * app.listen(3000);
 */
export function toExpressHandler(handler: FetchHandler): RequestHandler {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    const read: unknown = req.body;
    let body = Buffer.isBuffer(read) || typeof read === 'string' ? read : undefined;
    if (body === undefined && read !== undefined && req.readableEnded) {
      body = parsedJsonText(req, read);
      if (body === undefined) return consumedBody(res);
    }
    serveNode(handler, req, res, req.originalUrl, body).catch(next);
  };
}

/** A JSON body express.json() parsed, as JSON text again; undefined for any other parsed body. */
function parsedJsonText(req: ExpressRequest, parsed: unknown): string | undefined {
  const type = req.headers['content-type'] ?? '';
  // RFC 6839 section 3.1: +json types are JSON too.
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type) || parsed === null || typeof parsed !== 'object') return undefined;
  return JSON.stringify(parsed);
}

let warned = false;

/**
 * The body was parsed into something that is not JSON (a form): the request cannot be served as sent.
 * A mistake of the application's setup, not of the client: 500, in problem+json (RFC 9457), logged once.
 */
function consumedBody(res: ExpressResponse): void {
  const detail = 'A body parser (express.urlencoded() or similar) consumed the request body before the API; mount the API before it.';
  if (!warned) console.error(`player-hypermedia/express: ${detail}`);
  warned = true;
  res.writeHead(500, { 'content-type': 'application/problem+json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail }));
}
