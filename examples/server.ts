// The example server: the Player API on node:http with demo data in the embedded memory store.
import { createServer } from 'node:http';
import { createPlayerService, DEMO_PLAYER_ID, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
const baseUrl = process.env.BASE_URL ?? `http://${host}:${port}`;

const store = new MemoryPlayerStore();
await seedDemoData(store);
const service = createPlayerService({ baseUrl, store });
const server = createServer(toNodeListener(service));

server.listen(port, host, () => {
  console.log(`Player API listening on http://${host}:${port} (links use ${baseUrl})`);
  console.log(`Try: curl ${baseUrl}/player/${DEMO_PLAYER_ID}`);
  console.log(`     curl -i '${baseUrl}/player/${DEMO_PLAYER_ID}/friends?page=2'`);
});

function stop(): void {
  console.log('Stopping.');
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
