// The Swagger 2.0 operation of each method of each route an API's declarations imply, and the shared
// pieces (parameters, headers, responses by reference) extensions describe their own routes with.
import type { Api, Relation, ResourceType } from '../model/api.js';
import { PATCH_MEDIA_TYPES } from '../resources/body.js';
import { memberParameter } from '../resources/routes.js';
import { PROBLEM_MEDIA_TYPE } from '../http/problem.js';
import { capitalized } from './swagger-schemas.js';
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
const COMMON = ['Api-Version', 'Vary', 'Deprecation', 'Sunset', 'Link'];
const CACHED = [...COMMON, 'ETag', 'Last-Modified', 'Cache-Control', 'Expires', 'Date'];

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

/** The lower-camel-case operation id of words (`remove friend` to `removeFriend`). */
function operationName(words: string): string {
  const upper = capitalized(words).replace(/[ -]/g, '');
  return upper.charAt(0).toLowerCase() + upper.slice(1);
}

function itemOperations(type: ResourceType): Record<string, DescribeOperation> {
  const t = type.title.toLowerCase();
  const T = capitalized(type.name).replace(/-/g, '');
  const tag = type.plural;
  const id = idParameter(type);
  const item = ref('definitions', T);
  const written = (status: string, description: string): SwaggerOperation =>
    marked({ description, schema: item, headers: headers(...COMMON, 'ETag', 'Last-Modified', ...(status === '201' ? ['Location'] : [])) }, { kind: 'item', type });
  const ok = marked({ description: `The ${t}; the plain JSON shape is shown, the other formats carry the same fields under their alternate names`, schema: item, headers: headers(...CACHED) }, { kind: 'item', type });
  return {
    ...readOperations(`A ${t}`, `get${T}`, tag, [id], ok, documentFormats),
    put: (c) => ({
      summary: `Replace a ${t}, or create it at this URL`,
      operationId: `put${T}`,
      tags: [tag],
      security: BEARER,
      consumes: [...c.bodyTypes],
      produces: documentFormats(c),
      parameters: [...params('apiVersion', id, 'ifMatch', 'ifNoneMatch', 'ifUnmodifiedSince'), marked({ name: type.name, in: 'body', required: true, schema: item }, { kind: 'input', type })],
      responses: { '200': written('200', 'Replaced'), '201': written('201', 'Created at this URL'), ...errors(400, 401, 406, 412, 413, 415, 422, 428, 503) },
    }),
    patch: (c) => ({
      summary: `Change a ${t} with a JSON Patch (RFC 6902), a JSON merge patch (RFC 7396), or a JSON:API resource document (the attributes sent)`,
      operationId: `patch${T}`,
      tags: [tag],
      security: BEARER,
      consumes: [...PATCH_MEDIA_TYPES, ...c.patchDocumentTypes],
      produces: documentFormats(c),
      parameters: [...params('apiVersion', id, 'ifMatch', 'ifUnmodifiedSince'), marked({ name: 'patch', in: 'body', required: true, schema: ref('definitions', 'Patch') }, { kind: 'patch', type })],
      responses: { '200': written('200', `The patched ${t}`), ...errors(400, 401, 404, 406, 409, 412, 413, 415, 422, 428, 503) },
    }),
    delete: () => ({
      summary: `Remove a ${t} (and take it off every list that holds it)`,
      operationId: `delete${T}`,
      tags: [tag],
      security: BEARER,
      parameters: params('apiVersion', id, 'ifMatch', 'ifUnmodifiedSince'),
      responses: { '204': { description: 'Removed', headers: headers(...COMMON) }, ...errors(400, 401, 404, 412, 428, 503) },
    }),
    options: optionsOperation(tag, `options${T}`, [id], true),
  };
}

/** POST or DELETE of relationship members (JSON:API "Updating To-Many Relationships"): 204. */
function linkageWrite(c: OperationContext, relation: Relation, summary: string, operationId: string, done: string): SwaggerOperation {
  const identifier = { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string', enum: [relation.target.plural] }, id: { type: 'string' } } };
  const data = relation.kind === 'to-many' ? { type: 'array', items: identifier } : { ...identifier, 'x-nullable': true };
  return {
    summary,
    operationId,
    tags: [relation.kind === 'to-many' ? relation.name : relation.owner.plural],
    security: BEARER,
    consumes: [...c.linkageBodyTypes],
    produces: [...c.linkageFormats, PROBLEM_MEDIA_TYPE],
    parameters: [...params('apiVersion', idParameter(relation.owner), 'ifMatch', 'ifUnmodifiedSince'), { name: 'linkage', in: 'body', required: true, schema: { type: 'object', required: ['data'], properties: { data } } }],
    responses: { '204': { description: done, headers: headers(...COMMON) }, ...errors(400, 401, 404, 409, 412, 415, 422, 428, 503) },
  };
}

function listOperations(relation: Relation): Record<string, Record<string, DescribeOperation>> {
  const { owner, target } = relation;
  const o = owner.title.toLowerCase();
  const t = target.title.toLowerCase();
  const tag = relation.name;
  const R = capitalized(relation.name).replace(/-/g, '');
  const M = capitalized(relation.member).replace(/[ -]/g, '');
  const id = idParameter(owner);
  const member = memberParameter(relation);
  const list = `${owner.path}/${relation.path}`;
  const items = ref('definitions', capitalized(target.name).replace(/-/g, ''));
  const page = (description: string): SwaggerOperation =>
    marked(
      {
        description: `${description}; in the plain JSON format an array of ${target.plural}, paging in Link, the total in Total-Count. Hypermedia formats carry their links in the body.`,
        schema: { type: 'array', items },
        headers: headers(...CACHED, 'Total-Count'),
      },
      { kind: 'page', type: target, relation },
    );
  const paths: Record<string, Record<string, DescribeOperation>> = {};
  const listRead = readOperations(`A page of a ${o}'s ${relation.title.toLowerCase()}`, `list${R}`, tag, [id, 'page'], page(`One page of ${relation.title.toLowerCase()}`), documentFormats);
  const add = relation.add;
  paths[list] = {
    ...listRead,
    ...(add
      ? {
          post: (c: OperationContext) => ({
            summary: `Add a ${relation.member}: ${[
              ...(add.create !== false ? [`a new ${t} from ${add.fields.map((f) => target.field(f)!.term).join(', ')}`] : []),
              ...(add.reference !== false ? [`an existing ${t} by ${target.idField} or @id`] : []),
            ].join(', or ')}`,
            operationId: operationName(`add ${relation.member}`),
            tags: [tag],
            security: BEARER,
            consumes: [...c.bodyTypes],
            produces: documentFormats(c),
            parameters: [
              ...params('apiVersion', id, 'idempotencyKey', 'ifMatch', 'ifUnmodifiedSince'),
              marked({ name: relation.member.replace(/ /g, '-'), in: 'body', required: true, schema: ref('definitions', `${M}Payload`) }, { kind: 'input', type: target, relation }),
            ],
            responses: {
              '201': marked({ description: `The ${relation.member}, added to the list`, schema: items, headers: headers(...COMMON, 'ETag', 'Last-Modified', 'Location') }, { kind: 'item', type: target }),
              ...errors(400, 401, 404, 406, 409, 412, 413, 415, 422, 428, 503),
            },
          }),
        }
      : {}),
    options: optionsOperation(tag, `options${R}`, [id], false, add !== undefined),
  };
  const search = relation.search;
  if (search) {
    const fields = search.fields.map((f) => target.field(f)!.title.toLowerCase()).join(' or ');
    paths[`${list}/search`] = {
      ...readOperations(`${relation.title} whose ${fields} contains the search text`, `search${R}`, tag, [id, 'search', 'page'], page(`One page of matching ${relation.title.toLowerCase()}`), documentFormats),
      options: optionsOperation(tag, `options${R}Search`, [id]),
    };
  }
  paths[`${list}/{${member}}`] = {
    delete: () => ({
      summary: `Take a ${t} off the ${relation.member} list`,
      operationId: operationName(`remove ${relation.member}`),
      tags: [tag],
      security: BEARER,
      parameters: params('apiVersion', id, member, 'ifMatch', 'ifUnmodifiedSince'),
      responses: { '204': { description: 'Removed from the list', headers: headers(...COMMON) }, ...errors(400, 401, 404, 412, 428, 503) },
    }),
    options: optionsOperation(tag, operationName(`options ${relation.member}`), [id, member]),
  };
  return paths;
}

function linkageOperations(relation: Relation): Record<string, DescribeOperation> {
  const R = capitalized(relation.name).replace(/-/g, '');
  const t = relation.target.title.toLowerCase();
  const id = idParameter(relation.owner);
  const tag = relation.kind === 'to-many' ? relation.name : relation.owner.plural;
  const ok = marked(
    { description: `A JSON:API document whose data names the ${relation.kind === 'to-many' ? `${relation.title.toLowerCase()} as resource identifiers` : `${t} as a resource identifier, or null`}`, schema: { type: 'object' }, headers: headers(...CACHED) },
    { kind: 'linkage', relation },
  );
  const read = readOperations(`The JSON:API linkage of a ${relation.owner.title.toLowerCase()}'s ${relation.title.toLowerCase()}`, `get${R}Linkage`, tag, relation.kind === 'to-many' ? [id, 'page'] : [id], ok, (c) => [...c.linkageFormats, PROBLEM_MEDIA_TYPE]);
  if (relation.kind === 'to-one') {
    return {
      ...read,
      patch: (c) => linkageWrite(c, relation, `Set the ${t} the ${relation.title.toLowerCase()} names (a JSON:API resource identifier), or clear it (null)`, `set${R}Linkage`, 'Set'),
      options: optionsOperation(tag, `options${R}Linkage`, [id]),
    };
  }
  return {
    ...read,
    post: (c) => linkageWrite(c, relation, `Add the ${relation.target.plural} named (JSON:API resource identifiers) to the ${relation.member} list; those already there stay once`, `add${R}Linkage`, 'Added'),
    delete: (c) => linkageWrite(c, relation, `Take the ${relation.target.plural} named (JSON:API resource identifiers) off the ${relation.member} list; those not there are ignored`, `remove${R}Linkage`, 'Removed'),
    patch: (c) => ({
      ...linkageWrite(c, relation, `Replace the ${relation.member} list in full: refused (403), as JSON:API allows; POST and DELETE members instead`, `replace${R}Linkage`, 'Never'),
      responses: errors(400, 401, 403, 404, 415, 503),
    }),
    options: optionsOperation(tag, `options${R}Linkage`, [id]),
  };
}

/**
 * The operations of every route an API's declarations imply (see `routesOf`), by route path and
 * lower-case method, and of the description routes.
 *
 * @example
 * apiOperations(playerApi)['/player/{id}']!.get!(context).operationId; // 'getPlayer'
 */
export function apiOperations(api: Api): Record<string, Record<string, DescribeOperation>> {
  const paths: Record<string, Record<string, DescribeOperation>> = {};
  for (const type of api.types) {
    paths[type.path] = itemOperations(type);
    for (const relation of type.relations) if (relation.kind === 'to-many') Object.assign(paths, listOperations(relation));
    for (const relation of type.relations) paths[`${type.path}/relationships/${relation.name}`] = linkageOperations(relation);
  }
  const described = (summary: string, operationId: string, ok: string, produces: string, optionsId: string) => ({
    ...readOperations(summary, operationId, 'description', [], { description: ok, schema: { type: 'object' }, headers: headers(...CACHED) }, () => [produces]),
    options: optionsOperation('description', optionsId, []),
  });
  paths['/swagger.json'] = described('This Swagger 2.0 description', 'getSwagger', 'The description', 'application/json', 'optionsSwagger');
  paths['/openapi.json'] = described('The OpenAPI 3.1 description: a schema per media type', 'getOpenApi', 'The description', 'application/json', 'optionsOpenApi');
  paths['/openapi-3.0.json'] = described('The OpenAPI 3.0 form of the description, for tools that do not read 3.1', 'getOpenApi30', 'The description', 'application/json', 'optionsOpenApi30');
  paths['/docs.jsonld'] = described('The Hydra ApiDocumentation (JSON-LD), linked from every answer', 'getApiDocumentation', 'The supported classes, properties and operations', 'application/ld+json', 'optionsApiDocumentation');
  paths['/'] = described('The entry point the Hydra ApiDocumentation names (JSON-LD)', 'getEntryPoint', `The templates of ${api.types.map((t) => `a ${t.title.toLowerCase()}`).join(' and ')} URL`, 'application/ld+json', 'optionsEntryPoint');
  return paths;
}
