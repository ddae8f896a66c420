// Answers GET/HEAD: validators and caching headers first, 304 before building anything, then the body.
import type { CachedBody } from './body-cache.js';
import { cachingFields } from './caching-fields.js';
import type { CachePolicy } from './cache-policy.js';
import { evaluatePreconditions, type Validators } from '../http/conditional.js';
import type { RequestContext } from '../service/context.js';
import type { RequestHead } from '../http/request-head.js';
import { HttpError } from '../http/problem.js';
import { Answer } from './answer.js';
import type { RenderPlan, Representation } from '../model/representation.js';
import type { Resource } from '../model/resource.js';
import { documentHeaders } from './document-headers.js';

export { appendVary } from './caching-fields.js';

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
 * The answers of one selected representation (RFC 9110 section 3.2) to a GET or HEAD: its validators,
 * its 304, and once its body was rendered, its 200 (`ok`; `head` is the 200 to a HEAD, made on demand).
 * One object answers every request for the same representation, so it can be kept (AnswerMemo): its
 * answers are never changed once made.
 *
 * @example
 * const answer = answerSelected(ctx.head, selected); // the 304, the 200, 'failed' (412) or undefined (render first)
 */
export interface SelectedAnswers {
  validators: Validators;
  notModified: Answer;
  ok?: Answer;
  head?: Answer;
}

/**
 * The answer a selected representation gives a GET or HEAD, preconditions evaluated in RFC 9110
 * section 13.2.2 order: its 304 (section 15.4.5), `'failed'` for a 412, its 200 (a HEAD's carries the
 * Content-Length GET would send, section 9.3.2), or undefined when the 200 is due and no body was
 * rendered yet. The one place where a GET's preconditions meet its answers, fresh or kept.
 *
 * @example
 * const answer = answerSelected(ctx.head, selected);
 */
export function answerSelected(request: Pick<RequestHead, 'method' | 'headers'>, selected: SelectedAnswers): Answer | 'failed' | undefined {
  const outcome = evaluatePreconditions(request, selected.validators);
  if (outcome === 'not-modified') return selected.notModified;
  if (outcome === 'failed') return outcome;
  const ok = selected.ok;
  if (!ok || request.method !== 'HEAD') return ok;
  if (!selected.head) {
    const fields = new Map(ok.fields);
    fields.set('content-length', String((ok.body as Uint8Array).byteLength));
    selected.head = new Answer(200, fields, null);
  }
  return selected.head;
}

/**
 * Answers a GET or HEAD of any resource (documents, avatars): preconditions are evaluated on the
 * validators first, so a 304 or a 412 never calls `render`. With a strong ETag, the rendered body is
 * kept in the service's `BodyCache`, so unchanged data is rendered once (a HEAD fills the cache as a GET
 * does). The selected representation is left on the context (`ctx.selected`) for the service to keep.
 *
 * @example
 * return respondConditionally(ctx, { validators: { etag, lastModified }, policy: ctx.config.cache.avatar,
 *   vary: [], render: () => ({ body: avatar.bytes, contentType: 'image/png' }) });
 */
export function respondConditionally(ctx: RequestContext, spec: ConditionalSpec): Answer {
  const fields = cachingFields(ctx, spec.validators, spec.policy, spec.vary);
  const selected: SelectedAnswers = { validators: spec.validators, notModified: new Answer(304, fields, null) };
  ctx.selected = selected;
  let answer = answerSelected(ctx.head, selected);
  if (answer === undefined) {
    const rendered = renderedBody(ctx, spec);
    const okFields = new Map(fields);
    if (rendered.headers) {
      for (const name of Object.keys(rendered.headers)) {
        const key = name.toLowerCase();
        const value = rendered.headers[name]!;
        // The body's own links first, then those of the request (e.g. successor-version): one Link field.
        const current = key === 'link' ? okFields.get('link') : undefined;
        okFields.set(key, current ? (value ? `${value}, ${current}` : current) : value);
      }
    }
    okFields.set('content-type', rendered.contentType);
    selected.ok = new Answer(200, okFields, rendered.bytes);
    answer = answerSelected(ctx.head, selected);
  }
  if (answer === 'failed') throw new HttpError(412, 'A precondition of the request (If-Match or If-Unmodified-Since) does not hold.');
  return answer!;
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
export function respond(ctx: RequestContext, p: ResponsePlan): Answer {
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
