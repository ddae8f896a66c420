// The Swagger 2.0 description of a service, made from its API's declarations, route table, formats and versions.
import type { Endpoint } from '../service/options.js';
import type { ServiceConfig } from '../service/config.js';
import { PROBLEM_SCHEMA } from '../http/problem-schema.js';
import { PROBLEM_MEDIA_TYPE } from '../http/problem.js';
import { MAX_SEARCH_LENGTH } from '../resources/params.js';
import { memberParameter } from '../resources/routes.js';
import { isRetired, type ApiVersion } from '../service/versioning.js';
import { acceptedBodyTypes, PATCH_MEDIA_TYPES } from '../resources/body.js';
import { apiOperations } from './swagger-operations.js';
import { idParameter, RESPONSE_HEADERS, type OperationContext, type SwaggerOperation } from './swagger-pieces.js';
import { capitalized, memberPayloadSchema, toSwaggerSchema, type SchemaObject } from './swagger-schemas.js';

export type { DescribeOperation, OperationContext, SwaggerOperation } from './swagger-pieces.js';

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
  /** The /api/vN prefix of this response (a gateway's backend URI keeps it). */
  prefix?: string;
  /** The endpoints to describe; default: the service's (`config.endpoints`). */
  endpoints?: readonly Endpoint[];
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request: a bad id, page, search text, body, or an unsupported Api-Version',
  401: 'Missing or invalid credentials (WWW-Authenticate names the scheme)',
  403: 'A change the server refuses to make (replacing a list in full, lists in a resource document)',
  404: 'No such item, list member, page or version prefix',
  406: 'None of the media types in Accept is available',
  409: 'The change conflicts with the current state (a member already listed, a JSON Patch path that does not exist)',
  412: 'A precondition (If-Match, If-None-Match, If-Unmodified-Since) does not hold; nothing was changed',
  413: 'The body is larger than the limit',
  415: 'The Content-Type is not one the resource reads',
  422: "A well-formed change whose result breaks the type's schema",
  428: 'This service requires If-Match on writes',
  503: 'The store is unreachable; Retry-After says when to try again',
};

function parameters(config: ServiceConfig, now: number): Record<string, SchemaObject> {
  const header = (name: string, description: string) => ({ name, in: 'header', required: false, type: 'string', description });
  const out: Record<string, SchemaObject> = {};
  for (const type of config.api.types) {
    const id = type.field(type.idField)!;
    const pattern = (id.schema as { pattern?: string }).pattern;
    const path = (name: string, description: string) => ({ name, in: 'path', required: true, type: 'string', ...(pattern === undefined ? {} : { pattern }), description });
    const rule = id.invalid === undefined ? '' : `: ${id.invalid.replace(/^must be /, '')}`;
    out[idParameter(type)] = path('id', `Identifier of the ${type.title.toLowerCase()}${rule}`);
    for (const r of type.relations) {
      if (r.kind === 'to-many') out[memberParameter(r)] = { ...path(memberParameter(r), `Identifier of the ${r.member} to take off the list`), ...patternOf(r.target) };
    }
  }
  const searched = config.api.types.flatMap((t) => t.relations.flatMap((r) => (r.search ? r.search.fields.map((f) => r.target.field(f)!.title.toLowerCase()) : [])));
  Object.assign(out, {
    page: { name: 'page', in: 'query', required: false, type: 'integer', minimum: 1, default: 1, description: `1-based page number; ${config.pageSize} items per page` },
    search: {
      name: 'search',
      in: 'query',
      required: otherSearchNames(config).length === 0,
      type: 'string',
      minLength: 1,
      maxLength: MAX_SEARCH_LENGTH,
      description: `Text to find in ${[...new Set(searched)].join(' or ') || 'the searched fields'}, case-insensitive${otherSearchNames(config).map(([name, title]) => `; ${title} reads it as ${name} instead`).join('')}`,
    },
    ...Object.fromEntries(
      otherSearchNames(config).map(([name, title]) => [
        searchParameterKey(name),
        { name, in: 'query', required: false, type: 'string', minLength: 1, maxLength: MAX_SEARCH_LENGTH, description: `The search text, as ${title} names it (its formats reserve lower-case names)` },
      ]),
    ),
    apiVersion: {
      ...header('Api-Version', 'The API version wanted, major.minor (default: the latest at a non-versioned URL)'),
      enum: config.versioning.versions.filter((v) => !isRetired(v, now)).map((v) => v.label),
    },
    ifNoneMatch: header('If-None-Match', 'Entity tags of cached copies (304 when one matches); * on PUT creates only'),
    ifModifiedSince: header('If-Modified-Since', 'HTTP-date of a cached copy (ignored with If-None-Match)'),
    ifMatch: header('If-Match', 'The entity tag the change is based on: a compare-and-set (412 when stale)'),
    ifUnmodifiedSince: header('If-Unmodified-Since', 'HTTP-date the change is based on (ignored with If-Match)'),
    idempotencyKey: header('Idempotency-Key', 'A key that makes a retry answer the first result instead of adding again'),
  });
  return out;
}

/** The search parameters formats name otherwise than `search` (JSON:API's `filter[search]`), with the format's title. */
function otherSearchNames(config: ServiceConfig): [string, string][] {
  const names = new Map<string, string>();
  for (const r of config.representations) if (r.searchParameter !== undefined && r.searchParameter !== 'search' && !names.has(r.searchParameter)) names.set(r.searchParameter, r.title ?? r.name);
  return [...names];
}

/** The key of a shared search parameter named otherwise (`filter[search]` to `search_filter`). */
function searchParameterKey(name: string): string {
  return `search_${name.replace(/[^A-Za-z0-9]+/g, '_').replace(/_+$/, '')}`;
}

function patternOf(type: ServiceConfig['api']['types'][number]): SchemaObject {
  const pattern = (type.field(type.idField)!.schema as { pattern?: string }).pattern;
  return pattern === undefined ? {} : { pattern };
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

function definitions(config: ServiceConfig): Record<string, SchemaObject> {
  const out: Record<string, SchemaObject> = {};
  for (const type of config.api.types) out[capitalized(type.name).replace(/-/g, '')] = toSwaggerSchema(type.schema as SchemaObject);
  for (const type of config.api.types) {
    for (const r of type.relations) if (r.add) out[`${capitalized(r.member).replace(/[ -]/g, '')}Payload`] = toSwaggerSchema(memberPayloadSchema(r));
  }
  const example = config.api.types[0]!.writable.find((f) => f.name !== config.api.types[0]!.idField && (f.schema as { type?: unknown }).type === 'string');
  return {
    ...out,
    Problem: toSwaggerSchema(PROBLEM_SCHEMA as unknown as SchemaObject),
    Patch: {
      description: `A JSON Patch (${PATCH_MEDIA_TYPES[0]}, an array of operations) or a JSON merge patch (${PATCH_MEDIA_TYPES[1]}, an object), applied to the plain JSON form of the item`,
      ...(example ? { example: [{ op: 'test', path: `/${example.name}`, value: 'old' }, { op: 'replace', path: `/${example.name}`, value: 'new' }] } : {}),
    },
  };
}

/**
 * The Swagger 2.0 description of a service: every route of the route table with each method it
 * answers (HEAD with GET, OPTIONS everywhere), parameters, consumes/produces from the registered
 * formats, responses and their headers; definitions made from the type schemas the service validates
 * with; the extensions' operations and their last changes (the Player API's gateway integration).
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
  const context: OperationContext = { formats: formatTypes, bodyTypes: bodyTypes.length ? bodyTypes : ['application/json'], linkageFormats, patchDocumentTypes, linkageBodyTypes };
  const operations = describedOperations(config);
  const paths: Record<string, Record<string, SwaggerOperation>> = {};
  for (const route of target.endpoints ?? config.endpoints) {
    const described = operations[route.path];
    const item: Record<string, SwaggerOperation> = {};
    for (const method of route.methods) {
      const describe = described?.[method.toLowerCase()];
      if (describe) item[method.toLowerCase()] = describe(context);
    }
    paths[route.path] = item;
  }
  // Reads need no credentials and take them (an answer may depend on them): anonymous, or bearer.
  for (const item of Object.values(paths)) for (const op of Object.values(item)) op.security ??= [{}, { bearer: [] }];
  // A search operation takes the search text under every name a format reads it by.
  const others = otherSearchNames(config).map(([name]) => ({ $ref: `#/parameters/${searchParameterKey(name)}` }));
  if (others.length) {
    for (const item of Object.values(paths)) {
      for (const op of Object.values(item)) {
        const list = op.parameters as { $ref?: string }[] | undefined;
        const at = list?.findIndex((p) => p.$ref === '#/parameters/search') ?? -1;
        // A new array: operations share their parameter lists.
        if (at >= 0) op.parameters = [...list!.slice(0, at + 1), ...others, ...list!.slice(at + 1)];
      }
    }
  }
  const api = config.api;
  const tags = [
    ...api.types.map((t) => ({ name: t.plural, description: capitalized(t.plural) })),
    ...api.types.flatMap((t) => t.relations.filter((r) => r.kind === 'to-many').map((r) => ({ name: r.name, description: `${capitalized(r.member)} lists${r.search ? ' and search' : ''}` }))),
    ...config.describe.flatMap((d) => d.tags ?? []),
    { name: 'description', description: 'This description' },
  ];
  const info: { title: string; description?: string; license?: { name: string; url?: string }; version: string } = { title: api.title, version: target.version.full };
  if (api.description !== undefined) info.description = api.description;
  if (api.license !== undefined) info.license = { ...api.license };
  const doc = {
    swagger: '2.0' as const,
    info: { title: info.title, ...(info.description === undefined ? {} : { description: info.description }), ...(info.license === undefined ? {} : { license: info.license }), version: info.version },
    host: url.host,
    basePath: url.pathname === '' ? '/' : url.pathname,
    schemes: [url.protocol.slice(0, -1)],
    consumes: context.bodyTypes,
    produces: [...formatTypes, PROBLEM_MEDIA_TYPE],
    securityDefinitions: {
      bearer: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Authorization: Bearer <token> (RFC 6750); needed for writes' },
    },
    tags: [...new Map(tags.map((t) => [t.name, t])).values()],
    paths,
    parameters: parameters(config, now),
    responses: responses(),
    definitions: definitions(config),
  };
  for (const d of config.describe) d.finish?.(doc, target);
  return doc;
}

const operationsOf = new WeakMap<ServiceConfig, ReturnType<typeof apiOperations>>();

/** The operations of the API's routes and of the extensions' routes, worked out once per service. */
function describedOperations(config: ServiceConfig): ReturnType<typeof apiOperations> {
  let found = operationsOf.get(config);
  if (found === undefined) {
    found = apiOperations(config.api);
    for (const d of config.describe) Object.assign(found, d.operations);
    operationsOf.set(config, found);
  }
  return found;
}

/**
 * The operations described for a service (the API's and its extensions'), by route path and method.
 *
 * @example
 * operationsOfService(config)['/player/{id}']?.get?.(context).summary; // 'A player'
 */
export const operationsOfService = describedOperations;

/**
 * The Swagger 2.0 document `describeService` returns.
 *
 * @example
 * const doc: SwaggerDocument = buildSwagger({ baseUrl: 'https://api.example.com' });
 */
export type SwaggerDocument = ReturnType<typeof describeService>;
