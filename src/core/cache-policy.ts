// Cache-Control and Expires per resource kind (RFC 9111 section 5.2.2 and 5.3).

/**
 * How responses of one resource kind may be cached. Seconds throughout.
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
}

/** Cache policies per kind of resource. */
export interface CachePolicies {
  player: CachePolicy;
  friends: CachePolicy;
  search: CachePolicy;
  avatar: CachePolicy;
}

/** DESIGN.md defaults: players 60 s, friend pages and searches 10 s, avatars a day, all public. */
export const DEFAULT_CACHE_POLICIES: Readonly<CachePolicies> = {
  player: { scope: 'public', maxAge: 60 },
  friends: { scope: 'public', maxAge: 10 },
  search: { scope: 'public', maxAge: 10 },
  avatar: { scope: 'public', maxAge: 86400 },
};

/**
 * The Cache-Control field value of a policy (RFC 9111 section 5.2.2 directives).
 *
 * @example
 * cacheControl({ scope: 'public', maxAge: 60 }); // 'public, max-age=60'
 */
export function cacheControl(policy: CachePolicy): string {
  let value = `${policy.scope}, max-age=${policy.maxAge}`;
  if (policy.sMaxAge !== undefined) value += `, s-maxage=${policy.sMaxAge}`;
  if (policy.mustRevalidate) value += ', must-revalidate';
  // RFC 5861 section 3 and 4.
  if (policy.staleWhileRevalidate !== undefined) value += `, stale-while-revalidate=${policy.staleWhileRevalidate}`;
  if (policy.staleIfError !== undefined) value += `, stale-if-error=${policy.staleIfError}`;
  return value;
}
