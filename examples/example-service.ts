// What every example server shares: the environment variables, the demo store, and the start-up message.
import { randomBytes } from 'node:crypto';
import { bearerTokens, createPlayerService, DEMO_PLAYER_ID, MemoryPlayerStore, seedDemoData, type PlayerService } from '../src/index.js';

/** The example's settings: PORT, HOST, BASE_URL and API_TOKEN (comma-separated), with their defaults. */
export interface ExampleSettings {
  host: string;
  port: number;
  baseUrl: string;
  tokens: string[];
  generatedToken: boolean;
}

/**
 * Reads the environment. `mountPath` is where the example mounts the API (e.g. `/games/api`); it ends
 * the default BASE_URL. With PORT=0 (an ephemeral port), set BASE_URL yourself.
 *
 * @example
 * const settings = readSettings(process.env, '/games/api');
 */
export function readSettings(env: NodeJS.ProcessEnv, mountPath = ''): ExampleSettings {
  const host = env.HOST ?? '127.0.0.1';
  const port = Number(env.PORT ?? 3000);
  const baseUrl = env.BASE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}${mountPath}`;
  const given = (env.API_TOKEN ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const tokens = given.length ? given : [randomBytes(18).toString('base64url')];
  return { host, port, baseUrl, tokens, generatedToken: given.length === 0 };
}

/**
 * The Player API over an in-memory store seeded with the demo players, writes open to the tokens.
 *
 * @example
 * const service = await exampleService(readSettings(process.env));
 */
export async function exampleService(settings: ExampleSettings, options: { trustProxy?: boolean } = {}): Promise<PlayerService> {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  return createPlayerService({ baseUrl: settings.baseUrl, store, authenticate: bearerTokens(settings.tokens), ...options });
}

/**
 * Prints where the server listens, the token to write with, and a few requests to try.
 *
 * @example
 * announce('express', 'http://127.0.0.1:3000', settings);
 */
export function announce(framework: string, listening: string, settings: ExampleSettings): void {
  const base = settings.baseUrl;
  console.log(`Player API (${framework}) listening on ${listening} (links use ${base})`);
  console.log(`Write token${settings.generatedToken ? ' (generated; set API_TOKEN to choose)' : ''}: ${settings.tokens[0]}`);
  console.log(`Try: curl ${base}/player/${DEMO_PLAYER_ID}`);
  console.log(`     curl -H 'Accept: application/hal+json' '${base}/player/${DEMO_PLAYER_ID}/friends?page=2'`);
  console.log(`     open ${base}/player/${DEMO_PLAYER_ID} in a browser`);
}

/**
 * Stops the server on SIGINT/SIGTERM.
 *
 * @example
 * stopOnSignal(() => server.close());
 */
export function stopOnSignal(stop: () => unknown): void {
  const handler = async () => {
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}
