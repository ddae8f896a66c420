// The Swagger 2.0 description of the service, built from its route table, formats, versions and schemas.
import type { Endpoint, ServiceConfig } from '../../core/service/options.js';
import { PLAYER_SCHEMA } from '../schema.js';
import { PROBLEM_SCHEMA } from '../../core/http/problem-schema.js';
import { PROBLEM_MEDIA_TYPE } from '../../core/http/problem.js';
import { MAX_SEARCH_LENGTH } from '../params.js';
import { isRetired, type ApiVersion } from '../../core/service/versioning.js';
import { acceptedBodyTypes, PATCH_MEDIA_TYPES } from '../body.js';
import { OPERATIONS, RESPONSE_HEADERS, type SwaggerOperation } from './operations.js';
import { friendPayloadSchema, toSwaggerSchema, type SchemaObject } from './schemas.js';

/**
 * The title, description and licence of the Player API.
 *
 * @example
 * SWAGGER_INFO.title; // 'Player API'
 */
export const SWAGGER_INFO = {
  title: 'Player API',
  description: 'A simple API for Player resources',
  license: { name: 'Apache 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0.html' },
} as const;

/**
 * Where and how the description is served: the absolute base URL of this response (host, basePath and
 * scheme come from it), the version described, and the route table (default: the service's).
 *
 * @example
 * const target: SwaggerTarget = { baseUrl: 'https://api.example.com/api/v1', version: config.versioning.latest };
 */
export interface SwaggerTarget {
  baseUrl: string;
  version: ApiVersion;
  /** The /api/vN prefix of this response, kept in the backend URI of the gateway extension. */
  prefix?: string;
  /** The endpoints to describe; default: the service's (`config.endpoints`). */
  endpoints?: readonly Endpoint[];
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request: a bad id, page, search text, body, or an unsupported Api-Version',
  401: 'Missing or invalid credentials (WWW-Authenticate names the scheme)',
  403: 'A change the server refuses to make (replacing a friend list in full, relationships in a resource document)',
  404: 'No such player, friend, page or version prefix',
  406: 'None of the media types in Accept is available',
  409: 'The change conflicts with the current state (a duplicate friend, a JSON Patch path that does not exist)',
  412: 'A precondition (If-Match, If-None-Match, If-Unmodified-Since) does not hold; nothing was changed',
  413: 'The body is larger than the limit',
  415: 'The Content-Type is not one the resource reads',
  422: 'A well-formed change whose result breaks the player schema',
  428: 'This service requires If-Match on writes',
  503: 'The store is unreachable; Retry-After says when to try again',
};

function parameters(config: ServiceConfig, now: number): Record<string, SchemaObject> {
  const id = PLAYER_SCHEMA.properties.playerId;
  const player = (name: string, description: string) => ({ name, in: 'path', required: true, type: 'string', pattern: id.pattern, description });
  const header = (name: string, description: string) => ({ name, in: 'header', required: false, type: 'string', description });
  return {
    playerId: player('id', 'Identifier of the player: 1 to 64 characters of A-Z a-z 0-9 . _ ~ -'),
    friendId: player('friendId', 'Identifier of the friend to take off the list'),
    page: { name: 'page', in: 'query', required: false, type: 'integer', minimum: 1, default: 1, description: `1-based page number; ${config.pageSize} players per page` },
    search: { name: 'search', in: 'query', required: true, type: 'string', minLength: 1, maxLength: MAX_SEARCH_LENGTH, description: 'Text to find in alias or display name, case-insensitive' },
    apiVersion: {
      ...header('Api-Version', 'The API version wanted, major.minor (default: the latest at a non-versioned URL)'),
      enum: config.versioning.versions.filter((v) => !isRetired(v, now)).map((v) => v.label),
    },
    ifNoneMatch: header('If-None-Match', 'Entity tags of cached copies (304 when one matches); * on PUT creates only'),
    ifModifiedSince: header('If-Modified-Since', 'HTTP-date of a cached copy (ignored with If-None-Match)'),
    ifMatch: header('If-Match', 'The entity tag the change is based on: a compare-and-set (412 when stale)'),
    ifUnmodifiedSince: header('If-Unmodified-Since', 'HTTP-date the change is based on (ignored with If-Match)'),
    idempotencyKey: header('Idempotency-Key', 'A key that makes a retry answer the first result instead of adding again'),
  };
}

function responses(): Record<string, SchemaObject> {
  const out: Record<string, SchemaObject> = {
    NotModified: {
      description: 'The cached copy is current (RFC 9110 section 15.4.5): no body',
      headers: Object.fromEntries(['Api-Version', 'Vary', 'ETag', 'Last-Modified', 'Cache-Control', 'Expires', 'Date'].map((h) => [h, RESPONSE_HEADERS[h]])),
    },
  };
  for (const [status, description] of Object.entries(STATUS_TEXT)) {
    const headers: Record<string, unknown> = { 'Api-Version': RESPONSE_HEADERS['Api-Version'], 'Cache-Control': { type: 'string', description: 'no-store' } };
    if (status === '401') headers['WWW-Authenticate'] = { type: 'string', description: 'The Bearer challenge (RFC 6750)' };
    if (status === '415') Object.assign(headers, { Accept: { type: 'string', description: 'Body formats accepted' }, 'Accept-Patch': RESPONSE_HEADERS['Accept-Patch'], 'Accept-Post': RESPONSE_HEADERS['Accept-Post'] });
    if (status === '503') headers['Retry-After'] = { type: 'integer', description: 'Seconds to wait' };
    // A format with its own error document (JSON:API) answers in it when negotiated; problem+json otherwise.
    out[`Status${status}`] = { description: `${description} (problem+json, or the negotiated format's own error document)`, schema: { $ref: '#/definitions/Problem' }, headers };
  }
  return out;
}

function definitions(): Record<string, SchemaObject> {
  const player = toSwaggerSchema(PLAYER_SCHEMA as unknown as SchemaObject);
  return {
    Player: player,
    FriendPayload: toSwaggerSchema(friendPayloadSchema(PLAYER_SCHEMA as unknown as SchemaObject)),
    Problem: toSwaggerSchema(PROBLEM_SCHEMA as unknown as SchemaObject),
    Patch: {
      description: `A JSON Patch (${PATCH_MEDIA_TYPES[0]}, an array of operations) or a JSON merge patch (${PATCH_MEDIA_TYPES[1]}, an object), applied to the plain JSON player`,
      example: [{ op: 'test', path: '/alias', value: 'bobby' }, { op: 'replace', path: '/alias', value: 'bob' }],
    },
  };
}

function gatewayIntegration(config: ServiceConfig, prefix: string): SwaggerOperation {
  return {
    [`x-${config.gateway}-integration`]: {
      type: 'http',
      httpMethod: 'GET',
      uri: `${config.backendUrl}${prefix}/player/{id}`,
      responses: { default: { statusCode: '200' } },
      // The gateway forwards the method's {id} into the backend URI's {id}.
      requestParameters: { 'integration.request.path.id': 'method.request.path.id' },
      passthroughBehavior: 'when_no_match',
    },
  };
}

/**
 * The Swagger 2.0 description of a service: every route of the route table with each method it
 * answers (HEAD with GET, OPTIONS everywhere), parameters, consumes/produces from the registered
 * formats, responses and their headers; definitions made from the schemas the service validates with;
 * the gateway extension on GET /player/{id} when `backendUrl` is configured.
 *
 * @example
 * const doc = describeService(service.config, { baseUrl: service.config.baseUrl, version: service.config.versioning.latest });
 * doc.info.version; // '1.0.1'
 */
export function describeService(config: ServiceConfig, target: SwaggerTarget) {
  const now = config.now();
  const url = new URL(target.baseUrl);
  const formatTypes = config.representations.map((r) => r.mediaType);
  const bodyTypes = acceptedBodyTypes(config.representations);
  const linkageFormats = config.representations.filter((r) => r.renderLinkage).map((r) => r.mediaType);
  const patchDocumentTypes = config.representations.filter((r) => r.readBody && r.partialUpdates).flatMap((r) => r.bodyMediaTypes ?? []);
  const linkageBodyTypes = config.representations.filter((r) => r.readLinkage).flatMap((r) => r.bodyMediaTypes ?? []);
  const context = { formats: formatTypes, bodyTypes: bodyTypes.length ? bodyTypes : ['application/json'], linkageFormats, patchDocumentTypes, linkageBodyTypes };
  const paths: Record<string, Record<string, SwaggerOperation>> = {};
  for (const route of target.endpoints ?? config.endpoints) {
    const described = OPERATIONS[route.path];
    const item: Record<string, SwaggerOperation> = {};
    for (const method of route.methods) {
      const describe = described?.[method.toLowerCase()];
      if (describe) item[method.toLowerCase()] = describe(context);
    }
    if (route.path === '/player/{id}' && item.get && config.backendUrl) Object.assign(item.get, gatewayIntegration(config, target.prefix ?? ''));
    paths[route.path] = item;
  }
  return {
    swagger: '2.0' as const,
    info: { ...SWAGGER_INFO, version: target.version.full },
    host: url.host,
    basePath: url.pathname === '' ? '/' : url.pathname,
    schemes: [url.protocol.slice(0, -1)],
    consumes: context.bodyTypes,
    produces: [...formatTypes, PROBLEM_MEDIA_TYPE],
    securityDefinitions: {
      bearer: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Authorization: Bearer <token> (RFC 6750); needed for writes' },
    },
    tags: [
      { name: 'players', description: 'Players' },
      { name: 'friends', description: 'Friend lists and search' },
      { name: 'avatars', description: 'Avatar images' },
      { name: 'description', description: 'This description' },
    ],
    paths,
    parameters: parameters(config, now),
    responses: responses(),
    definitions: definitions(),
  };
}

/**
 * The Swagger 2.0 document `describeService` returns.
 *
 * @example
 * const doc: SwaggerDocument = buildSwagger({ baseUrl: 'https://api.example.com' });
 */
export type SwaggerDocument = ReturnType<typeof describeService>;
