// createPlayerService options and their defaults, resolved once.
import type { Authenticate } from './auth.js';
import { resolveCacheOptions, type CacheConfig, type CacheOptions } from './cache-policy.js';
import { MemoryPlayerStore } from './memory-store.js';
import { createNegotiation, type Negotiation } from './negotiate.js';
import type { Representation } from './representation.js';
import type { PlayerStore } from './store.js';

/**
 * Options of `createPlayerService`. Only `baseUrl` and `representations` are required; the
 * package entry point's `createPlayerService` fills `representations` with the six formats.
 *
 * @example
 * const options: PlayerServiceOptions = { baseUrl: 'https://api.example.com', pageSize: 20 };
 */
export interface PlayerServiceOptions {
  /** Absolute URL the service is reachable at; every link is built from it. A path prefix is allowed. */
  baseUrl: string;
  /** Where players live. Default: a new MemoryPlayerStore. */
  store?: PlayerStore;
  /** Friends per page (default 10). */
  pageSize?: number;
  /** The formats served; the first is the default for a missing Accept or `*\/*`. Later entries with the same media type replace earlier ones. */
  representations?: readonly Representation[];
  /**
   * Caching: policies per resource kind (player, friends, search, avatar), each merged field by field
   * over the defaults of DESIGN.md, and `authorized` ('revalidate' by default, or 'private') for
   * responses to requests that carry credentials. See docs/caching.md.
   */
  cache?: CacheOptions;
  /** Checks the credentials of requests that carry Authorization. Without it, any credentials are invalid (401) and writes are refused. */
  authenticate?: Authenticate;
  /**
   * Build the links of each response from the gateway's `Forwarded` (RFC 7239) or
   * `X-Forwarded-Proto` / `X-Forwarded-Host` / `X-Forwarded-Prefix` headers (default false: they are
   * ignored). Turn it on only behind a gateway that sets (or strips) those headers itself.
   */
  trustProxy?: boolean;
}

/** Options after defaults, as the handlers use them. */
export interface ServiceConfig {
  origin: string;
  basePath: string;
  baseUrl: string;
  store: PlayerStore;
  pageSize: number;
  representations: readonly Representation[];
  negotiate: Negotiation;
  cache: CacheConfig;
  authenticate: Authenticate | undefined;
  trustProxy: boolean;
}

/**
 * Validates options (a TypeError for misuse) and applies defaults.
 *
 * @example
 * resolveOptions({ baseUrl: 'https://x.test/api/', representations }).basePath; // '/api'
 */
export function resolveOptions(options: PlayerServiceOptions): ServiceConfig {
  if (!options || typeof options.baseUrl !== 'string') throw new TypeError('createPlayerService: options.baseUrl (an absolute URL) is required');
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`createPlayerService: baseUrl "${options.baseUrl}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('createPlayerService: baseUrl must be http or https');
  const pageSize = options.pageSize ?? 10;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new TypeError('createPlayerService: pageSize must be an integer from 1 to 1000');
  const representations = dedupe(options.representations ?? []);
  if (representations.length === 0) throw new TypeError('createPlayerService: at least one representation is required');
  const basePath = url.pathname.replace(/\/+$/, '');
  return {
    origin: url.origin,
    basePath,
    baseUrl: url.origin + basePath,
    store: options.store ?? new MemoryPlayerStore(),
    pageSize,
    representations,
    negotiate: createNegotiation(representations),
    cache: resolveCacheOptions(options.cache),
    authenticate: options.authenticate,
    trustProxy: options.trustProxy === true,
  };
}

function dedupe(list: readonly Representation[]): Representation[] {
  const byType = new Map<string, Representation>();
  for (const r of list) {
    if (!r || typeof r.render !== 'function' || typeof r.mediaType !== 'string' || typeof r.name !== 'string') {
      throw new TypeError('createPlayerService: every representation needs name, mediaType and render()');
    }
    const key = r.mediaType.toLowerCase();
    // A later entry with the same media type replaces the earlier one, keeping its position.
    byType.set(key, r);
  }
  return [...byType.values()];
}
