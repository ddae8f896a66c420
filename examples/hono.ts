// The example server on Hono (run on Node by @hono/node-server): the Player API from player-hypermedia/hono.
import type { createServer as createHttpServer, RequestListener } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { toHonoHandler } from '../src/adapters/hono.js';
import { createNodeServer } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('hono', process.env);
const app = new Hono();

// On Bun, Deno or Workers, `export default app` (or `export default { fetch: service.fetch }`) is all it takes.
// The node:http server with timeouts and a connection cap (see createNodeServer).
const createServer = ((_options: unknown, listener: RequestListener) => createNodeServer(listener, example.serverOptions)) as unknown as typeof createHttpServer;
const server = serve({ fetch: app.fetch, port: example.port, hostname: example.host, createServer }, (info) => {
  app.all(`${example.mountPath}/*`, toHonoHandler(example.listening(info.port)));
  example.ready();
});
stopOnSignal(example, () => new Promise((resolve) => server.close(resolve)));
