// The per-request context handed to route handlers.
import type { Principal } from './auth.js';
import type { ServiceConfig } from './options.js';
import { HttpError } from './problem.js';
import type { RenderPlan, Representation } from './representation.js';
import type { ResourceKind } from './resource.js';
import type { ApiVersion } from './versioning.js';

/**
 * Everything a route handler needs about one request. `baseUrl` is the absolute base for links in
 * this response (it may differ from the configured one behind a proxy or under a version prefix).
 *
 * @example
 * const handler: RouteHandler = async (ctx) => new Response(ctx.params.id);
 */
export interface RequestContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  config: ServiceConfig;
  baseUrl: string;
  /** Set once a representation was negotiated, so that errors can be rendered in it. */
  representation?: Representation;
  /** Who made the request, when it carried valid credentials. */
  principal?: Principal;
  /** Headers every response of this request carries (added by later stages, e.g. versioning). */
  responseHeaders: Headers;
  /** The API version served (set before routing). */
  apiVersion?: ApiVersion;
  /** The `/api/vN` prefix links of this response keep ('' when none). */
  versionPrefix?: string;
  /**
   * What else, besides the URL, the format and the stored data, shapes the bodies of this request
   * (e.g. the API version served when it is chosen by a header). Part of every ETag, so that two
   * different bodies never share one.
   */
  variant?: string;
}

/** A route handler: one method of one path. */
export type RouteHandler = (ctx: RequestContext) => Promise<Response>;

/**
 * Negotiates the response format for a request (406 with the available types when nothing fits) and
 * asks it to plan the rendering from the query string (400 on bad format parameters).
 *
 * @example
 * const { representation, plan } = selectRepresentation(ctx, 'player');
 */
export function selectRepresentation(ctx: RequestContext, kind: ResourceKind): { representation: Representation; plan: RenderPlan } {
  const representation = ctx.config.negotiate(ctx.request.headers.get('accept'));
  if (!representation) {
    const available = ctx.config.representations.map((r) => r.mediaType);
    throw new HttpError(406, `None of the media types in Accept is available. Available: ${available.join(', ')}.`, {
      extensions: { available },
      headers: { Vary: 'Accept' },
    });
  }
  ctx.representation = representation;
  return { representation, plan: representation.plan?.(ctx.url.searchParams, kind) ?? {} };
}
