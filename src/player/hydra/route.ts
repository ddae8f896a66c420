// GET /docs.jsonld (the Hydra ApiDocumentation, linked from every answer) and GET / (its entry point).
import type { Answer } from '../../core/respond/answer.js';
import type { RequestContext } from '../../core/service/context.js';
import type { Route } from '../../core/service/router.js';
import { respondWithConfigDocument } from '../config-document.js';
import { API_DOCUMENTATION_PATH, API_DOCUMENTATION_REL, describeHydra, entryPoint } from './api-documentation.js';

/** Both are JSON-LD documents whatever Accept says: they describe the API, not a player. */
const JSON_LD = 'application/ld+json';

/**
 * Serves GET/HEAD {base}/docs.jsonld: the Hydra ApiDocumentation for this request's base URL.
 *
 * @example
 * const doc = await (await service.fetch(new Request('https://api.example.com/docs.jsonld'))).json();
 * doc['@type']; // 'hydra:ApiDocumentation'
 */
export async function getApiDocumentation(ctx: RequestContext): Promise<Answer> {
  return respondWithConfigDocument(ctx, 'hydra', JSON_LD, () => describeHydra(ctx.config, ctx.baseUrl));
}

/**
 * Serves GET/HEAD {base}/: the entry point the ApiDocumentation names.
 *
 * @example
 * const start = await (await service.fetch(new Request('https://api.example.com/'))).json();
 */
export async function getEntryPoint(ctx: RequestContext): Promise<Answer> {
  return respondWithConfigDocument(ctx, 'entrypoint', JSON_LD, () => entryPoint(ctx.baseUrl));
}

/** The ApiDocumentation's route; every answer of the API links to it (Hydra Core section 4.1). */
export const apiDocumentationRoute: Route = { path: API_DOCUMENTATION_PATH, methods: { GET: getApiDocumentation }, linkedFromEveryAnswer: API_DOCUMENTATION_REL };

/** The entry point's route. */
export const entryPointRoute: Route = { path: '/', methods: { GET: getEntryPoint } };
