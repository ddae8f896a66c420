// What every example server shares: the environment variables, the store, and the start-up message.
import { swaggerUi } from '../src/adapters/swagger-ui.js';
import { trustProxyOptionFromEnv } from '../src/core/http/forwarded.js';
import { randomBytes } from 'node:crypto';
import { bearerTokens, createPlayerService, DEMO_PLAYER_ID, type PlayerService } from '../src/index.js';
import { nodeServerOptionsFromEnv, type NodeServerOptions } from '../src/adapters/node.js';
import { storeFromEnv } from './store-from-env.js';
import { corsOptionsFromEnv } from '../src/core/service/cors.js';
import { metricsOptionFromEnv } from '../src/core/service/metrics.js';
import { rateLimitOptionFromEnv } from '../src/core/service/rate-limit.js';
import { compressionOptionFromEnv } from '../src/adapters/node-codings.js';

/**
 * One example's settings and store. `listening(port)` makes the service once the server listens (the
 * links are built from the real address when BASE_URL is not set, and PORT=0 picks a free port), so the
 * examples mount the service's handler after `listen`, then call `ready()` to say where it listens.
 */
export interface Example {
  host: string;
  port: number;
  /** Where the framework mounts the handler: the path of BASE_URL, or the example's default. */
  mountPath: string;
  /** The limits of the server (createNodeServer), from HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, MAX_CONNECTIONS. */
  serverOptions: NodeServerOptions;
  /** Makes the service for the port the server got. */
  listening(actualPort: number): PlayerService;
  /** Prints where the service listens and how to try it (call once its handler is mounted). */
  ready(): void;
  close(): Promise<void>;
}

/**
 * Reads PORT, HOST, BASE_URL, API_TOKEN (comma-separated write tokens; one is generated when unset),
 * TRUST_PROXY (see trustProxyOptionFromEnv), CORS_ORIGINS and CORS_CREDENTIALS=1 (see corsOptionsFromEnv), METRICS, COMPRESSION, RATE_LIMIT, DATABASE_URL (see store-from-env.ts) and the server limits (see
 * nodeServerOptionsFromEnv), and opens the store.
 *
 * @example
 * const example = await openExample('express', process.env);
 * server.listen(example.port, example.host, () => {
 *   server.on('request', toNodeListener(example.listening((server.address() as AddressInfo).port)));
 *   example.ready();
 * });
 */
export async function openExample(framework: string, env: NodeJS.ProcessEnv, defaultMountPath = ''): Promise<Example> {
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 3000);
  const mountPath = env.BASE_URL ? new URL(env.BASE_URL).pathname.replace(/\/+$/, '') : defaultMountPath;
  const serverOptions = nodeServerOptionsFromEnv(env);
  const given = (env.API_TOKEN ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const tokens = given.length ? given : [randomBytes(18).toString('base64url')];
  const { store, description, close } = await storeFromEnv(env);
  let origin = '';
  let baseUrl = '';
  return {
    host,
    port,
    mountPath,
    serverOptions,
    listening(actualPort) {
      origin = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
      baseUrl = env.BASE_URL ?? origin + mountPath;
      // BACKEND_URL: the Swagger description's gateway extension forwards GET /player/{id} there.
      const backendUrl = env.BACKEND_URL || undefined;
      const cors = corsOptionsFromEnv(env);
      const metrics = metricsOptionFromEnv(env);
      const rateLimit = rateLimitOptionFromEnv(env, store);
      const compression = compressionOptionFromEnv(env);
      return createPlayerService({
        baseUrl,
        store,
        authenticate: bearerTokens(tokens),
        trustProxy: trustProxyOptionFromEnv(env),
        backendUrl,
        metrics,
        compression,
        // The explorer at {base}/docs: Swagger UI from the installed swagger-ui-dist package.
        extensions: [swaggerUi()],
        ...(cors ? { cors } : {}),
        ...(rateLimit ? { rateLimit } : {}),
      });
    },
    ready() {
      console.log(`Player API (${framework}) listening on ${origin} (links use ${baseUrl}; ${description})`);
      console.log(`Write token${given.length ? '' : ' (generated; set API_TOKEN to choose)'}: ${tokens[0]}`);
      console.log(`Try: curl ${baseUrl}/player/${DEMO_PLAYER_ID}`);
      console.log(`     curl -H 'Accept: application/hal+json' '${baseUrl}/player/${DEMO_PLAYER_ID}/friends?page=2'`);
      console.log(`     open ${baseUrl}/player/${DEMO_PLAYER_ID} in a browser`);
      console.log(`     curl ${baseUrl}/openapi.json (or open ${baseUrl}/docs, the explorer)`);
      console.log(
        `     curl -i -X POST ${baseUrl}/player/${DEMO_PLAYER_ID}/friends -H 'Authorization: Bearer ${tokens[0]}' ` +
          `-H 'Content-Type: application/json' -d '{"name":"Zoe Zed","alternateName":"zoe"}'`,
      );
    },
    close,
  };
}

/**
 * Stops the server and releases the store on SIGINT/SIGTERM.
 *
 * @example
 * stopOnSignal(example, () => server.close());
 */
export function stopOnSignal(example: Example, stopServer: () => unknown): void {
  const handler = async () => {
    console.log('Stopping.');
    await stopServer();
    await example.close();
    process.exit(0);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
