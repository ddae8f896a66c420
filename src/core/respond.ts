// Turns a loaded resource into a response: validators, caching headers, 304, Link header, rendering.
import { cacheControl, type CachePolicy } from './cache-policy.js';
import { evaluatePreconditions, type Validators } from './conditional.js';
import type { RequestContext } from './context.js';
import { HttpError } from './problem.js';
import type { RenderPlan, Representation } from './representation.js';
import type { Link, Resource } from './resource.js';

/**
 * Serializes links as an RFC 8288 Link field value (templated links are left out: they are not URIs).
 *
 * @example
 * linkHeader([{ rel: 'next', href: 'https://x.test/p?page=2' }]); // '<https://x.test/p?page=2>; rel="next"'
 */
export function linkHeader(links: readonly Link[]): string {
  return links
    .filter((l) => !l.templated)
    .map((l) => `<${l.href}>; rel="${l.rel}"`)
    .join(', ');
}

/** What `respond` needs: the chosen format and plan, the validators, the cache policy, and a builder. */
export interface ResponsePlan {
  representation: Representation;
  plan: RenderPlan;
  validators: Validators;
  policy: CachePolicy;
  build: () => Resource;
  /** How to render the built resource; default `representation.render(resource, plan)`. */
  render?: (resource: Resource, representation: Representation, plan: RenderPlan) => string;
}

/**
 * Answers a GET or HEAD for a resource. Preconditions are evaluated on the validators first, so a 304
 * never builds or renders the document (RFC 9110 section 13.2.2; section 15.4.5 for what a 304 carries).
 *
 * @example
 * return respond(ctx, { representation, plan, validators, policy: ctx.config.cache.player, build: () => doc });
 */
export function respond(ctx: RequestContext, p: ResponsePlan): Response {
  const headers = new Headers(ctx.responseHeaders);
  const now = Date.now();
  headers.set('Date', new Date(now).toUTCString());
  appendVary(headers, 'Accept');
  if (p.validators.etag) headers.set('ETag', p.validators.etag);
  if (p.validators.lastModified !== undefined) headers.set('Last-Modified', new Date(p.validators.lastModified).toUTCString());
  headers.set('Cache-Control', cacheControl(p.policy));
  // RFC 9111 section 5.3: Expires for HTTP/1.0 caches, equal to Date + max-age.
  headers.set('Expires', new Date(now + p.policy.maxAge * 1000).toUTCString());

  const outcome = evaluatePreconditions(ctx.request, p.validators);
  if (outcome === 'not-modified') return new Response(null, { status: 304, headers });
  if (outcome === 'failed') throw new HttpError(412, 'A precondition of the request (If-Match or If-Unmodified-Since) does not hold.');

  const resource = p.build();
  // RFC 8288 section 3: every format's links are repeated in the header (plain JSON has no other place).
  headers.set('Link', linkHeader(resource.links));
  if (resource.kind !== 'player') headers.set('Total-Count', String(resource.paging.total));
  const body = p.render ? p.render(resource, p.representation, p.plan) : p.representation.render(resource, p.plan);
  headers.set('Content-Type', p.representation.contentType ?? p.representation.mediaType);
  if (ctx.request.method !== 'HEAD') return new Response(body, { status: 200, headers });
  // RFC 9110 section 9.3.2: HEAD carries the header fields GET would, body length included.
  headers.set('Content-Length', String(new TextEncoder().encode(body).byteLength));
  return new Response(null, { status: 200, headers });
}

/**
 * Adds a field name to Vary unless it is already listed.
 *
 * @example
 * appendVary(headers, 'Accept');
 */
export function appendVary(headers: Headers, field: string): void {
  const current = headers.get('Vary');
  if (!current) return headers.set('Vary', field);
  const names = current.split(',').map((s) => s.trim().toLowerCase());
  if (!names.includes(field.toLowerCase()) && !names.includes('*')) headers.set('Vary', `${current}, ${field}`);
}
