// The example server on Hono (run on Node by @hono/node-server): the Player API from player-hypermedia/hono.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { toHonoHandler } from '../src/adapters/hono.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('hono', process.env);
const app = new Hono();
app.all(`${example.mountPath}/*`, toHonoHandler(example));

// On Bun, Deno or Workers, `export default app` (or `export default { fetch: service.fetch }`) is all it takes.
const server = serve({ fetch: app.fetch, port: example.port, hostname: example.host }, (info) => example.listening(info.port));
stopOnSignal(example, () => new Promise((resolve) => server.close(resolve)));
