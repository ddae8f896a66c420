// Cache-Control and Expires per resource kind (RFC 9111 section 5.2.2 and 5.3), as options.

/**
 * How responses of one resource kind may be cached. Seconds throughout.
 * - `scope`: `public` (any cache) or `private` (the user's own cache only), RFC 9111 section 5.2.2.9/7;
 * - `maxAge`: freshness lifetime for every cache (section 5.2.2.1), also sent as Expires = Date + maxAge;
 * - `sMaxAge`: freshness lifetime for shared caches only (section 5.2.2.10);
 * - `mustRevalidate` / `proxyRevalidate`: never serve it stale without revalidating (sections 5.2.2.2, 5.2.2.8);
 * - `staleWhileRevalidate` / `staleIfError`: RFC 5861 sections 3 and 4.
 *
 * @example
 * const edgeFriendly: CachePolicy = { scope: 'public', maxAge: 10, sMaxAge: 60, staleWhileRevalidate: 30 };
 */
export interface CachePolicy {
  scope: 'public' | 'private';
  maxAge: number;
  sMaxAge?: number;
  staleWhileRevalidate?: number;
  staleIfError?: number;
  mustRevalidate?: boolean;
  proxyRevalidate?: boolean;
}

/**
 * Cache policies per kind of resource.
 *
 * @example
 * createPlayerService({ baseUrl, cache: { player: { scope: 'public', maxAge: 300 } } });
 */
export interface CachePolicies {
  player: CachePolicy;
  friends: CachePolicy;
  search: CachePolicy;
  avatar: CachePolicy;
}

/**
 * How a response to a request that carries credentials (Authorization) is cached:
 * - `revalidate`: `public, max-age=0`: shared caches may store it but must revalidate every reuse with
 *   the origin, passing Authorization on (RFC 9111 section 3.5), so revoked credentials get their 401;
 * - `private`: `private, max-age=<the kind's max-age>`: only the user's own cache may keep it.
 *
 * @example
 * const mode: AuthorizedCaching = 'private';
 */
export type AuthorizedCaching = 'revalidate' | 'private';

/**
 * The `cache` option of createPlayerService: per-kind policies merged field by field over the
 * defaults, and the handling of credentialed requests.
 *
 * @example
 * const cache: CacheOptions = { player: { maxAge: 300, staleIfError: 86400 }, authorized: 'private' };
 */
export type CacheOptions = { [K in keyof CachePolicies]?: Partial<CachePolicy> } & { authorized?: AuthorizedCaching };

/**
 * The `cache` option after defaults.
 *
 * @example
 * createPlayerService({ baseUrl }).config.cache.friends.maxAge; // 10
 */
export interface CacheConfig extends CachePolicies {
  authorized: AuthorizedCaching;
}

/**
 * The defaults (docs/caching.md): players 60 s, friend pages and searches 10 s, avatars a day, all public.
 *
 * @example
 * DEFAULT_CACHE_POLICIES.player.maxAge; // 60
 */
export const DEFAULT_CACHE_POLICIES: Readonly<CachePolicies> = Object.freeze<CachePolicies>({
  player: { scope: 'public', maxAge: 60 },
  friends: { scope: 'public', maxAge: 10 },
  search: { scope: 'public', maxAge: 10 },
  avatar: { scope: 'public', maxAge: 86400 },
});

const KINDS = ['player', 'friends', 'search', 'avatar'] as const;
const SECONDS = ['maxAge', 'sMaxAge', 'staleWhileRevalidate', 'staleIfError'] as const;

/**
 * Applies the defaults to the `cache` option and checks it (a TypeError for misuse).
 *
 * @example
 * resolveCacheOptions({ friends: { maxAge: 30 } }).friends; // { scope: 'public', maxAge: 30 }
 */
export function resolveCacheOptions(options: CacheOptions = {}): CacheConfig {
  if (typeof options !== 'object' || options === null) throw new TypeError('createPlayerService: options.cache must be an object');
  const authorized = options.authorized ?? 'revalidate';
  if (authorized !== 'revalidate' && authorized !== 'private') {
    throw new TypeError(`createPlayerService: cache.authorized must be 'revalidate' or 'private'`);
  }
  const config = { authorized } as CacheConfig;
  for (const kind of KINDS) {
    const policy: CachePolicy = { ...DEFAULT_CACHE_POLICIES[kind], ...options[kind] };
    if (policy.scope !== 'public' && policy.scope !== 'private') throw new TypeError(`createPlayerService: cache.${kind}.scope must be 'public' or 'private'`);
    for (const field of SECONDS) {
      const value = policy[field];
      if (value === undefined && field !== 'maxAge') continue;
      if (!Number.isInteger(value) || value! < 0 || value! > 2147483647) {
        throw new TypeError(`createPlayerService: cache.${kind}.${field} must be a whole number of seconds from 0 to 2147483647`);
      }
    }
    config[kind] = policy;
  }
  return config;
}

/**
 * The Cache-Control field value of a policy (RFC 9111 section 5.2.2 directives).
 *
 * @example
 * cacheControl({ scope: 'public', maxAge: 60 }); // 'public, max-age=60'
 * cacheControl({ scope: 'public', maxAge: 10, sMaxAge: 60, staleIfError: 600 });
 * // 'public, max-age=10, s-maxage=60, stale-if-error=600'
 */
export function cacheControl(policy: CachePolicy): string {
  let value = `${policy.scope}, max-age=${policy.maxAge}`;
  if (policy.sMaxAge !== undefined) value += `, s-maxage=${policy.sMaxAge}`;
  if (policy.mustRevalidate) value += ', must-revalidate';
  if (policy.proxyRevalidate) value += ', proxy-revalidate';
  // RFC 5861 section 3 and 4.
  if (policy.staleWhileRevalidate !== undefined) value += `, stale-while-revalidate=${policy.staleWhileRevalidate}`;
  if (policy.staleIfError !== undefined) value += `, stale-if-error=${policy.staleIfError}`;
  return value;
}

/**
 * The policy that applies to a response to a request carrying credentials (docs/caching.md, RFC 9111
 * section 3.5). `revalidate`: `public, max-age=0` (plus must-revalidate when the kind asks for it),
 * nothing that would let a cache answer without asking the origin (no s-maxage, no stale-*).
 * `private` (or a kind whose scope is private): the kind's max-age and stale-* for the user's own
 * cache, nothing for shared caches.
 *
 * @example
 * authorizedPolicy({ scope: 'public', maxAge: 60, sMaxAge: 600 }, 'revalidate'); // { scope: 'public', maxAge: 0 }
 * authorizedPolicy({ scope: 'public', maxAge: 60 }, 'private'); // { scope: 'private', maxAge: 60 }
 */
export function authorizedPolicy(policy: CachePolicy, mode: AuthorizedCaching): CachePolicy {
  // A kind configured private stays private: credentials never widen who may store a response.
  if (mode === 'revalidate' && policy.scope === 'public') return policy.mustRevalidate ? { scope: 'public', maxAge: 0, mustRevalidate: true } : { scope: 'public', maxAge: 0 };
  const out: CachePolicy = { scope: 'private', maxAge: policy.maxAge };
  if (policy.mustRevalidate) out.mustRevalidate = true;
  if (policy.staleWhileRevalidate !== undefined) out.staleWhileRevalidate = policy.staleWhileRevalidate;
  if (policy.staleIfError !== undefined) out.staleIfError = policy.staleIfError;
  return out;
}
