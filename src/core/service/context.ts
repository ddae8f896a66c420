// The per-request context handed to route handlers.
import type { Answer } from '../respond/answer.js';
import type { Principal } from './credentials.js';
import type { ServiceConfig } from './config.js';
import { HttpError } from '../http/problem.js';
import { createNegotiation, type Negotiation } from '../http/negotiate.js';
import type { RenderPlan, Representation } from '../model/representation.js';
import type { BodySource } from '../http/request-body.js';
import type { RequestHead } from '../http/request-head.js';
import type { ResourceKind } from '../model/resource.js';
import type { ResourceType } from '../model/api.js';
import type { SelectedAnswers } from '../respond/selected.js';
import type { ApiVersion } from './versioning.js';
import type { RequestTarget } from '../http/request-target.js';
import type { Awaitable } from './awaitable.js';
import { keptPlan, planOf } from './render-plans.js';

/**
 * Everything a route handler needs about one request. `baseUrl` is the absolute base for links in
 * this response (it may differ from the configured one behind a proxy or under a version prefix).
 *
 * @example
 * const handler: RouteHandler = async (ctx) => new Answer(200, new Map([['content-type', 'text/plain']]), ctx.params.id!);
 */
export interface RequestContext {
  /** Method, URL and header fields: read these here (an adapter may serve a GET without a `Request`). */
  head: RequestHead;
  /** The standard Request, with its body; built on first use when the adapter gave only a head. */
  readonly request: Request;
  /** What the request's body is read from: the adapter's stream when it gave one, else the Request's. */
  readonly bodySource: BodySource;
  /** The request's URL as a `URL` object (parsed on first use: prefer `target`). */
  readonly url: URL;
  /** The path and query of the request's URL, as `URL` reads them. */
  readonly target: RequestTarget;
  params: Record<string, string>;
  config: ServiceConfig;
  baseUrl: string;
  /** The key (`<type>/<id>`) of the item the route addresses (a list's owner), once its id was checked. */
  item?: string | undefined;
  /** The resource type of the route, once known: its format's errors name its fields (JSON:API pointers). */
  type?: ResourceType | undefined;
  /** Set once a representation was negotiated, so that errors can be rendered in it. */
  representation?: Representation | undefined;
  /** True when the response format was negotiated (or attempted): errors then vary on Accept. */
  negotiated?: boolean;
  /** Who made the request, when it carried valid credentials. */
  principal?: Principal;
  /**
   * Header fields every response of this request carries (added by later stages, e.g. versioning):
   * lower-case names, repeated fields joined with ", " (see `addField`).
   */
  responseHeaders: Map<string, string>;
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
  /** The selected representation a GET or HEAD was answered from (see respondConditionally), for the service to keep. */
  selected?: SelectedAnswers | undefined;
  /**
   * Set by a write that turned out to change nothing (a patch to the values already there, members
   * already listed, an idempotent replay): no cache purge follows it.
   */
  unchanged?: boolean;
  /**
   * True when the answer memo may keep this request's answer (an anonymous GET or HEAD with the memo
   * on): its body then goes to the memo only, not to the body cache too (one copy of each body).
   */
  memoized?: boolean;
  /** The template of the route that answers (e.g. `/player/{id}`): how the caches tell kinds of answers apart. */
  route?: string;
}

/**
 * A route handler: one method of one path. It answers with a complete Answer, or throws an HttpError;
 * at once when it needs no I/O (the service then answers without a turn of the event loop), else as a
 * promise.
 *
 * @example
 * const hello: RouteHandler = (ctx) => new Answer(200, new Map([['content-type', 'text/plain']]), `hello ${ctx.params.id}`);
 */
export type RouteHandler = (ctx: RequestContext) => Awaitable<Answer>;


const subsets = new WeakMap<ServiceConfig, Map<string, { offered: Representation[]; negotiate: Negotiation }>>();

/** A cached negotiation over the formats that have a capability (e.g. `renderLinkage`). */
function negotiationFor(config: ServiceConfig, capability: keyof Representation | undefined) {
  if (!capability) return { offered: config.representations, negotiate: config.negotiate };
  let byCapability = subsets.get(config);
  if (!byCapability) subsets.set(config, (byCapability = new Map()));
  let entry = byCapability.get(capability);
  if (!entry) {
    const offered = config.representations.filter((r) => r[capability] !== undefined);
    entry = { offered, negotiate: createNegotiation(offered) };
    byCapability.set(capability, entry);
  }
  return entry;
}

/**
 * The query parameter that names the format of the answer in its URL, instead of Accept
 * (`/player/alice?mediaType=application/hal+json`): what the HTML pages link each resource's raw
 * representations with. Not all lower case, so JSON:API (which reserves such names) allows it.
 *
 * @example
 * new URL(`${itemUrl}?${MEDIA_TYPE_PARAMETER}=application%2Fhal%2Bjson`);
 */
export const MEDIA_TYPE_PARAMETER = 'mediaType';

/**
 * Negotiates the response format for a request (406 with the available types when nothing fits) and
 * asks it to plan the rendering from the query string (400 on bad format parameters). With
 * `capability`, only the formats implementing that member of Representation are offered.
 *
 * @example
 * const { representation, plan } = selectRepresentation(ctx, 'item', api.type('player'));
 */
export function selectRepresentation(
  ctx: RequestContext,
  kind: ResourceKind,
  type: ResourceType,
  capability?: keyof Representation,
): { representation: Representation; plan: RenderPlan } {
  ctx.type = type;
  const { offered, negotiate } = negotiationFor(ctx.config, capability);
  ctx.negotiated = true;
  const target = ctx.target;
  // `?mediaType=` names the format in the URL (a link to a raw representation): it stands for Accept,
  // and the format's own query parameters are read without it.
  // Only a query holding the name, or percent-encoding that may spell it, is parsed for it.
  const search = target.search;
  const named = search === '' || (!search.includes(MEDIA_TYPE_PARAMETER) && !search.includes('%')) ? null : target.searchParams.get(MEDIA_TYPE_PARAMETER);
  const representation = named === null ? negotiate(ctx.head.headers.get('accept')) : offered.find((r) => r.mediaType === named.trim().toLowerCase());
  if (!representation) {
    const available = offered.map((r) => r.mediaType);
    // RFC 9110 section 15.5.7: 406; the problem document itself is never negotiated (errorResponse).
    ctx.representation = undefined;
    const what = named === null ? 'None of the media types in Accept is' : `The ${MEDIA_TYPE_PARAMETER} parameter names no format`;
    throw new HttpError(406, `${what} available here. Available: ${available.join(', ')}.`, {
      extensions: { available },
      headers: { Vary: 'Accept' },
    });
  }
  ctx.representation = representation;
  if (named !== null) {
    // Planned without it, and not kept: such a query is rare, and not the URL's own.
    const query = new URLSearchParams(target.searchParams);
    query.delete(MEDIA_TYPE_PARAMETER);
    return { representation, plan: planOf(representation, offered, query, kind, type) };
  }
  return { representation, plan: keptPlan(representation, offered, kind, type, target) };
}
