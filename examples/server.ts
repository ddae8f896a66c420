// The example server: the Player API on node:http, on PostgreSQL when DATABASE_URL is set, else in memory.
import type { AddressInfo } from 'node:net';
import { accessLogLevel, createNodeServer, toNodeListener, withAccessLog } from '../src/adapters/node.js';
import { openExample, stopOnSignal } from './example-service.js';

const example = await openExample('node:http', process.env);
// Timeouts and a connection cap instead of Node's defaults (see createNodeServer).
const server = createNodeServer(undefined, example.serverOptions);

server.listen(example.port, example.host, () => {
  const service = example.listening((server.address() as AddressInfo).port);
  // One JSON line per request (LOG_LEVEL: info, error or silent), with the principal's id, never the token.
  server.on('request', withAccessLog(toNodeListener(service), { level: accessLogLevel(process.env), authenticate: service.config.authenticate }));
  example.ready();
});
stopOnSignal(example, () => {
  server.closeAllConnections();
  server.close();
});
