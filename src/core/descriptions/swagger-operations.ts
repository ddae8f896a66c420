// The Swagger 2.0 operation of each method of each route an API's declarations imply (the shared pieces
// they are made of: swagger-pieces.ts).
import type { Api, Relation, ResourceType } from '../model/api.js';
import { PATCH_MEDIA_TYPES } from '../resources/body.js';
import { memberParameter } from '../resources/routes.js';
import { PROBLEM_MEDIA_TYPE } from '../http/problem.js';
import { capitalized } from './swagger-schemas.js';
import {
  BEARER,
  CACHED_HEADERS as CACHED,
  COMMON_HEADERS as COMMON,
  documentFormats,
  errorResponses as errors,
  idParameter,
  marked,
  optionsOperation,
  readOperations,
  responseHeaders as headers,
  swaggerRef as ref,
  type DescribeOperation,
  type OperationContext,
  type SwaggerOperation,
} from './swagger-pieces.js';

const params = (...names: string[]) => names.map((n) => ref('parameters', n));

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
