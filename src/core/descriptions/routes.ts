// The description routes: GET /swagger.json, GET /docs.jsonld (the Hydra ApiDocumentation, linked from
// every answer) and GET / (its entry point).
import type { Answer } from '../respond/answer.js';
import type { RequestContext } from '../service/context.js';
import type { Route } from '../service/router.js';
import { respondWithConfigDocument } from './config-document.js';
import { API_DOCUMENTATION_PATH, API_DOCUMENTATION_REL, describeHydra, entryPoint } from './hydra.js';
import { describeService } from './swagger.js';
import { describeOpenApi, type OpenApiVersion } from './openapi.js';

/**
 * Where the OpenAPI 3.1 description is served (and, at OPENAPI_30_PATH, its 3.0 form).
 *
 * @example
 * fetch(`${baseUrl}${OPENAPI_PATH}`);
 */
export const OPENAPI_PATH = '/openapi.json';

/**
 * Where the OpenAPI 3.0 form of the description is served, for gateways that do not read 3.1.
 *
 * @example
 * fetch(`${baseUrl}${OPENAPI_30_PATH}`);
 */
export const OPENAPI_30_PATH = '/openapi-3.0.json';

/** The Hydra documents are JSON-LD whatever Accept says: they describe the API, not an item. */
const JSON_LD = 'application/ld+json';

/**
 * Serves GET/HEAD /swagger.json: host, basePath and schemes from this request's base URL (its version
 * prefix and proxy included), info.version the version served. Built once per base URL and version.
 *
 * @example
 * const doc = await (await service.fetch(new Request('https://api.example.com/swagger.json'))).json();
 */
export async function getSwagger(ctx: RequestContext): Promise<Answer> {
  const version = ctx.apiVersion ?? ctx.config.versioning.latest;
  return respondWithConfigDocument(ctx, 'swagger', 'application/json', () => describeService(ctx.config, { baseUrl: ctx.baseUrl, version, prefix: ctx.versionPrefix ?? '' }));
}

/**
 * Serves GET/HEAD /openapi.json (OpenAPI 3.1) or /openapi-3.0.json (3.0): servers, paths and schemas
 * for this request's base URL and version, built once per base URL and version.
 *
 * @example
 * const doc = await (await service.fetch(new Request('https://api.example.com/openapi.json'))).json();
 * doc.openapi; // '3.1.1'
 */
export function getOpenApi(version: OpenApiVersion): (ctx: RequestContext) => Promise<Answer> {
  return async (ctx) => {
    const apiVersion = ctx.apiVersion ?? ctx.config.versioning.latest;
    return respondWithConfigDocument(ctx, `openapi-${version}`, 'application/json', () => describeOpenApi(ctx.config, { baseUrl: ctx.baseUrl, version: apiVersion, prefix: ctx.versionPrefix ?? '' }, version));
  };
}

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
  return respondWithConfigDocument(ctx, 'entrypoint', JSON_LD, () => entryPoint(ctx.config.api, ctx.baseUrl));
}

/**
 * The routes of the descriptions: the Swagger document, the ApiDocumentation (every answer of the API
 * links to it, Hydra Core section 4.1) and the entry point.
 *
 * @example
 * descriptionRoutes.map((r) => r.path); // ['/swagger.json', '/openapi.json', '/openapi-3.0.json', '/docs.jsonld', '/']
 */
export const descriptionRoutes: readonly Route[] = [
  { path: '/swagger.json', methods: { GET: getSwagger } },
  { path: OPENAPI_PATH, methods: { GET: getOpenApi('3.1') } },
  { path: OPENAPI_30_PATH, methods: { GET: getOpenApi('3.0') } },
  { path: API_DOCUMENTATION_PATH, methods: { GET: getApiDocumentation }, linkedFromEveryAnswer: API_DOCUMENTATION_REL },
  { path: '/', methods: { GET: getEntryPoint } },
];
