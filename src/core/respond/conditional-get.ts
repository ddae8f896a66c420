// Answers GET/HEAD: validators and caching headers first, 304 before building anything, then the body.
import { renderedBody, type RenderedBody } from '../caches/body-cache.js';
import { sharedFields } from './caching-fields.js';
import type { CachePolicy } from './cache-policy.js';
import { evaluatePreconditions, type Validators } from '../http/conditional.js';
import type { RequestContext } from '../service/context.js';
import { answerOf, type DependencySource, type SelectedAnswers } from './selected.js';
import { HttpError } from '../http/problem.js';
import type { Answer } from './answer.js';
import type { RenderPlan, Representation } from '../model/representation.js';
import type { Resource } from '../model/resource.js';
import { documentFields } from './document-fields.js';
import { tagsValue } from '../service/cache-tags.js';

/**
 * What `respondConditionally` needs: validators known without rendering, the kind's cache policy,
 * the request fields the answer varies on (besides Authorization, always named), the items the
 * answer shows (their keys, `player/alice`), and the renderer, called only when the answer is a 200.
 *
 * @example
 * const spec: ConditionalSpec = { validators: { etag: '"a1"' }, policy: ctx.config.cache.avatar, vary: [],
 *   dependsOn: ['player/alice'], render: () => renderedBody(png, 'image/png') };
 */
export interface ConditionalSpec {
  validators: Validators;
  policy: CachePolicy;
  vary: readonly string[];
  dependsOn: DependencySource;
  /** The items named in the cache-tag header when it differs from `dependsOn` (a search page: shown, plus `search`). */
  tags?: { items: DependencySource; search: boolean };
  render: () => RenderedBody;
}

/**
 * Answers a GET or HEAD of any resource (documents, avatars): preconditions are evaluated on the
 * validators first, so a 304 or a 412 never calls `render`. With a strong ETag, the rendered body is
 * kept in the service's `BodyCache`, so unchanged data is rendered once (a HEAD fills the cache as a GET
 * does). The selected representation is left on the context (`ctx.selected`) for the service to keep.
 *
 * @example
 * return respondConditionally(ctx, { validators: { etag, lastModified }, policy: ctx.config.cache.avatar,
 *   vary: [], render: () => renderedBody(avatar.bytes, 'image/png') });
 */
export function respondConditionally(ctx: RequestContext, spec: ConditionalSpec): Answer {
  const { fields, maxAge } = sharedFields(ctx, spec.validators, spec.policy, spec.vary);
  const tagging = ctx.config.cacheTags;
  if (tagging) {
    const tags = spec.tags ?? (spec.dependsOn === 'all' ? undefined : { items: spec.dependsOn, search: false });
    const items = typeof tags?.items === 'function' ? tags.items() : tags?.items;
    if (tags && items !== 'all') fields.set(tagging.header, tagsValue(items ?? [], tags.search));
  }
  // The dependencies stay as given (a function is called only if the answer is kept: dependenciesOf).
  const selected: SelectedAnswers = { validators: spec.validators, fields, maxAge, dependsOn: spec.dependsOn };
  ctx.selected = selected;
  const now = ctx.config.now();
  // RFC 9110 section 13.2.2: the preconditions first, on the validators alone; evaluated once.
  const outcome = evaluatePreconditions(ctx.head, spec.validators);
  let answer = answerOf(ctx.head, selected, outcome, now);
  if (answer === undefined) {
    const rendered = cachedOrRendered(ctx, spec);
    selected.ok = { contentType: rendered.contentType, fields: rendered.fields, body: rendered.body, size: rendered.size };
    answer = answerOf(ctx.head, selected, outcome, now);
  }
  if (answer === 'failed') throw new HttpError(412, 'A precondition of the request (If-Match or If-Unmodified-Since) does not hold.');
  return answer!;
}

/** The body of a 200: from the cache when its strong ETag was rendered before, else rendered (and kept). */
function cachedOrRendered(ctx: RequestContext, spec: ConditionalSpec): RenderedBody {
  const etag = spec.validators.etag;
  // Weak tags (W/"...") promise no byte equality (RFC 9110 section 8.8.1): never cached by them. An
  // answer the memo may keep is not cached here too: a second copy of its body would cost the garbage
  // collector more than it could save (the memo answers before this cache is asked).
  const cache = etag !== undefined && !etag.startsWith('W/') && !ctx.memoized ? ctx.config.bodyCache : undefined;
  // A strong tag is unique among the representations of one resource, not across resources: the key
  // names the target too (path and query, as requested).
  const key = cache ? `${ctx.target.pathname}${ctx.target.search} ${etag}` : '';
  const hit = cache?.get(key);
  if (hit) return hit;
  const rendered = spec.render();
  cache?.set(key, rendered, ctx.route);
  return rendered;
}

/** The negotiated documents vary on Accept (RFC 9110 section 12.5.5); one array, so its Vary value is worked out once. */
const VARY_ACCEPT: readonly string[] = ['Accept'];

/** What `respond` needs: the chosen format and plan, the validators, the cache policy, the items shown, and a builder. */
export interface ResponsePlan {
  representation: Representation;
  plan: RenderPlan;
  validators: Validators;
  policy: CachePolicy;
  dependsOn: DependencySource;
  /** See `ConditionalSpec.tags`. */
  tags?: ConditionalSpec['tags'];
  build: () => Resource;
  /** How to render the built resource; default `representation.render(resource, plan)`. */
  render?: (resource: Resource, representation: Representation, plan: RenderPlan) => string;
}

/**
 * Answers a GET or HEAD for a resource document in the negotiated format (`Vary: Accept`). A 304
 * never builds or renders the document.
 *
 * @example
 * return respond(ctx, { representation, plan, validators, policy: ctx.config.cache.player, dependsOn: ['player/alice'], build: () => doc });
 */
export function respond(ctx: RequestContext, p: ResponsePlan): Answer {
  return respondConditionally(ctx, {
    validators: p.validators,
    policy: p.policy,
    vary: VARY_ACCEPT,
    dependsOn: p.dependsOn,
    ...(p.tags ? { tags: p.tags } : {}),
    render: () => {
      const resource = p.build();
      const body = p.render ? p.render(resource, p.representation, p.plan) : p.representation.render(resource, p.plan);
      return renderedBody(body, p.representation.contentType ?? p.representation.mediaType, documentFields(resource));
    },
  });
}
