// An example server with two API majors: 2.0 (latest) and 1.0.1 (deprecated, in its grace period).
import type { AddressInfo } from 'node:net';
import { createPlayerService, DEMO_PLAYER_ID, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { createNodeServer, nodeServerOptionsFromEnv, toNodeListener } from '../src/adapters/node.js';

const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);

const store = new MemoryPlayerStore();
await seedDemoData(store);
const server = createNodeServer(undefined, nodeServerOptionsFromEnv(process.env));

server.listen(port, host, () => {
  // PORT=0 picks a free port: links then use the real one unless BASE_URL says otherwise.
  const actual = (server.address() as AddressInfo).port;
  const baseUrl = process.env.BASE_URL ?? `http://${host}:${actual}`;
  const service = createPlayerService({
    baseUrl,
    store,
    // Major 1 was deprecated a week ago: it keeps working for the grace period (180 days by default),
    // announcing Deprecation, Sunset and its successor; after that /api/v1/... answers 308 to /....
    versions: [
      { major: 1, minor: 0, patch: 1, status: 'deprecated', deprecatedAt: Date.now() - 7 * 86_400_000 },
      { major: 2, minor: 0, patch: 0 },
    ],
    gracePeriodDays: Number(process.env.GRACE_PERIOD_DAYS ?? 180),
    backendUrl: process.env.BACKEND_URL || undefined,
  });
  server.on('request', toNodeListener(service));
  console.log(`Versioned Player API listening on http://${host}:${actual} (links use ${baseUrl})`);
  console.log(`Latest (2.0):   curl -i ${baseUrl}/player/${DEMO_PLAYER_ID}`);
  console.log(`Major 1:        curl -i ${baseUrl}/api/v1/player/${DEMO_PLAYER_ID}`);
  console.log(`By header:      curl -i -H 'Api-Version: 1.0' ${baseUrl}/player/${DEMO_PLAYER_ID}`);
});

function stop(): void {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
