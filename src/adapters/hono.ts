// Hono adapter: a handler that serves the Player API from inside a Hono application.
import type { Handler } from 'hono';
import type { FetchHandler } from './node.js';

/**
 * A Hono handler passing the original request to a fetch handler such as the PlayerService. Route the
 * service's path prefix to it (`app.all('/games/api/*', ...)` for `baseUrl: 'https://x.test/games/api'`):
 * the request URL is left as the client sent it, so links carry the prefix. (On Bun, Deno or Workers
 * without Hono, `service.fetch` is the handler itself.)
 *
 * @example
 * import { Hono } from 'hono';
 * import { createPlayerService } from 'player-hypermedia';
 * import { toHonoHandler } from 'player-hypermedia/hono';
 * const app = new Hono();
 * app.all('/games/api/*', toHonoHandler(createPlayerService({ baseUrl: 'https://x.test/games/api' })));
 * export default app;
 */
export function toHonoHandler(handler: FetchHandler): Handler {
  return (c) => handler.fetch(c.req.raw);
}
