// GET /swagger.json: the Swagger 2.0 description of this service, as this request's version and base URL see it.
import type { Answer } from '../../respond/answer.js';
import type { CachePolicy } from '../../respond/cache-policy.js';
import type { RequestContext } from '../../service/context.js';
import { hashString } from '../../respond/etag.js';
import type { ServiceConfig } from '../../service/options.js';
import { renderedBody } from '../../respond/body-cache.js';
import { respondConditionally } from '../../respond/conditional-get.js';
import type { Route } from '../../service/router.js';
import { describeService } from './document.js';

/**
 * The description changes only with the configuration: caches may keep it five minutes.
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

function describe(ctx: RequestContext): Rendered {
  const version = ctx.apiVersion ?? ctx.config.versioning.latest;
  const prefix = ctx.versionPrefix ?? '';
  const key = `${ctx.baseUrl}|${version.label}|${prefix}`;
  let byKey = rendered.get(ctx.config);
  if (!byKey) rendered.set(ctx.config, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  const body = JSON.stringify(describeService(ctx.config, { baseUrl: ctx.baseUrl, version, prefix }));
  const made: Rendered = { body, etag: `"swagger.${hashString(body)}"`, madeAt: ctx.config.now() };
  if (byKey.size >= CACHE_LIMIT) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, made);
  return made;
}

/**
 * Serves GET/HEAD /swagger.json: host, basePath and schemes from this request's base URL (its version
 * prefix and proxy included), info.version the version served. Built once per base URL and version.
 *
 * @example
 * const doc = await (await service.fetch(new Request('https://api.example.com/swagger.json'))).json();
 */
export async function getSwagger(ctx: RequestContext): Promise<Answer> {
  const doc = describe(ctx);
  return respondConditionally(ctx, {
    validators: { etag: doc.etag, lastModified: doc.madeAt },
    policy: DESCRIPTION_CACHE_POLICY,
    vary: [],
    // It shows no player: only the configuration, which never changes while the service runs.
    dependsOn: [],
    render: () => renderedBody(doc.body, 'application/json'),
  });
}

/** The route of the Swagger description. */
export const swaggerRoute: Route = { path: '/swagger.json', methods: { GET: getSwagger } };
