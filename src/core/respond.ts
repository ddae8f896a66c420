// Answers GET/HEAD: validators and caching headers first, 304 before building anything, then the body.
import { cachingFields } from './cache-headers.js';
import type { CachePolicy } from './cache-policy.js';
import { evaluatePreconditions, type Validators } from './conditional.js';
import type { RequestContext } from './context.js';
import { HttpError } from './problem.js';
import { PresetResponse } from './preset-response.js';
import type { RenderPlan, Representation } from './representation.js';
import type { Link, Resource } from './resource.js';

export { appendVary } from './cache-headers.js';

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

/** A rendered body: its bytes or text, its Content-Type, and header fields only a 200 carries. */
export interface RenderedBody {
  body: string | Uint8Array;
  contentType: string;
  headers?: Record<string, string>;
}

/**
 * What `respondConditionally` needs: validators known without rendering, the kind's cache policy,
 * the request fields the answer varies on (besides Authorization, always named), and the renderer,
 * called only when the answer is a 200.
 *
 * @example
 * const spec: ConditionalSpec = { validators: { etag: '"a1"' }, policy: ctx.config.cache.avatar, vary: [],
 *   render: () => ({ body: png, contentType: 'image/png' }) };
 */
export interface ConditionalSpec {
  validators: Validators;
  policy: CachePolicy;
  vary: readonly string[];
  render: () => RenderedBody;
}

/**
 * Answers a GET or HEAD of any resource (documents, avatars): preconditions are evaluated on the
 * validators first, in RFC 9110 section 13.2.2 order, so a 304 (section 15.4.5) or a 412 never calls
 * `render`. HEAD gets the header fields GET would, Content-Length included (section 9.3.2).
 *
 * @example
 * return respondConditionally(ctx, { validators: { etag, lastModified }, policy: ctx.config.cache.avatar,
 *   vary: [], render: () => ({ body: avatar.bytes, contentType: 'image/png' }) });
 */
export function respondConditionally(ctx: RequestContext, spec: ConditionalSpec): Response {
  const fields = cachingFields(ctx, spec.validators, spec.policy, spec.vary);
  const outcome = evaluatePreconditions(ctx.request, spec.validators);
  if (outcome === 'not-modified') return withFields(new Response(null, { status: 304 }), fields);
  if (outcome === 'failed') throw new HttpError(412, 'A precondition of the request (If-Match or If-Unmodified-Since) does not hold.');
  const rendered = spec.render();
  if (rendered.headers) for (const [name, value] of Object.entries(rendered.headers)) fields.set(name.toLowerCase(), value);
  fields.set('content-type', rendered.contentType);
  if (ctx.request.method !== 'HEAD') return new PresetResponse(rendered.body, { status: 200, headers: [...fields] });
  const length = typeof rendered.body === 'string' ? new TextEncoder().encode(rendered.body).byteLength : rendered.body.byteLength;
  fields.set('content-length', String(length));
  return withFields(new Response(null, { status: 200 }), fields);
}

/** Adds the fields to a response built without headers: one Headers filled once, no copy. */
function withFields(response: Response, fields: Map<string, string>): Response {
  for (const [name, value] of fields) response.headers.append(name, value);
  return response;
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
 * Answers a GET or HEAD for a resource document in the negotiated format (`Vary: Accept`). A 304
 * never builds or renders the document.
 *
 * @example
 * return respond(ctx, { representation, plan, validators, policy: ctx.config.cache.player, build: () => doc });
 */
export function respond(ctx: RequestContext, p: ResponsePlan): Response {
  return respondConditionally(ctx, {
    validators: p.validators,
    policy: p.policy,
    vary: ['Accept'],
    render: () => {
      const resource = p.build();
      // RFC 8288 section 3: every format's links are repeated in the header (plain JSON has no other place).
      const headers: Record<string, string> =
        resource.kind === 'player' ? { Link: linkHeader(resource.links) } : { Link: linkHeader(resource.links), 'Total-Count': String(resource.paging.total) };
      const body = p.render ? p.render(resource, p.representation, p.plan) : p.representation.render(resource, p.plan);
      return { body, contentType: p.representation.contentType ?? p.representation.mediaType, headers };
    },
  });
}
