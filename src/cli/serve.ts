// `player-hypermedia serve`: the example server (node:http, demo data), configured by environment variables.
import { swaggerUi } from '../adapters/swagger-ui.js';
import { trustProxyOptionFromEnv } from '../core/http/forwarded.js';
import { corsOptionsFromEnv } from '../core/service/cors.js';
import { compressionOptionFromEnv } from '../adapters/node-codings.js';
import { rateLimitOptionFromEnv } from '../core/service/rate-limit.js';
import { metricsOptionFromEnv } from '../core/service/metrics.js';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { accessLogLevel, createNodeServer, nodeServerOptionsFromEnv, toNodeListener, withAccessLog } from '../adapters/node.js';
import { bearerTokens } from '../core/service/credentials.js';
import { MemoryPlayerStore, type PlayerStore } from '../player/player-store.js';
import { createPlayerService } from '../player/service.js';
import { DEMO_PLAYER_ID, seedDemoData } from '../player/demo/demo-data.js';

/** The help text of `serve`. */
export const SERVE_HELP = `Usage: player-hypermedia serve

Starts the Player API on node:http with the demo players (alice has 32 friends).

Environment:
  PORT          port to listen on (default 3000; 0 picks a free one)
  HOST          address to listen on (default 127.0.0.1)
  BASE_URL      absolute URL the links are built from (default http://HOST:PORT)
  API_TOKEN     comma-separated Bearer tokens allowed to write (default: one generated and printed)
  TRUST_PROXY   1 (= x-forwarded:1), x-forwarded[:hops] or forwarded[:hops]: trust those proxy fields
  CORS_ORIGINS  comma-separated origins granted CORS access, or * for reads from any origin
  CORS_CREDENTIALS  1 to let the listed origins send credentials
  LOG_LEVEL     info (a JSON access line per request, the default), error (5xx only) or silent
  COMPRESSION   br and gzip by Accept-Encoding above 1 KiB (the default), off to send bodies as they are
  RATE_LIMIT    requests per minute per client (a token's principal, else an address), then 429; unset: no limit
  METRICS       1 to serve /metrics (Prometheus text), authenticated to serve it to the write tokens only
  BACKEND_URL   backend the Swagger description's gateway extension forwards GET /player/{id} to
  DATABASE_URL  postgres://... to use PostgreSQL (migrated on start, demo data added when missing)
  HEADERS_TIMEOUT_MS     time to receive a request's headers (default 10000)
  REQUEST_TIMEOUT_MS     time to receive a whole request (default 30000)
  KEEP_ALIVE_TIMEOUT_MS  idle time before a keep-alive connection closes (default 5000)
  MAX_CONNECTIONS        connections open at once (default 10000)
`;

async function openStore(env: NodeJS.ProcessEnv): Promise<{ store: PlayerStore; close: () => Promise<void>; description: string }> {
  if (!env.DATABASE_URL) {
    const store = new MemoryPlayerStore();
    await seedDemoData(store);
    return { store, close: async () => undefined, description: 'in-memory store with demo data' };
  }
  const { PostgresPlayerStore } = await import('../stores/postgres/index.js');
  const store = new PostgresPlayerStore({ connectionString: env.DATABASE_URL, schema: env.DATABASE_SCHEMA ?? 'public' });
  await store.migrate();
  if (!(await store.getPlayer(DEMO_PLAYER_ID))) await seedDemoData(store);
  return { store, close: () => store.close(), description: `PostgreSQL at ${new URL(env.DATABASE_URL).host}` };
}

/**
 * Runs the server until SIGINT or SIGTERM.
 *
 * @example
 * await serve(process.env);
 */
export async function serve(env: NodeJS.ProcessEnv): Promise<void> {
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`PORT "${env.PORT}" is not a port number`);
  const given = (env.API_TOKEN ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const tokens = given.length ? given : [randomBytes(18).toString('base64url')];
  const serverOptions = nodeServerOptionsFromEnv(env);
  const { store, close, description } = await openStore(env);
  const server = createNodeServer(undefined, serverOptions);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  const baseUrl = env.BASE_URL ?? origin;
  const backendUrl = env.BACKEND_URL || undefined;
  const cors = corsOptionsFromEnv(env);
  const rateLimit = rateLimitOptionFromEnv(env, store);
  const service = createPlayerService({
    baseUrl,
    store,
    authenticate: bearerTokens(tokens),
    trustProxy: trustProxyOptionFromEnv(env),
    backendUrl,
    metrics: metricsOptionFromEnv(env),
    compression: compressionOptionFromEnv(env),
    // The explorer at {base}/docs: Swagger UI from the installed swagger-ui-dist package.
    extensions: [swaggerUi()],
    ...(rateLimit ? { rateLimit } : {}),
    ...(cors ? { cors } : {}),
  });
  server.on('request', withAccessLog(toNodeListener(service), { level: accessLogLevel(env), authenticate: service.config.authenticate }));
  console.log(`Player API listening on ${origin} (links use ${baseUrl}; ${description})`);
  console.log(`Write token${given.length ? '' : ' (generated; set API_TOKEN to choose)'}: ${tokens[0]}`);
  console.log(`Try: curl ${baseUrl}/player/${DEMO_PLAYER_ID}`);
  const stop = () => {
    server.closeAllConnections();
    server.close(() => void close().finally(() => process.exit(0)));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
