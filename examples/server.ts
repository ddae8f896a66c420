// The example server: the Player API on node:http, on PostgreSQL when DATABASE_URL is set, else in memory.
import type { AddressInfo } from 'node:net';
import { createNodeServer, toNodeListener } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('node:http', process.env);
// Timeouts and a connection cap instead of Node's defaults (see createNodeServer).
const server = createNodeServer(undefined, example.serverOptions);

server.listen(example.port, example.host, () => {
  const service = example.listening((server.address() as AddressInfo).port);
  server.on('request', toNodeListener(service));
  example.ready();
});
stopOnSignal(example, () => {
  server.closeAllConnections();
  server.close();
});
