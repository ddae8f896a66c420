// The example server on Express 5: the Player API mounted with player-hypermedia/express.
import express from 'express';
import { toExpressHandler } from '../src/adapters/express.js';
import { announce, exampleService, readSettings, stopOnSignal } from './example-service.js';

const settings = readSettings(process.env);
const service = await exampleService(settings);
const app = express();
app.disable('x-powered-by');
// The service's own path (from BASE_URL) is where it is mounted: '/' here.
app.use(new URL(settings.baseUrl).pathname, toExpressHandler(service));

const server = app.listen(settings.port, settings.host, () => {
  const address = server.address() as { port: number };
  announce('express', `http://${settings.host}:${address.port}`, settings);
});
stopOnSignal(() => {
  server.closeAllConnections();
  server.close();
});
