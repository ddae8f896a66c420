// The example server on Hono (run on Node by @hono/node-server): the Player API from player-hypermedia/hono.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { toHonoHandler } from '../src/adapters/hono.js';
import { announce, exampleService, readSettings, stopOnSignal } from './example-service.js';

const settings = readSettings(process.env);
const service = await exampleService(settings);
const app = new Hono();
app.all('*', toHonoHandler(service));

// On Bun, Deno or Workers, `export default app` (or `export default service`) is all it takes.
const server = serve({ fetch: app.fetch, port: settings.port, hostname: settings.host }, (info) => {
  announce('hono', `http://${settings.host}:${info.port}`, settings);
});
stopOnSignal(() => new Promise((resolve) => server.close(resolve)));
