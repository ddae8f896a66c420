// The example server: the Player API on node:http, on PostgreSQL when DATABASE_URL is set, else in memory.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlayerService, DEMO_PLAYER_ID } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { storeFromEnv } from './store-from-env.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);

const { store, description, close } = await storeFromEnv(process.env);
const server = createServer();

server.listen(port, host, () => {
  // PORT=0 picks a free port: links then use the real one unless BASE_URL says otherwise.
  const actual = (server.address() as AddressInfo).port;
  const baseUrl = process.env.BASE_URL ?? `http://${host}:${actual}`;
  server.on('request', toNodeListener(createPlayerService({ baseUrl, store })));
  console.log(`Player API listening on http://${host}:${actual} (links use ${baseUrl}; ${description})`);
  console.log(`Try: curl ${baseUrl}/player/${DEMO_PLAYER_ID}`);
  console.log(`     curl -i '${baseUrl}/player/${DEMO_PLAYER_ID}/friends?page=2'`);
});

function stop(): void {
  console.log('Stopping.');
  server.close(() => void close().finally(() => process.exit(0)));
  server.closeAllConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
