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
 * The `cache` option of createService: policies per kind of answer (a type's name for its items, a
 * to-many relation's name for its pages, `search`, an extension's kinds such as `avatar`), each merged
 * field by field over its default, and the handling of credentialed requests.
 *
 * @example
 * const cache: CacheOptions = { player: { maxAge: 300, staleIfError: 86400 }, authorized: 'private' };
 */
export type CacheOptions = { readonly [kind: string]: Partial<CachePolicy> | AuthorizedCaching | undefined } & { authorized?: AuthorizedCaching };

/**
 * The `cache` option after defaults: a policy for every kind the service answers with.
 *
 * @example
 * createPlayerService({ baseUrl }).config.cache.kinds.friends.maxAge; // 10
 */
export interface CacheConfig {
  authorized: AuthorizedCaching;
  kinds: Readonly<Record<string, CachePolicy>>;
}

/**
 * The default policies of the kinds of answers (docs/caching.md): items 60 s, list pages and searches
 * 10 s, media (an avatar) a day, all public.
 *
 * @example
 * DEFAULT_CACHE_POLICIES.item.maxAge; // 60
 */
export const DEFAULT_CACHE_POLICIES: Readonly<{ item: CachePolicy; list: CachePolicy; search: CachePolicy; media: CachePolicy }> = Object.freeze({
  item: { scope: 'public', maxAge: 60 },
  list: { scope: 'public', maxAge: 10 },
  search: { scope: 'public', maxAge: 10 },
  media: { scope: 'public', maxAge: 86400 },
});

const SECONDS = ['maxAge', 'sMaxAge', 'staleWhileRevalidate', 'staleIfError'] as const;

/**
 * Applies the defaults of each kind (`kinds`) to the `cache` option and checks it (a TypeError for
 * misuse, naming the kinds there are when one is unknown).
 *
 * @example
 * resolveCacheOptions({ friends: { maxAge: 30 } }, { friends: DEFAULT_CACHE_POLICIES.list }).kinds.friends; // { scope: 'public', maxAge: 30 }
 */
export function resolveCacheOptions(options: CacheOptions = {}, kinds: Readonly<Record<string, CachePolicy>> = {}): CacheConfig {
  if (typeof options !== 'object' || options === null) throw new TypeError('createService: options.cache must be an object');
  const authorized = options.authorized ?? 'revalidate';
  if (authorized !== 'revalidate' && authorized !== 'private') {
    throw new TypeError(`createService: cache.authorized must be 'revalidate' or 'private'`);
  }
  for (const kind of Object.keys(options)) {
    if (kind !== 'authorized' && !Object.hasOwn(kinds, kind)) throw new TypeError(`createService: cache.${kind} names no kind of answer; the kinds are ${Object.keys(kinds).join(', ')}`);
  }
  const resolved: Record<string, CachePolicy> = {};
  for (const [kind, defaults] of Object.entries(kinds)) {
    const given = options[kind];
    if (given !== undefined && (typeof given !== 'object' || given === null)) throw new TypeError(`createService: cache.${kind} must be an object`);
    const policy: CachePolicy = { ...defaults, ...(given as Partial<CachePolicy> | undefined) };
    if (policy.scope !== 'public' && policy.scope !== 'private') throw new TypeError(`createService: cache.${kind}.scope must be 'public' or 'private'`);
    for (const field of SECONDS) {
      const value = policy[field];
      if (value === undefined && field !== 'maxAge') continue;
      if (!Number.isInteger(value) || value! < 0 || value! > 2147483647) {
        throw new TypeError(`createService: cache.${kind}.${field} must be a whole number of seconds from 0 to 2147483647`);
      }
    }
    resolved[kind] = policy;
  }
  return { authorized, kinds: resolved };
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
