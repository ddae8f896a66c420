// Test helper: the demo service behind every Node adapter (node:http, Express, Fastify) on real ports.
import { createServer, type Server } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerServiceOptions, type PlayerStore } from '../../src/index.js';
import { answererOf, attachAnswerer } from '../../src/core/service/answerer.js';
import { toNodeListener } from '../../src/adapters/node.js';
import { toExpressHandler } from '../../src/adapters/express.js';
import { playerApiPlugin } from '../../src/adapters/fastify.js';
import { originOf } from './echo.js';

/** The Bearer token the servers of `startAdapterServers` accept for writes. */
export const WRITE_TOKEN = 'hostile-test-token';

/** One running server: which adapter, where, its store, and how to stop it. */
export interface AdapterServer {
  adapter: 'node' | 'express' | 'fastify';
  origin: string;
  store: PlayerStore;
  close: () => Promise<void>;
}

type Adapter = AdapterServer['adapter'];

/**
 * Starts the demo service (memory store with the demo players, writes allowed with WRITE_TOKEN) behind
 * each adapter named, each on its own ephemeral port of 127.0.0.1 with its own store. `options` are
 * passed to createPlayerService (baseUrl is the server's origin).
 *
 * @example
 * const servers = await startAdapterServers(['node', 'express']);
 * for (const s of servers) await fetch(`${s.origin}/player/alice`);
 * await Promise.all(servers.map((s) => s.close()));
 */
export async function startAdapterServers(
  adapters: readonly Adapter[] = ['node', 'express', 'fastify'],
  options: Partial<PlayerServiceOptions> = {},
): Promise<AdapterServer[]> {
  return Promise.all(adapters.map((adapter) => startOne(adapter, options)));
}

async function startOne(adapter: Adapter, options: Partial<PlayerServiceOptions>): Promise<AdapterServer> {
  const store = (options.store ?? new MemoryPlayerStore()) as PlayerStore;
  if (!options.store) await seedDemoData(store);
  const serviceFor = (origin: string) => createPlayerService({ authenticate: bearerTokens([WRITE_TOKEN]), ...options, baseUrl: origin, store });
  if (adapter === 'fastify') {
    const app = Fastify();
    const holder: { service?: ReturnType<typeof serviceFor> } = {};
    // The service is made once the port is known; every member the adapter uses is forwarded to it.
    const service = attachAnswerer({ fetch: (r: Request) => holder.service!.fetch(r) }, (h, r) => answererOf(holder.service!)!(h, r));
    await app.register(playerApiPlugin, { prefix: '', service });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    holder.service = serviceFor(origin);
    return { adapter, origin, store, close: () => app.close() };
  }
  let server: Server;
  if (adapter === 'express') {
    const app = express();
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    app.use(toExpressHandler(serviceFor(originOf(server))));
  } else {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    server.on('request', toNodeListener(serviceFor(originOf(server))));
  }
  const origin = originOf(server);
  return {
    adapter,
    origin,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
