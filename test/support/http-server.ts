// Test helper: the demo service on a real node:http server, on an ephemeral port of 127.0.0.1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlayerService, MemoryPlayerStore, seedDemoData } from '../../src/index.js';
import { toNodeListener } from '../../src/adapters/node.js';

/** Starts the demo service over HTTP; `close()` stops it. */
export async function startDemoServer(): Promise<{ origin: string; close: () => Promise<void> }> {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', toNodeListener(createPlayerService({ baseUrl: origin, store })));
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
