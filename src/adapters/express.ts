// Express 5 adapter: a request handler that serves the Player API wherever it is mounted.
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express';
import { serveNode, type FetchHandler } from './node.js';

/**
 * An Express 5 handler serving a fetch handler such as the PlayerService. Mount it at the path of the
 * service's `baseUrl` (`app.use('/games/api', ...)` for `baseUrl: 'https://x.test/games/api'`): the
 * service sees the original URL (`req.originalUrl`), so its links carry the prefix. Mount it before any
 * body parser; a body that `express.raw()` or `express.text()` already read is passed on, a parsed
 * JSON or form body cannot be and is an error (next(error)).
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
    const body = Buffer.isBuffer(read) || typeof read === 'string' ? read : undefined;
    if (body === undefined && read !== undefined && req.readableEnded) {
      return next(new Error('player-hypermedia/express: a body parser already consumed the request body; mount the Player API before it'));
    }
    serveNode(handler, req, res, req.originalUrl, body).catch(next);
  };
}
