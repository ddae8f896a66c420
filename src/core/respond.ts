// Answers GET/HEAD: validators and caching headers first, 304 before building anything, then the body.
import type { CachedBody } from './body-cache.js';
import { cachingFields } from './cache-headers.js';
import type { CachePolicy } from './cache-policy.js';
import { evaluatePreconditions, type Validators } from './conditional.js';
import type { RequestContext } from './context.js';
import { HttpError } from './problem.js';
import { Reply } from './reply.js';
import type { RenderPlan, Representation } from './representation.js';
import type { Resource } from './resource.js';
import { documentHeaders } from './document-headers.js';

export { appendVary } from './cache-headers.js';

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
 * `render`. HEAD gets the header fields GET would, Content-Length included (section 9.3.2). With a
 * strong ETag, the rendered body is kept in the service's `BodyCache`, so unchanged data is rendered
 * once (a HEAD fills the cache as a GET does).
 *
 * @example
 * return respondConditionally(ctx, { validators: { etag, lastModified }, policy: ctx.config.cache.avatar,
 *   vary: [], render: () => ({ body: avatar.bytes, contentType: 'image/png' }) });
 */
export function respondConditionally(ctx: RequestContext, spec: ConditionalSpec): Reply {
  const fields = cachingFields(ctx, spec.validators, spec.policy, spec.vary);
  const outcome = evaluatePreconditions(ctx.head, spec.validators);
  const slot = ctx.memoSlot;
  const memo = ctx.config.answerMemo;
  if (outcome === 'not-modified') return slot && memo ? memo.record(slot, spec.validators, fields).notModified : new Reply(304, fields, null);
  if (outcome === 'failed') throw new HttpError(412, 'A precondition of the request (If-Match or If-Unmodified-Since) does not hold.');
  const notModified = slot && memo ? new Map(fields) : undefined;
  const rendered = renderedBody(ctx, spec);
  if (rendered.headers) {
    for (const name of Object.keys(rendered.headers)) {
      const key = name.toLowerCase();
      const value = rendered.headers[name]!;
      // The body's own links first, then those of the request (e.g. successor-version): one Link field.
      const current = key === 'link' ? fields.get('link') : undefined;
      fields.set(key, current ? (value ? `${value}, ${current}` : current) : value);
    }
  }
  fields.set('content-type', rendered.contentType);
  if (slot && memo && notModified) {
    const kept = memo.record(slot, spec.validators, notModified, { fields, bytes: rendered.bytes });
    return (ctx.head.method === 'HEAD' ? kept.head : kept.ok)!;
  }
  if (ctx.head.method !== 'HEAD') return new Reply(200, fields, rendered.bytes);
  fields.set('content-length', String(rendered.bytes.byteLength));
  return new Reply(200, fields, null);
}

const encoder = new TextEncoder();

/** The body of a 200: from the cache when its strong ETag was rendered before, else rendered (and kept). */
function renderedBody(ctx: RequestContext, spec: ConditionalSpec): CachedBody {
  const etag = spec.validators.etag;
  // Weak tags (W/"...") promise no byte equality (RFC 9110 section 8.8.1): never cached by them.
  const cache = etag !== undefined && !etag.startsWith('W/') ? ctx.config.bodyCache : undefined;
  // A strong tag is unique among the representations of one resource, not across resources: the key
  // names the target too (path and query, as requested).
  const key = cache ? `${ctx.url.pathname}${ctx.url.search} ${etag}` : '';
  const hit = cache?.get(key);
  if (hit) return hit;
  const rendered = spec.render();
  const body: CachedBody = {
    bytes: typeof rendered.body === 'string' ? encoder.encode(rendered.body) : rendered.body,
    contentType: rendered.contentType,
    headers: rendered.headers,
  };
  cache?.set(key, body);
  return body;
}

/** The negotiated documents vary on Accept (RFC 9110 section 12.5.5); one array, so its Vary value is worked out once. */
const VARY_ACCEPT: readonly string[] = ['Accept'];

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
export function respond(ctx: RequestContext, p: ResponsePlan): Reply {
  return respondConditionally(ctx, {
    validators: p.validators,
    policy: p.policy,
    vary: VARY_ACCEPT,
    render: () => {
      const resource = p.build();
      const headers = documentHeaders(resource);
      const body = p.render ? p.render(resource, p.representation, p.plan) : p.representation.render(resource, p.plan);
      return { body, contentType: p.representation.contentType ?? p.representation.mediaType, headers };
    },
  });
}
