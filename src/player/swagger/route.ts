// GET /swagger.json: the Swagger 2.0 description of this service, as this request's version and base URL see it.
import type { Answer } from '../../core/respond/answer.js';
import type { RequestContext } from '../../core/service/context.js';
import type { Route } from '../../core/service/router.js';
import { respondWithConfigDocument } from '../config-document.js';
import { describeService } from './document.js';

export { DESCRIPTION_CACHE_POLICY } from '../config-document.js';

/**
 * Serves GET/HEAD /swagger.json: host, basePath and schemes from this request's base URL (its version
 * prefix and proxy included), info.version the version served. Built once per base URL and version.
 *
 * @example
 * const doc = await (await service.fetch(new Request('https://api.example.com/swagger.json'))).json();
 */
export async function getSwagger(ctx: RequestContext): Promise<Answer> {
  const version = ctx.apiVersion ?? ctx.config.versioning.latest;
  return respondWithConfigDocument(ctx, 'swagger', 'application/json', () =>
    describeService(ctx.config, { baseUrl: ctx.baseUrl, version, prefix: ctx.versionPrefix ?? '' }),
  );
}

/** The route of the Swagger description. */
export const swaggerRoute: Route = { path: '/swagger.json', methods: { GET: getSwagger } };
