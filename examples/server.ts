// The example server: the Player API on node:http with demo data in the embedded memory store.
import { createServer } from 'node:http';
import { toNodeListener } from '../src/adapters/node.js';
import { announce, exampleService, readSettings, stopOnSignal } from './example-service.js';

const settings = readSettings(process.env);
const service = await exampleService(settings);
const server = createServer(toNodeListener(service));

server.listen(settings.port, settings.host, () => {
  const address = server.address() as { address: string; port: number };
  announce('node:http', `http://${settings.host}:${address.port}`, settings);
});
stopOnSignal(() => {
  server.closeAllConnections();
  server.close();
});
