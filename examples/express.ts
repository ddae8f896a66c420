// The example server on Express 5: the Player API mounted with player-hypermedia/express.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { toExpressHandler } from '../src/adapters/express.js';
import { createNodeServer } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('express', process.env);
const app = express();
app.disable('x-powered-by');

// The app on a server with timeouts and a connection cap (app.listen would keep Node's defaults).
const server = createNodeServer(app, example.serverOptions);
server.listen(example.port, example.host, () => {
  // Mounted at the path of BASE_URL ('/' by default): the service sees the original URL either way.
  app.use(example.mountPath || '/', toExpressHandler(example.listening((server.address() as AddressInfo).port)));
  example.ready();
});
stopOnSignal(example, () => {
  server.closeAllConnections();
  server.close();
});
