// The caching header fields of a 200 or 304: Date, ETag, Last-Modified, Cache-Control, Expires, Vary.
import { authorizedPolicy, cacheControl, type CachePolicy } from './cache-policy.js';
import { copyFields, varyWith, type Fields } from './fields.js';
import type { Validators } from '../http/conditional.js';
import type { RequestContext } from '../service/context.js';
import { httpDate } from '../http/date.js';
import { API_VERSION_HEADER } from '../service/versioning.js';

/**
 * Request header fields every cacheable answer of the service depends on, besides those a resource
 * adds (Accept where the format is negotiated): Authorization, because a request with invalid
 * credentials is 401 and one with valid credentials is cached differently (max-age=0 or private).
 * Naming it keeps a shared cache from answering a credentialed request with an anonymous entry
 * (RFC 9110 section 12.5.5, RFC 9111 section 4.1).
 */
export const ALWAYS_VARY: readonly string[] = ['Authorization'];

/**
 * The request fields that choose the base URL of links when `trustProxy` is on; a cache in front of
 * the service must key on them, as the body (and the ETag) change with them.
 */
export const FORWARDING_FIELDS: readonly string[] = ['Forwarded', 'X-Forwarded-Proto', 'X-Forwarded-Host', 'X-Forwarded-Prefix'];

/**
 * The Vary value of an answer: the request's own (`base`), the resource's fields, Authorization, the
 * forwarding fields under `trustProxy`, and Api-Version last (service.ts names it on every response;
 * naming it here already spares a rewrite). Worked out once per list of fields and base value.
 */
function varyOf(base: string | undefined, vary: readonly string[], trustProxy: boolean): string | null {
  let byBase = varyValues.get(vary);
  if (!byBase) varyValues.set(vary, (byBase = new Map()));
  const key = trustProxy ? `+${base ?? ''}` : base ?? '';
  let value = byBase.get(key);
  if (value === undefined) {
    let v: string | null = base ?? null;
    for (const field of vary) v = varyWith(v, field);
    for (const field of ALWAYS_VARY) v = varyWith(v, field);
    if (trustProxy) for (const field of FORWARDING_FIELDS) v = varyWith(v, field);
    value = varyWith(v, API_VERSION_HEADER);
    if (byBase.size >= 64) byBase.clear();
    byBase.set(key, value);
  }
  return value;
}

/** By the resource's list of Vary fields (constant arrays: one entry each), then by base value. */
const varyValues = new WeakMap<readonly string[], Map<string, string>>();

/** Cache-Control of a policy, worked out once per policy object (policies are resolved once). */
function cacheControlOf(policy: CachePolicy): string {
  let value = controls.get(policy);
  if (value === undefined) controls.set(policy, (value = cacheControl(policy)));
  return value;
}

const controls = new WeakMap<CachePolicy, string>();


/**
 * The policy that applies to this request: the kind's own, or the credentialed variant
 * (`cache.authorized`) when the request carries Authorization (RFC 9111 section 3.5). Invalid
 * credentials never get here: authentication answered 401 before.
 *
 * @example
 * effectivePolicy(ctx, ctx.config.cache.player).maxAge; // 60, or 0 with Authorization
 */
export function effectivePolicy(ctx: RequestContext, policy: CachePolicy): CachePolicy {
  return ctx.head.headers.has('authorization') ? authorizedPolicy(policy, ctx.config.cache.authorized) : policy;
}

/**
 * The header fields a 200 and its 304 share (RFC 9110 section 15.4.5: a 304 carries the ETag,
 * Cache-Control, Expires, Vary and Date the 200 would have), but for the two that depend on the clock:
 * the request's own response fields (e.g. the API version), Vary (`vary`, Authorization, and the
 * forwarding fields when `trustProxy` is on), the validators and Cache-Control; and the max-age from
 * which Expires = Date + max-age is written for HTTP/1.0 caches (RFC 9111 section 5.3).
 *
 * @example
 * const { fields, maxAge } = sharedFields(ctx, { etag: '"3-abc"' }, ctx.config.cache.player, ['Accept']);
 * fields.get('etag'); // '"3-abc"'
 */
export function sharedFields(ctx: RequestContext, validators: Validators, policy: CachePolicy, vary: readonly string[]): { fields: Fields; maxAge: number } {
  const applied = effectivePolicy(ctx, policy);
  const fields = copyFields(ctx.responseHeaders);
  const varyValue = varyOf(fields.get('vary'), vary, ctx.config.trustProxy !== false);
  if (varyValue !== null) fields.set('vary', varyValue);
  if (validators.etag) fields.set('etag', validators.etag);
  if (validators.lastModified !== undefined) fields.set('last-modified', httpDate(Math.min(validators.lastModified, ctx.config.now())));
  fields.set('cache-control', cacheControlOf(applied));
  return { fields, maxAge: applied.maxAge };
}

/**
 * `sharedFields` with Date and Expires for now: the fields of a cacheable answer made once (a redirect).
 *
 * @example
 * const fields = cachingFields(ctx, {}, ctx.config.cache.player, []);
 */
export function cachingFields(ctx: RequestContext, validators: Validators, policy: CachePolicy, vary: readonly string[]): Fields {
  const { fields, maxAge } = sharedFields(ctx, validators, policy, vary);
  const now = ctx.config.now();
  fields.set('date', httpDate(now));
  fields.set('expires', httpDate(now + maxAge * 1000));
  return fields;
}
