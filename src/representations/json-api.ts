// JSON:API (application/vnd.api+json): resource objects of each type, compound documents, sparse fieldsets.
import { HttpError, type ProblemDetails } from '../core/http/problem.js';
import { flat, jsonString, jsonUri, uriChars, withUris } from '../core/json/text.js';
import type { ItemInput, RenderPlan, Representation } from '../core/model/representation.js';
import type { Field, Relation, ResourceType } from '../core/model/api.js';
import { findLink, type Item, type Page, type Resource, type ResourceKind } from '../core/model/resource.js';
import { linkageUrl, listUrl } from '../core/model/urls.js';
import { inputFromTerms, pointerToken } from './term-input.js';
import { FieldWriter } from './field-text.js';
import { fieldJson } from './term-fields.js';
import { arrayOf, HREF_SCHEMA, inputMembers, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';
import type { JsonSchema } from '../core/model/declaration.js';

/**
 * The media type of JSON:API (https://jsonapi.org/format/1.0/).
 *
 * @example
 * fetch(url, { headers: { Accept: JSON_API_MEDIA_TYPE } });
 */
export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

const VERSION = '{"version":"1.0"}';

/**
 * What a type's resource objects share, written once per type: its attributes (its readable fields but
 * the id and those a to-one relation holds, by term, in term order) each with its member name as text,
 * its fields in sparse-fieldset order, and the fixed text around an object's type and each
 * relationship's name.
 */
interface TypeFields {
  attributes: readonly { field: Field; key: string }[];
  /** Every field name of a sparse fieldset: the attributes' terms, then the relations. */
  names: readonly string[];
  /** `{"type":"<plural>","id":` */
  head: string;
  /** `"<relation>":` per relation. */
  relationKeys: ReadonlyMap<Relation, string>;
  /** The attributes written as JSON members. */
  writer: FieldWriter;
  /**
   * When every relation is to-many: the fixed text of the rest of a resource object without linkage
   * or sparse fields, between the occurrences of its URL (`,"relationships":{"members":{"links":{"self":"`,
   * URL, `/relationships/members","related":"`, URL, ...). Undefined otherwise.
   */
  tail: readonly string[] | undefined;
}

const typeFields = new WeakMap<ResourceType, TypeFields>();

function fieldsOf(type: ResourceType): TypeFields {
  let found = typeFields.get(type);
  if (found === undefined) {
    const held = new Set(type.relations.flatMap((r) => (r.field === undefined ? [] : [r.field])));
    const attributes = type.termOrder.filter((f) => f.name !== type.idField && !held.has(f.name));
    found = {
      attributes: attributes.map((field) => ({ field, key: flat(`,${jsonString(field.term)}:`) })),
      names: [...attributes.map((f) => f.term), ...type.relations.map((r) => r.name)],
      head: flat(`{"type":${jsonString(type.plural)},"id":`),
      relationKeys: new Map(type.relations.map((r) => [r, flat(`${jsonString(r.name)}:`)])),
      writer: new FieldWriter(attributes, { before: (f, quote) => `${jsonString(f.term)}:${quote}`, after: (_f, quote) => quote }),
      tail: tailOf(type),
    };
    typeFields.set(type, found);
  }
  return found;
}

/** See `TypeFields.tail`. */
function tailOf(type: ResourceType): readonly string[] | undefined {
  if (type.relations.some((r) => r.kind !== 'to-many')) return undefined;
  const pieces: string[] = [];
  let text = type.relations.length ? ',"relationships":{' : '';
  type.relations.forEach((r, i) => {
    pieces.push(`${text}${i ? ',' : ''}${jsonString(r.name)}:{"links":{"self":"`);
    pieces.push(`/relationships/${r.name}","related":"`);
    text = `/${r.path}"}}`;
  });
  pieces.push(`${text}${type.relations.length ? '}' : ''},"links":{"self":"`);
  pieces.push('"}}');
  return pieces.map(flat);
}

/** What `plan` decided from the query: the sparse fieldset of each type (absent: all) and the relations to include. */
interface JsonApiOptions {
  fields: ReadonlyMap<string, ReadonlySet<string>>;
  include: ReadonlySet<string>;
}

const ALL: JsonApiOptions = { fields: new Map(), include: new Set() };

function badParameter(parameter: string, detail: string): HttpError {
  return new HttpError(400, detail, { errors: [{ parameter, detail }] });
}

/** `"a"` or `"a", "b"`: names for a message, quoted. */
function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/** The JSON:API spelling of the search text: a member of the reserved `filter` family. */
const SEARCH_PARAMETER = 'filter[search]';

/** JSON:API 1.0 section "Fetching Data": fields[TYPE], include, sort, and the query parameter rules. */
function planQuery(query: URLSearchParams, kind: ResourceKind, type: ResourceType): RenderPlan {
  const api = type.api;
  const fields = new Map<string, Set<string>>();
  let include: string[] = [];
  let variant = '';
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    if (key.startsWith('fields[')) {
      const named = key.slice('fields['.length, -1);
      const target = key.endsWith(']') ? api.typeByPlural(named) : undefined;
      if (!target) {
        const types = api.types.map((t) => t.plural);
        throw badParameter(key, `Unknown resource type in ${key}; ${types.length === 1 ? `the only type is "${types[0]}"` : `the types are ${quoted(types)}`}.`);
      }
      if (values.length > 1) throw badParameter(key, `${key} must be given once.`);
      const known = fieldsOf(target).names;
      const set = new Set(values[0]!.split(',').filter((f) => f !== ''));
      for (const f of set) if (!known.includes(f)) throw badParameter(key, `Unknown field "${f}" of ${target.plural}; known: ${known.join(', ')}.`);
      fields.set(target.plural, set);
      variant += `fields${target === type ? '' : `[${target.plural}]`}=${known.filter((f) => set.has(f)).join(',')};`;
    } else if (key === 'include') {
      const paths = values.join(',').split(',').filter((p) => p !== '');
      const known = type.relations.map((r) => r.name);
      for (const p of paths) {
        if (!known.includes(p)) throw badParameter('include', `Unknown include path "${p}"; ${known.length === 1 ? `the only one is "${known[0]}"` : known.length ? `the paths are ${quoted(known)}` : 'there is none'}.`);
      }
      // Section "Inclusion of Related Resources": a path the server cannot include is 400.
      if (paths.length && kind !== 'item') throw badParameter('include', `include=${paths.join(',')} is served on a ${type.title.toLowerCase()}, not on a list.`);
      include = known.filter((r) => paths.includes(r));
      if (include.length) variant += `include=${include.join(',')};`;
    } else if (key === 'sort') {
      throw badParameter('sort', 'Sorting is not supported: lists are in the order their members were added.');
    } else if (key.startsWith('filter[') && key !== SEARCH_PARAMETER) {
      throw badParameter(key, `Unknown filter ${key}; the only one is ${SEARCH_PARAMETER}.`);
    } else if (/^[a-z]+$/.test(key) && key !== 'page') {
      // JSON:API 1.1 "Query Parameters": all-lowercase names are the specification's; one it does not
      // define, or this server does not support, is 400.
      const hint = key === 'search' ? ` Search with ${SEARCH_PARAMETER}.` : '';
      throw badParameter(key, `The query parameter "${key}" is not one of JSON:API's that this server supports.${hint}`);
    }
  }
  const options: JsonApiOptions = { fields, include: new Set(include) };
  if (kind !== 'item') return { variant, options };
  // A to-many relation's linkage (its first page) is loaded when it is shown or included.
  const own = fields.get(type.plural);
  const embed = type.relations.filter((r) => r.kind === 'to-many' && (include.includes(r.name) || !own || own.has(r.name))).map((r) => r.name);
  return { embed, variant, options };
}

function optionsOf(plan: RenderPlan | undefined): JsonApiOptions {
  return (plan?.options as JsonApiOptions | undefined) ?? ALL;
}

const q = JSON.stringify;
/** A URI as a JSON string: as it is for a resource of the builders, else escaped (json-text.ts `jsonUri`). */
const u = jsonUri;

function attributes(r: Item, own: TypeFields, fields: ReadonlySet<string> | undefined): string {
  if (fields === undefined) {
    const all = own.writer.write(r.fields, false);
    return all === '' ? '' : `,"attributes":{${all}}`;
  }
  // A sparse fieldset: only the attributes it names.
  let out = '';
  const values = r.fields;
  for (const { field, key } of own.attributes) {
    const value = values[field.name];
    if (value === undefined || !fields.has(field.term)) continue;
    out += key + fieldJson(field, value);
  }
  return out === '' ? '' : `,"attributes":{${out.slice(1)}}`;
}

function identifier(r: Item): string {
  return `${fieldsOf(r.type).head}${jsonString(r.id)}}`;
}

/** JSON:API pagination members (first, prev, next, last) of a page, from the page's own links. */
function pageLinks(r: Page): string {
  let out = '';
  for (const rel of ['first', 'prev', 'next', 'last']) {
    const link = findLink(r.links, rel);
    if (link) out += `,"${rel}":${q(link.href)}`;
  }
  return out;
}

/** Pagination members (first, prev, next, last) for page `page` of `lastPage`, as JSON members. */
function pagination(at: (page: number) => string, page: number, lastPage: number): string {
  let out = `,"first":${q(at(1))}`;
  if (page > 1) out += `,"prev":${q(at(Math.min(page - 1, lastPage)))}`;
  if (page < lastPage) out += `,"next":${q(at(page + 1))}`;
  return `${out},"last":${q(at(lastPage))}`;
}

/** A relationship of an item: links always; a to-many one's linkage (first page) and paging when it was loaded; a to-one one's identifier. */
function relationship(r: Item, relation: Relation, key: string): string {
  const self = linkageUrl(r.url, relation);
  if (relation.kind === 'to-one') {
    const target = r.fields[relation.field!];
    const related = findLink(r.links, relation.name)?.href;
    const links = related === undefined ? `"self":${u(self)}` : `"self":${u(self)},"related":${u(related)}`;
    const data = typeof target === 'string' ? `${fieldsOf(relation.target).head}${jsonString(target)}}` : 'null';
    return `${key}{"links":{${links}},"data":${data}}`;
  }
  let links = `"self":${u(self)},"related":${u(listUrl(r.url, relation))}`;
  const page = r.relations?.[relation.name];
  if (!page) return `${key}{"links":{${links}}}`;
  if (page.paging.lastPage > 1) links += pagination((n) => linkageUrl(r.url, relation, n), 1, page.paging.lastPage);
  const data = page.items.map(identifier).join(',');
  return `${key}{"links":{${links}},"data":[${data}],"meta":{"total":${page.paging.total}}}`;
}

function resourceObject(r: Item, o: JsonApiOptions): string {
  const own = fieldsOf(r.type);
  const fields = o.fields.size === 0 ? undefined : o.fields.get(r.type.plural);
  const tail = own.tail;
  if (tail !== undefined && fields === undefined && r.relations === undefined) {
    // The common case, fixed text between the occurrences of the item's URL (see TypeFields.tail).
    const url = uriChars(r.url);
    let out = `${own.head}${jsonString(r.id)}${attributes(r, own, undefined)}`;
    for (let i = 0; i < tail.length - 1; i++) out += tail[i]! + url;
    return out + tail[tail.length - 1]!;
  }
  let relationships = '';
  for (const [relation, key] of own.relationKeys) {
    if (fields && !fields.has(relation.name)) continue;
    relationships += `${relationships === '' ? '' : ','}${relationship(r, relation, key)}`;
  }
  return `${own.head}${jsonString(r.id)}${attributes(r, own, fields)}${relationships === '' ? '' : `,"relationships":{${relationships}}`},"links":{"self":${u(r.url)}}}`;
}

function renderItem(r: Item, o: JsonApiOptions): string {
  let out = `{"data":${resourceObject(r, o)},"links":{"self":${q(r.url)}}`;
  if (o.include.size) {
    // Section "Compound Documents": the included relations' first pages; sparse fieldsets apply to them too.
    const included: string[] = [];
    for (const name of o.include) for (const item of r.relations?.[name]?.items ?? []) included.push(resourceObject(item, o));
    out += `,"included":[${included.join(',')}]`;
  }
  return `${out},"jsonapi":${VERSION}}`;
}

function pageMeta(r: Page): string {
  const p = r.paging;
  const search = r.search === undefined ? '' : `,"search":${q(r.search)}`;
  // A search that stopped counting gives `totalAtLeast` and no lastPage.
  const total = p.totalIsLowerBound ? `"totalAtLeast":${p.total}` : `"total":${p.total}`;
  const last = p.totalIsLowerBound ? '' : `,"lastPage":${p.lastPage}`;
  return `{${total},"page":${p.page},"pageSize":${p.pageSize}${last},"size":"${p.size}"${search}}`;
}

function renderPage(r: Page, o: JsonApiOptions): string {
  const items = new Array<string>(r.items.length);
  for (let i = 0; i < r.items.length; i++) items[i] = resourceObject(r.items[i]!, o);
  const links = `"self":${q(r.url)}${pageLinks(r)}`;
  return `{"data":[${items.join(',')}],"links":{${links}},"meta":${pageMeta(r)},"jsonapi":${VERSION}}`;
}

/** Per type, plain-JSON pointers of validation errors as pointers into a JSON:API request document. */
const problemPointers = new WeakMap<ResourceType, ReadonlyMap<string, string>>();

function pointersOf(type: ResourceType): ReadonlyMap<string, string> {
  let map = problemPointers.get(type);
  if (map === undefined) {
    const entries: [string, string][] = type.fields.map((f) => [`/${f.name}`, f.name === type.idField ? '/data/id' : `/data/attributes/${pointerToken(f.term)}`]);
    problemPointers.set(type, (map = new Map(entries)));
  }
  return map;
}

function problemDocument(problem: ProblemDetails, type?: ResourceType): string {
  const base: Record<string, unknown> = { status: String(problem.status), title: problem.title };
  if (problem.type !== 'about:blank') base.links = { about: problem.type };
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(problem)) {
    if (!['type', 'title', 'status', 'detail', 'instance', 'errors'].includes(k) && /^[a-zA-Z0-9](?:[-\w]*[a-zA-Z0-9])?$/.test(k)) meta[k] = v;
  }
  if (Object.keys(meta).length) base.meta = meta;
  const pointers = type ? pointersOf(type) : undefined;
  const errors = problem.errors?.length
    ? problem.errors.map((e) => {
        const source = e.parameter !== undefined ? { parameter: e.parameter } : e.pointer !== undefined ? { pointer: pointers?.get(e.pointer) ?? e.pointer } : undefined;
        return { ...base, detail: e.detail, ...(source ? { source } : {}) };
      })
    : [{ ...base, ...(problem.detail !== undefined ? { detail: problem.detail } : {}) }];
  return q({ errors, jsonapi: { version: '1.0' } });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** JSON:API section "Creating Resources" and "Updating To-Many Relationships" (a resource identifier). */
function readDocument(body: unknown, type: ResourceType): ItemInput {
  const fail = (pointer: string, detail: string, status = 400) => new HttpError(status, detail, { errors: [{ pointer, detail }] });
  if (!isObject(body) || !isObject(body.data)) throw fail('/data', 'A JSON:API request document has a "data" member holding one resource object.');
  const data = body.data;
  // Section "Creating Resources": a type the collection does not hold is 409 Conflict.
  if (data.type !== type.plural) throw fail('/data/type', `The resource type must be "${type.plural}".`, 409);
  if (data.id !== undefined && typeof data.id !== 'string') throw fail('/data/id', 'The id must be a string.');
  // Section "Updating a Resource's Relationships": a server may refuse to replace a to-many relationship
  // in full, and must then refuse the whole request with 403. Lists change through the relationship URL.
  // A relationship object with links only (as GET gives it) says nothing to change; one with data is
  // linkage, which a partial update refuses (ItemInput.relationshipPointer).
  // A to-one relationship's data names the item its field holds (section "Updating To-One Relationships").
  let relationshipPointer: string | undefined;
  const toOne: [string, unknown, string][] = [];
  if (isObject(data.relationships)) {
    for (const [name, relationship] of Object.entries(data.relationships)) {
      if (!isObject(relationship) || !('data' in relationship)) continue;
      const pointer = `/data/relationships/${pointerToken(name)}/data`;
      const relation = type.relation(name);
      if (relation?.kind !== 'to-one') {
        relationshipPointer ??= pointer;
        continue;
      }
      const linkage = relationship.data;
      if (linkage !== null && (!isObject(linkage) || linkage.type !== relation.target.plural || typeof linkage.id !== 'string')) {
        throw fail(pointer, `A to-one relationship's data is null or a resource identifier object of type "${relation.target.plural}".`);
      }
      toOne.push([type.field(relation.field!)!.term, linkage === null ? null : linkage.id, pointer]);
    }
  } else if (data.relationships !== undefined) throw fail('/data/relationships', 'relationships must be an object.');
  if (data.attributes !== undefined && !isObject(data.attributes)) throw fail('/data/attributes', 'attributes must be an object.');
  // A resource identifier of an existing item: add that item.
  const withLinkage = (input: ItemInput): ItemInput => (relationshipPointer === undefined ? input : { ...input, relationshipPointer });
  if (data.id !== undefined && data.attributes === undefined && toOne.length === 0) return withLinkage({ fields: {}, ref: data.id });
  // The attributes the type has, read as own members by their terms; any other is 400.
  const idTerm = type.field(type.idField)!.term;
  const values: [string, unknown, string][] = [];
  if (data.id !== undefined) values.push([idTerm, data.id, '/data/id']);
  const attributes = data.attributes ?? {};
  for (const name of Object.keys(attributes)) {
    const pointer = `/data/attributes/${pointerToken(name)}`;
    if (name === idTerm) throw fail(pointer, `unknown attribute "${idTerm}"; the id of a ${type.title.toLowerCase()} is data.id`);
    values.push([name, attributes[name], pointer]);
  }
  values.push(...toOne);
  const input = withLinkage(inputFromTerms(type, values));
  // Section "Client-Generated IDs": an id beside attributes names the new resource.
  if (data.id === undefined) return input;
  return { ...input, newId: data.id };
}

/**
 * The ids of a to-many relationship document (section "Updating To-Many Relationships"): `data` is an
 * array of resource identifier objects of the relation's target type; a type of another collection is 409.
 *
 * @example
 * readLinkage({ data: [{ type: 'books', id: 'dune' }] }, relation); // ['dune']
 */
function readLinkage(body: unknown, relation: Relation): string[] | null {
  const plural = relation.target.plural;
  const fail = (pointer: string, detail: string, status = 400) => new HttpError(status, detail, { errors: [{ pointer, detail }] });
  const identifierAt = (item: unknown, pointer: string): string => {
    if (!isObject(item)) throw fail(pointer, 'A resource identifier object is an object with type and id.');
    if (item.type !== plural) throw fail(`${pointer}/type`, `The resource type must be "${plural}".`, 409);
    if (typeof item.id !== 'string') throw fail(`${pointer}/id`, 'The id must be a string.');
    return item.id;
  };
  if (relation.kind === 'to-one') {
    // Section "Updating To-One Relationships": a resource identifier object, or null to clear it.
    if (!isObject(body) || !('data' in body)) throw fail('/data', 'A to-one relationship document has a "data" member holding a resource identifier object or null.');
    return body.data === null ? null : [identifierAt(body.data, '/data')];
  }
  if (!isObject(body) || !Array.isArray(body.data)) throw fail('/data', 'A to-many relationship document has a "data" member holding an array of resource identifier objects.');
  return body.data.map((item: unknown, i: number) => identifierAt(item, `/data/${i}`));
}


const LINKS_SCHEMA: JsonSchema = { type: 'object', additionalProperties: { anyOf: [HREF_SCHEMA, objectSchema({ href: HREF_SCHEMA }, ['href'])] } };
const JSONAPI_SCHEMA = objectSchema({ version: { type: 'string' } });
const META_SCHEMA: JsonSchema = { type: 'object' };

/** A resource identifier object (section "Resource Identifier Objects") of `type`'s plural, or of any type. */
function identifierSchema(type?: ResourceType): JsonSchema {
  return objectSchema({ type: type ? { const: type.plural } : { type: 'string' }, id: { type: 'string' }, meta: META_SCHEMA }, ['type', 'id'], true);
}

/** A resource object of `type` (section "Resource Objects"): attributes by term (none required: sparse fieldsets), relationships, links. */
function resourceSchema(type: ResourceType): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const { field: f } of fieldsOf(type).attributes) {
    const { readOnly: _r, writeOnly: _w, ...schema } = f.schema as Record<string, unknown>;
    properties[f.term] = schema;
  }
  const relationship = objectSchema({ links: LINKS_SCHEMA, data: { anyOf: [{ type: 'null' }, identifierSchema(), arrayOf(identifierSchema())] }, meta: META_SCHEMA });
  return objectSchema(
    { type: { const: type.plural }, id: { type: 'string' }, attributes: objectSchema(properties, [], true), relationships: { type: 'object', additionalProperties: relationship }, links: LINKS_SCHEMA, meta: META_SCHEMA },
    ['type', 'id'],
    true,
  );
}

/** Any resource object, of whichever type `included` carries. */
const ANY_RESOURCE = objectSchema({ type: { type: 'string' }, id: { type: 'string' } }, ['type', 'id']);

/**
 * The JSON Schema of a JSON:API document: an item's `data` is a resource object of its type (its
 * attributes by alternate name), a page's an array of them, with `links`, `meta` and `included`; a
 * relationship's linkage has resource identifiers as `data`; an error document has `errors`; a body is
 * a resource document (`data.type` the type's plural) or, for a list, a resource identifier.
 *
 * @example
 * describeJsonApi({ kind: 'item', type: bookType }).required; // ['data']
 */
export function describeJsonApi(document: DescribedDocument): JsonSchema | undefined {
  const top = { links: LINKS_SCHEMA, meta: META_SCHEMA, jsonapi: JSONAPI_SCHEMA };
  switch (document.kind) {
    case 'item':
      return objectSchema({ data: resourceSchema(document.type), included: arrayOf(ANY_RESOURCE), ...top }, ['data'], true);
    case 'page':
      return objectSchema({ data: arrayOf(resourceSchema(document.type)), included: arrayOf(ANY_RESOURCE), ...top }, ['data'], true);
    case 'linkage': {
      const identifier = identifierSchema(document.relation.target);
      return objectSchema({ data: document.relation.kind === 'to-many' ? arrayOf(identifier) : { anyOf: [{ type: 'null' }, identifier] }, ...top }, ['data'], true);
    }
    case 'input': {
      const type = document.type;
      const idTerm = type.field(type.idField)!.term;
      const attributes = inputMembers(document.fields.filter((f) => f.name !== type.idField), false);
      delete attributes[idTerm];
      const data = objectSchema({ type: { const: type.plural }, id: { type: 'string' }, attributes: objectSchema(attributes, [], true), relationships: { type: 'object' } }, ['type']);
      return objectSchema({ data, meta: META_SCHEMA, jsonapi: JSONAPI_SCHEMA }, ['data']);
    }
    case 'error': {
      const source = objectSchema({ pointer: { type: 'string' }, parameter: { type: 'string' }, header: { type: 'string' } });
      const error = objectSchema({ id: { type: 'string' }, links: LINKS_SCHEMA, status: { type: 'string', pattern: '^[45][0-9][0-9]$' }, code: { type: 'string' }, title: { type: 'string' }, detail: { type: 'string' }, source, meta: META_SCHEMA }, ['status', 'title'], true);
      return objectSchema({ errors: arrayOf(error, 1), meta: META_SCHEMA, jsonapi: JSONAPI_SCHEMA, links: LINKS_SCHEMA }, ['errors'], true);
    }
  }
}

/**
 * JSON:API 1.0: an item is `data` of its type's plural (id, attributes in their terms, a relationship per
 * relation with links self / related and, as linkage, the first page of a to-many one), with top-level
 * links self. A page has `data` as an array, `links` first / prev / next / last, and `meta` with the
 * totals. `include=<relation>` makes an item a compound document; `fields[<type>]=...` restricts
 * attributes and relationships everywhere, `included` too. Errors are a JSON:API errors document.
 * Bodies: a resource document to create an item, or a resource identifier to add an existing one.
 *
 * @example
 * const plan = jsonApiRepresentation.plan!(new URLSearchParams('fields[books]=name'), 'item', bookType);
 * JSON.parse(jsonApiRepresentation.render(bookDoc, plan)).data.attributes; // { name: 'Dune' }
 */
export const jsonApiRepresentation: Representation = {
  name: 'jsonapi',
  title: 'JSON:API',
  mediaType: JSON_API_MEDIA_TYPE,
  bodyMediaTypes: [JSON_API_MEDIA_TYPE],
  plan: planQuery,
  searchParameter: SEARCH_PARAMETER,
  render(resource: Resource, plan?: RenderPlan): string {
    const o = optionsOf(plan);
    return withUris(resource, () => (resource.kind === 'item' ? renderItem(resource, o) : renderPage(resource, o)));
  },
  renderLinkage(linkage: Page | Item, _plan?: RenderPlan, relation?: Relation): string {
    if (linkage.kind === 'item') {
      // Section "Fetching Relationships": a to-one relationship's linkage, the relationship object as a document.
      const key = fieldsOf(linkage.type).relationKeys.get(relation!)!;
      return `${relationship(linkage, relation!, key).slice(key.length, -1)},"jsonapi":${VERSION}}`;
    }
    const page = linkage;
    // The page as the relationship route builds it: addressed at the relationship URL, with `related`.
    const links = `"self":${q(page.url)},"related":${q(findLink(page.links, 'related')?.href ?? listUrl(page.owner.url, page.relation))}${pageLinks(page)}`;
    return `{"links":{${links}},"data":[${page.items.map(identifier).join(',')}],"meta":${pageMeta(page)},"jsonapi":${VERSION}}`;
  },
  renderProblem: problemDocument,
  /** JSON:API 1.1 "Content Negotiation": only `ext` and `profile`; we support no extension. */
  acceptable(params) {
    for (const [name, value] of Object.entries(params)) {
      if (name === 'profile') continue;
      if (name === 'ext' && value.trim() === '') continue;
      return false;
    }
    return true;
  },
  readBody: (body, _mediaType, type) => readDocument(body, type),
  partialUpdates: true,
  readLinkage,
  describe: describeJsonApi,
};
