// The example server: the Player API on node:http, on PostgreSQL when DATABASE_URL is set, else in memory.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('node:http', process.env);
const server = createServer(toNodeListener(example));

server.listen(example.port, example.host, () => example.listening((server.address() as AddressInfo).port));
stopOnSignal(example, () => {
  server.closeAllConnections();
  server.close();
});
