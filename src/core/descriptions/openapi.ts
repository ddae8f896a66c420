// The OpenAPI 3.1 and 3.0 descriptions of a service: the operations the Swagger 2.0 description is made of
// (one source), with a schema per media type asked of each format (Representation.describe), request bodies
// per body media type, the versioned servers, and bearer security.
import type { ServiceConfig } from '../service/config.js';
import type { Representation } from '../model/representation.js';
import type { JsonSchema } from '../model/declaration.js';
import type { Field, Relation } from '../model/api.js';
import { documentName, fieldValueSchema, type DescribedDocument } from '../model/document-schemas.js';
import { PROBLEM_SCHEMA } from '../http/problem-schema.js';
import { PROBLEM_MEDIA_TYPE } from '../http/problem.js';
import { PATCH_MEDIA_TYPES } from '../resources/body.js';
import { isRetired } from '../service/versioning.js';
import { describeService, type SwaggerTarget } from './swagger.js';
import { DESCRIBED, type DescribedBody, type Marked } from './swagger-pieces.js';
import { memberPayloadSchema, capitalized, type SchemaObject } from './swagger-schemas.js';
import { toOpenApi30Document } from './openapi-30.js';

/**
 * Which OpenAPI: 3.1 (JSON Schema 2020-12, served at /openapi.json) or 3.0 (its own schema dialect,
 * for gateways that do not read 3.1, at /openapi-3.0.json).
 *
 * @example
 * const dialect: OpenApiVersion = '3.0';
 */
export type OpenApiVersion = '3.1' | '3.0';

/**
 * An OpenAPI document, loosely typed.
 *
 * @example
 * const doc: OpenApiDocument = describeOpenApi(config, target, '3.1');
 * doc.openapi; // '3.1.1'
 */
export type OpenApiDocument = { openapi: string; info: Record<string, unknown>; servers: { url: string; description?: string }[]; paths: Record<string, Record<string, SchemaObject>>; components: Record<string, Record<string, unknown>>; [key: string]: unknown };

type Swagger = ReturnType<typeof describeService>;

/** Swagger 2.0 keywords of a non-body parameter or a header that are its value's schema in OpenAPI 3. */
const VALUE_KEYWORDS = ['type', 'format', 'pattern', 'enum', 'minimum', 'maximum', 'default', 'minLength', 'maxLength', 'items'];

function valueSchema(object: SchemaObject): SchemaObject {
  const schema: SchemaObject = {};
  for (const k of VALUE_KEYWORDS) if (object[k] !== undefined) schema[k] = object[k];
  if (schema.type === 'file') return { type: 'string', format: 'binary' };
  return schema;
}

/** A Swagger `$ref` to its OpenAPI 3 component. */
function componentRef(ref: string): string {
  return ref.replace(/^#\/definitions\//, '#/components/schemas/').replace(/^#\/parameters\//, '#/components/parameters/').replace(/^#\/responses\//, '#/components/responses/');
}

/** A Swagger schema with its references moved to the components; `file` becomes binary. */
function moved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(moved);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === '$ref' && typeof v === 'string' ? componentRef(v) : moved(v);
  if (out.type === 'file') return { type: 'string', format: 'binary' };
  return out;
}

function parameter(p: SchemaObject): SchemaObject {
  if (typeof p.$ref === 'string') return { $ref: componentRef(p.$ref) };
  const out: SchemaObject = { name: p.name, in: p.in, ...(p.required ? { required: true } : {}) };
  if (p.description !== undefined) out.description = p.description;
  out.schema = valueSchema(p);
  return out;
}

function headersOf(headers: unknown): Record<string, SchemaObject> | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const out: Record<string, SchemaObject> = {};
  for (const [name, h] of Object.entries(headers as Record<string, SchemaObject>)) {
    out[name] = { ...(h.description === undefined ? {} : { description: h.description }), schema: valueSchema(h) };
  }
  return out;
}

/** What the document builder keeps while it converts: the formats by media type, and the schemas it names. */
class Builder {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly byMediaType = new Map<string, Representation>();
  readonly byBodyType = new Map<string, Representation>();

  constructor(readonly config: ServiceConfig) {
    for (const r of config.representations) {
      this.byMediaType.set(r.mediaType, r);
      for (const t of r.bodyMediaTypes ?? []) if (!this.byBodyType.has(t)) this.byBodyType.set(t, r);
    }
  }

  /** The schema a format gives for a document, as a reference to the components (named once), or undefined. */
  documentSchema(format: Representation, document: DescribedDocument): SchemaObject | undefined {
    const schema = format.describe?.(document);
    if (schema === undefined) return undefined;
    const name = `${documentName(document)}.${format.name}`;
    this.schemas[name] ??= schema;
    return { $ref: `#/components/schemas/${name}` };
  }

  response(response: SchemaObject & Marked, produces: readonly string[]): SchemaObject {
    if (typeof response.$ref === 'string') return { $ref: componentRef(response.$ref) };
    const out: SchemaObject = { description: response.description };
    const headers = headersOf(response.headers);
    if (headers) out.headers = headers;
    const document = response[DESCRIBED] as Exclude<DescribedDocument, { kind: 'input' | 'error' }> | undefined;
    if (document === undefined && response.schema === undefined) return out;
    const content: Record<string, SchemaObject> = {};
    for (const mediaType of produces) {
      if (mediaType === PROBLEM_MEDIA_TYPE) continue;
      const format = this.byMediaType.get(mediaType);
      if (document !== undefined && format !== undefined) {
        const schema = this.documentSchema(format, document);
        content[mediaType] = schema === undefined ? {} : { schema };
      } else content[mediaType] = { schema: moved(response.schema) as SchemaObject };
    }
    out.content = content;
    return out;
  }

  requestBody(body: SchemaObject & Marked, consumes: readonly string[]): SchemaObject {
    const described = body[DESCRIBED] as DescribedBody | undefined;
    const content: Record<string, SchemaObject> = {};
    for (const mediaType of consumes) {
      let schema: SchemaObject | undefined;
      if (described?.kind === 'patch' && mediaType === PATCH_MEDIA_TYPES[0]) schema = { $ref: '#/components/schemas/JsonPatch' };
      else if (described?.kind === 'patch' && mediaType === PATCH_MEDIA_TYPES[1]) schema = { $ref: `#/components/schemas/${capitalized(described.type.name).replace(/-/g, '')}MergePatch` };
      else if (described !== undefined) {
        const format = this.byBodyType.get(mediaType);
        const relation = described.kind === 'input' ? described.relation : undefined;
        const fields = relation ? inputFields(relation) : described.type.writable;
        if (format) schema = this.documentSchema(format, { kind: 'input', type: described.type, mediaType, fields, ...(relation ? { relation } : {}) });
      }
      content[mediaType] = { schema: schema ?? (moved(body.schema) as SchemaObject) };
    }
    return { ...(body.description === undefined ? {} : { description: body.description }), required: body.required === true, content };
  }
}

/** The fields POST to a list reads: those a new member is made of, and the target's id for an existing one. */
function inputFields(relation: Relation): Field[] {
  const add = relation.add!;
  const target = relation.target;
  const fields = add.create === false ? [] : add.fields.map((n) => target.field(n)!);
  if (add.reference !== false && !fields.some((f) => f.name === target.idField)) fields.push(target.field(target.idField)!);
  return fields;
}

/** The shared error answers: problem+json, or a format's own error document when it is negotiated. */
function sharedResponses(swagger: Swagger, builder: Builder): Record<string, SchemaObject> {
  const out: Record<string, SchemaObject> = {};
  for (const [name, r] of Object.entries(swagger.responses as Record<string, SchemaObject>)) {
    const converted: SchemaObject = { description: r.description };
    const headers = headersOf(r.headers);
    if (headers) converted.headers = headers;
    if (r.schema !== undefined) {
      const content: Record<string, SchemaObject> = { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } };
      for (const format of builder.config.representations) {
        if (!format.renderProblem) continue;
        const schema = builder.documentSchema(format, { kind: 'error' });
        content[format.mediaType] = schema === undefined ? {} : { schema };
      }
      converted.content = content;
    }
    out[name] = converted;
  }
  return out;
}

/** The servers: this base URL first, then the unprefixed one and each major's /api/vN prefix. */
function servers(config: ServiceConfig, target: SwaggerTarget): { url: string; description: string }[] {
  const prefix = target.prefix ?? '';
  const root = prefix && target.baseUrl.endsWith(prefix) ? target.baseUrl.slice(0, -prefix.length) : target.baseUrl;
  const now = config.now();
  const list = [{ url: target.baseUrl, description: `This server${prefix ? `, version ${target.version.label}` : ''}` }];
  if (prefix) list.push({ url: root, description: 'The latest version (Api-Version chooses another)' });
  const majors = [...new Map(config.versioning.versions.filter((v) => !isRetired(v, now)).map((v) => [v.major, v])).values()];
  for (const v of majors) {
    const url = `${root}/api/v${v.major}`;
    if (!list.some((s) => s.url === url)) list.push({ url, description: `Version ${v.major} (its latest minor)` });
  }
  return list;
}

/** The schemas named by the operations: each type's plain item, the list payloads, merge patches, problems, JSON Patch. */
function baseSchemas(config: ServiceConfig, swagger: Swagger): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [name, s] of Object.entries(swagger.definitions as Record<string, SchemaObject>)) out[name] = moved(s) as JsonSchema;
  for (const type of config.api.types) {
    const name = capitalized(type.name).replace(/-/g, '');
    out[name] = type.schema;
    const merge: Record<string, JsonSchema> = {};
    for (const f of type.writable) {
      if (f.name === type.idField) continue;
      const value = fieldValueSchema(f);
      merge[f.name] = f.required ? value : { anyOf: [value, { type: 'null' }] };
    }
    out[`${name}MergePatch`] = { title: `${name}MergePatch`, description: 'RFC 7396: the members given replace the fields of the plain JSON form; null removes an optional one', type: 'object', properties: merge, additionalProperties: false };
    for (const r of type.relations) if (r.add) out[`${capitalized(r.member).replace(/[ -]/g, '')}Payload`] = memberPayloadSchema(r);
  }
  out.Problem = PROBLEM_SCHEMA as unknown as JsonSchema;
  out.JsonPatch = {
    title: 'JsonPatch',
    description: 'RFC 6902: operations applied in order to the plain JSON form of the item, all or none',
    type: 'array',
    items: {
      type: 'object',
      required: ['op', 'path'],
      properties: {
        op: { enum: ['add', 'remove', 'replace', 'move', 'copy', 'test'] },
        path: { type: 'string', description: 'A JSON Pointer (RFC 6901)' },
        from: { type: 'string', description: 'A JSON Pointer, for move and copy' },
        value: { description: 'For add, replace and test' },
      },
    },
  };
  return out;
}

/**
 * The OpenAPI description (3.1, or 3.0 for gateways that do not read 3.1) of a service, from the same
 * operations as its Swagger 2.0 description: every route and method with its parameters, the
 * conditional request headers and their 304, 412 and 428 answers, the paging links; a response schema
 * for each media type it is served in (each format describes its own documents), a request body schema
 * for each media type a write reads (JSON Patch, merge patch, each format's documents, forms); the
 * servers of the versioned URLs (/api/vN) and the Api-Version header; bearer security for writes.
 *
 * @example
 * const doc = describeOpenApi(service.config, { baseUrl: 'https://api.example.com', version: service.config.versioning.latest }, '3.1');
 * doc.paths['/player/{id}'].get.responses['200'].content['application/hal+json'].schema; // { $ref: '#/components/schemas/Player.hal' }
 */
export function describeOpenApi(config: ServiceConfig, target: SwaggerTarget, version: OpenApiVersion): OpenApiDocument {
  const swagger = describeService(config, target);
  const builder = new Builder(config);
  const paths: Record<string, Record<string, SchemaObject>> = {};
  for (const [path, item] of Object.entries(swagger.paths)) {
    const converted: Record<string, SchemaObject> = {};
    for (const [method, op] of Object.entries(item as Record<string, SchemaObject>)) {
      const { produces, consumes, parameters, responses, ...rest } = op as SchemaObject & { produces?: string[]; consumes?: string[]; parameters?: SchemaObject[]; responses?: Record<string, SchemaObject> };
      const out: SchemaObject = { ...rest };
      const body = parameters?.find((p) => p.in === 'body');
      const others = (parameters ?? []).filter((p) => p !== body);
      if (others.length) out.parameters = others.map(parameter);
      if (body) out.requestBody = builder.requestBody(body, consumes ?? swagger.consumes);
      out.responses = Object.fromEntries(Object.entries(responses ?? {}).map(([status, r]) => [status, builder.response(r, produces ?? swagger.produces)]));
      converted[method] = out;
    }
    paths[path] = converted;
  }
  const schemas = baseSchemas(config, swagger);
  const responses = sharedResponses(swagger, builder);
  Object.assign(schemas, builder.schemas);
  const doc: OpenApiDocument = {
    openapi: version === '3.1' ? '3.1.1' : '3.0.4',
    info: { ...swagger.info },
    servers: servers(config, target),
    tags: swagger.tags,
    paths,
    components: {
      schemas,
      parameters: Object.fromEntries(Object.entries(swagger.parameters as Record<string, SchemaObject>).map(([name, p]) => [name, parameter(p)])),
      responses,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <token> (RFC 6750); needed for writes' } },
    },
  };
  if (version === '3.1') doc.jsonSchemaDialect = 'https://spec.openapis.org/oas/3.1/dialect/base';
  return version === '3.1' ? doc : toOpenApi30Document(doc);
}
