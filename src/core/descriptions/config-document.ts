// Documents made from the configuration alone (the Swagger description, the Hydra ApiDocumentation): built
// once per base URL and version, served with a strong ETag, revalidated with 304s.
import type { Answer } from '../respond/answer.js';
import type { CachePolicy } from '../respond/cache-policy.js';
import type { RequestContext } from '../service/context.js';
import { hashString } from '../respond/etag.js';
import type { ServiceConfig } from '../service/config.js';
import { renderedBody } from '../caches/body-cache.js';
import { respondConditionally } from '../respond/conditional-get.js';

/**
 * They change only with the configuration: caches may keep them five minutes.
 *
 * @example
 * DESCRIPTION_CACHE_POLICY.maxAge; // 300
 */
export const DESCRIPTION_CACHE_POLICY: CachePolicy = { scope: 'public', maxAge: 300 };

interface Rendered {
  body: string;
  etag: string;
  madeAt: number;
}

const CACHE_LIMIT = 64;
const rendered = new WeakMap<ServiceConfig, Map<string, Rendered>>();

/**
 * Answers GET/HEAD of a document `make` builds from the configuration for this request's base URL and
 * version; `name` tells documents apart in the cache and in the ETag.
 *
 * @example
 * return respondWithConfigDocument(ctx, 'swagger', 'application/json', () => describeService(ctx.config, target));
 */
export function respondWithConfigDocument(ctx: RequestContext, name: string, contentType: string, make: () => unknown): Answer {
  const version = ctx.apiVersion ?? ctx.config.versioning.latest;
  const key = `${name}|${ctx.baseUrl}|${version.label}|${ctx.versionPrefix ?? ''}`;
  let byKey = rendered.get(ctx.config);
  if (!byKey) rendered.set(ctx.config, (byKey = new Map()));
  let doc = byKey.get(key);
  if (!doc) {
    const body = JSON.stringify(make());
    doc = { body, etag: `"${name}.${hashString(body)}"`, madeAt: ctx.config.now() };
    if (byKey.size >= CACHE_LIMIT) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, doc);
  }
  const made = doc;
  return respondConditionally(ctx, {
    validators: { etag: made.etag, lastModified: made.madeAt },
    policy: DESCRIPTION_CACHE_POLICY,
    vary: [],
    // It shows no player: only the configuration, which never changes while the service runs.
    dependsOn: [],
    render: () => renderedBody(made.body, contentType),
  });
}
