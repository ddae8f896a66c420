// The shared pieces of the Swagger 2.0 description: parameters, headers and responses by reference,
// the read and OPTIONS operations, the marks the OpenAPI descriptions read; extensions describe their own routes with them.
import type { Relation, ResourceType } from '../model/api.js';
import { PROBLEM_MEDIA_TYPE } from '../http/problem.js';
import type { DescribedDocument } from '../model/document-schemas.js';

/**
 * The key under which a Swagger response (or body parameter) says which document of the model it
 * carries, for the OpenAPI descriptions to ask each format for its schema. A symbol: JSON.stringify
 * leaves it out of the Swagger 2.0 document, which has one schema per response.
 *
 * @example
 * (op.responses['200'] as Marked)[DESCRIBED]; // { kind: 'item', type: player }
 */
export const DESCRIBED: unique symbol = Symbol('player-hypermedia.described');

/**
 * What a body parameter reads: an item's fields (PUT; with `relation`, POST to its list), or a patch of one.
 *
 * @example
 * const body: DescribedBody = { kind: 'patch', type: player };
 */
export type DescribedBody = { readonly kind: 'input'; readonly type: ResourceType; readonly relation?: Relation } | { readonly kind: 'patch'; readonly type: ResourceType };

/**
 * A Swagger object marked with the document it describes (see `DESCRIBED`).
 *
 * @example
 * const ok: Marked = marked({ description: 'The player' }, { kind: 'item', type: player });
 */
export type Marked = { [DESCRIBED]?: Exclude<DescribedDocument, { kind: 'input' | 'error' }> | DescribedBody };

/**
 * Marks a Swagger response or body parameter with the document it describes.
 *
 * @example
 * marked({ description: 'A page' }, { kind: 'page', type: player, relation: friends });
 */
export function marked<T extends object>(object: T, document: NonNullable<Marked[typeof DESCRIBED]>): T {
  (object as Marked)[DESCRIBED] = document;
  return object;
}

/**
 * What operations depend on: the media types of the registered formats and of the bodies they read.
 *
 * @example
 * const context: OperationContext = { formats: ['application/json'], bodyTypes: ['application/json'], linkageFormats: [], patchDocumentTypes: [], linkageBodyTypes: [] };
 */
export interface OperationContext {
  formats: readonly string[];
  bodyTypes: readonly string[];
  /** The formats that render relationship linkage (`renderLinkage`). */
  linkageFormats: readonly string[];
  /** The media types PATCH reads as partial updates (`partialUpdates`). */
  patchDocumentTypes: readonly string[];
  /** The media types relationship writes read (`readLinkage`). */
  linkageBodyTypes: readonly string[];
}

/**
 * A Swagger 2.0 Operation Object, loosely typed.
 *
 * @example
 * const get: SwaggerOperation = buildSwagger({ baseUrl }).paths['/player/{id}'].get;
 */
export type SwaggerOperation = { [field: string]: unknown };

/**
 * Describes one operation for the Swagger document, from the service's context.
 *
 * @example
 * const describe: DescribeOperation = (c) => ({ summary: 'Get a player', responses: { 200: { description: 'The player' } } });
 */
export type DescribeOperation = (c: OperationContext) => SwaggerOperation;

type Responses = Record<string, unknown>;

/**
 * A reference to one of the document's shared parameters, responses or definitions.
 *
 * @example
 * swaggerRef('responses', 'Status404'); // { $ref: '#/responses/Status404' }
 */
export function swaggerRef(kind: 'parameters' | 'responses' | 'definitions', name: string): { $ref: string } {
  return { $ref: `#/${kind}/${name}` };
}

const ref = swaggerRef;
const params = (...names: string[]) => names.map((n) => ref('parameters', n));
/**
 * The shared error responses of `statuses`, by reference.
 *
 * @example
 * errorResponses(400, 404); // { '400': { $ref: '#/responses/Status400' }, '404': ... }
 */
export function errorResponses(...statuses: number[]): Responses {
  return Object.fromEntries(statuses.map((s) => [String(s), ref('responses', `Status${s}`)]));
}
const errors = errorResponses;

/**
 * The security requirement of writes: a bearer token.
 *
 * @example
 * ({ security: BEARER });
 */
export const BEARER = [{ bearer: [] }];

/** Header names each response kind carries; their Header Objects live in `RESPONSE_HEADERS`. */
/** The response headers of every answer. */
export const COMMON_HEADERS = ['Api-Version', 'Vary', 'Deprecation', 'Sunset', 'Link'];
const COMMON = COMMON_HEADERS;
/** The response headers of an answer that may be cached. */
export const CACHED_HEADERS = [...COMMON, 'ETag', 'Last-Modified', 'Cache-Control', 'Expires', 'Date'];
const CACHED = CACHED_HEADERS;

/**
 * The Header Objects of every response header the service sends.
 *
 * @example
 * RESPONSE_HEADERS.ETag; // { type: 'string', description: '...' }
 */
export const RESPONSE_HEADERS: Readonly<Record<string, SwaggerOperation>> = {
  'Api-Version': { type: 'string', description: 'The API version served, major.minor' },
  Vary: { type: 'string', description: 'Request fields the answer depends on: Accept, Authorization, Api-Version' },
  Deprecation: { type: 'string', description: 'RFC 9745: when the version served was deprecated (@unix-seconds); only on deprecated versions' },
  Sunset: { type: 'string', description: 'RFC 8594: when the deprecated version served stops working (HTTP-date)' },
  Link: { type: 'string', description: 'RFC 8288 links: paging (first, prev, next, last, up) and successor-version on deprecated versions' },
  ETag: { type: 'string', description: 'Strong entity tag of this representation (RFC 9110 section 8.8.3)' },
  'Last-Modified': { type: 'string', description: 'HTTP-date of the last change' },
  'Cache-Control': { type: 'string', description: 'Cache policy of the resource kind (RFC 9111 section 5.2)' },
  Expires: { type: 'string', description: 'Date + max-age, for HTTP/1.0 caches' },
  Date: { type: 'string', description: 'When the answer was made' },
  'Total-Count': { type: 'integer', description: 'Number of items in the whole list' },
  Location: { type: 'string', format: 'uri', description: 'URL of the created or addressed resource' },
  'Content-Length': { type: 'integer', description: 'Length of the body a GET would send' },
  Allow: { type: 'string', description: 'Methods the resource answers (RFC 9110 section 10.2.1)' },
  'Accept-Patch': { type: 'string', description: 'Patch formats PATCH accepts (RFC 5789 section 3.1)' },
  'Accept-Post': { type: 'string', description: 'Body formats POST accepts (W3C LDP section 7.1)' },
};

/**
 * The Header Objects of the headers named.
 *
 * @example
 * responseHeaders('ETag', 'Location');
 */
export function responseHeaders(...names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.map((n) => [n, RESPONSE_HEADERS[n]]));
}
const headers = responseHeaders;

/**
 * The GET and HEAD operations of a readable resource: `extra` names its path and query parameters,
 * `ok` its 200, `produces` its media types; the conditional request headers and their answers are
 * described on both.
 *
 * @example
 * const { get, head } = readOperations('A player', 'getPlayer', 'players', ['playerId'], ok, () => ['application/json']);
 */
export function readOperations(
  summary: string,
  operationId: string,
  tag: string,
  extra: string[],
  ok: SwaggerOperation,
  produces: (c: OperationContext) => string[],
): { get: DescribeOperation; head: DescribeOperation } {
  const parameters = params('apiVersion', ...extra, 'ifNoneMatch', 'ifModifiedSince', 'ifMatch', 'ifUnmodifiedSince');
  const failures = errors(400, 401, 404, 406, 412, 503);
  return {
    get: (c) => ({ summary, operationId, tags: [tag], produces: produces(c), parameters, responses: { '200': ok, '304': ref('responses', 'NotModified'), ...failures } }),
    head: (c) => ({
      summary: `${summary} (header fields only)`,
      operationId: `${operationId}Head`,
      tags: [tag],
      produces: produces(c),
      parameters,
      responses: { '200': { description: 'The header fields GET would send, no body', headers: headers(...CACHED, 'Content-Length') }, '304': ref('responses', 'NotModified'), ...failures },
    }),
  };
}

/**
 * The OPTIONS operation of a resource.
 *
 * @example
 * optionsOperation('players', 'optionsPlayer', ['playerId'], true);
 */
export function optionsOperation(tag: string, operationId: string, pathParams: string[], patch = false, post = false): DescribeOperation {
  return () => ({
    summary: 'The methods this resource answers',
    operationId,
    tags: [tag],
    parameters: params('apiVersion', ...pathParams),
    responses: { '204': { description: 'Allow lists the methods', headers: headers(...COMMON, 'Allow', ...(patch ? ['Accept-Patch'] : []), ...(post ? ['Accept-Post'] : [])) } },
  });
}

/**
 * The media types a document route produces: the registered formats, and problem+json for errors.
 *
 * @example
 * documentFormats(context); // ['application/json', ..., 'application/problem+json']
 */
export function documentFormats(c: OperationContext): string[] {
  return [...c.formats, PROBLEM_MEDIA_TYPE];
}

/**
 * The shared parameter naming a type's id in a path (`playerId`).
 *
 * @example
 * idParameter(player); // 'playerId'
 */
export function idParameter(type: ResourceType): string {
  return `${type.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Id`;
}
