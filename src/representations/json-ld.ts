// JSON-LD (application/ld+json): items as nodes of their type's class in Hydra collections, with the API's context inline.
import { HttpError } from '../core/http/problem.js';
import type { ItemInput, Representation } from '../core/model/representation.js';
import type { Api, ResourceType } from '../core/model/api.js';
import { findLink, type Item, type Link, type Operation, type OperationField, type Page, type Resource } from '../core/model/resource.js';
import { linkedDataContext, termIri } from '../core/model/terms.js';
import { listUrl } from '../core/model/urls.js';
import { inputFromTerms, pointerToken, requireObject } from './term-input.js';
import { termMembers, termWriter } from './term-fields.js';
import type { FieldWriter } from './field-text.js';
import { checkJsonLdBody } from './json-ld-limits.js';
import { contextLoader, SCHEMA } from './json-ld-context.js';
import { flat, holes, interleave, jsonString, uriChars, urisAreVerified, withUris } from '../core/json/text.js';
import { derivableRelations } from './derived-links.js';
import { arrayOf, fieldMembers, HREF_SCHEMA, inputMembers, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';
import type { JsonSchema } from '../core/model/declaration.js';

/**
 * The media type of JSON-LD (JSON-LD 1.1 section C).
 *
 * @example
 * new Request(url, { headers: { Accept: JSON_LD_MEDIA_TYPE } });
 */
export const JSON_LD_MEDIA_TYPE = 'application/ld+json';

/** `{"@context":<context>,` of each API once (flat): every document is this prefix plus its own members. */
const contextPrefixes = new WeakMap<Api, string>();

function contextPrefix(api: Api): string {
  let prefix = contextPrefixes.get(api);
  if (prefix === undefined) contextPrefixes.set(api, (prefix = flat(`{"@context":${JSON.stringify(linkedDataContext(api))},`)));
  return prefix;
}

type Node = Record<string, unknown>;

/**
 * The members of an item's node and its closing brace, written directly (json-text.ts): `@id` (its
 * URL), `@type` (its class term), its fields in their alternate names, and a link to each of its
 * relations (a list, or the item a to-one relation names).
 */
/** Per type, `","@type":"<term>"` and the text before each relation's link (`,"members":"`). */
const nodeTexts = new WeakMap<ResourceType, { type: string; relations: readonly string[]; keys: readonly string[] }>();

function nodeTextOf(type: ResourceType): { type: string; relations: readonly string[]; keys: readonly string[] } {
  let text = nodeTexts.get(type);
  if (text === undefined) {
    text = {
      type: flat(`","@type":${jsonString(type.linkedData.term)}`),
      relations: type.relations.map((r) => r.name),
      keys: type.relations.map((r) => flat(`,${jsonString(r.name)}:"`)),
    };
    nodeTexts.set(type, text);
  }
  return text;
}

/**
 * Per type whose relation links derive from an item's URL: a node's fields (between its `@type` and
 * the first relation member) and the relation members around its URL (`holes`).
 */
const nodeHoles = new WeakMap<ResourceType, { writer: FieldWriter; tail: readonly string[] } | null>();

function nodeHolesOf(type: ResourceType): { writer: FieldWriter; tail: readonly string[] } | null {
  let found = nodeHoles.get(type);
  if (found === undefined) {
    const relations = derivableRelations(type);
    if (relations === null || relations === undefined) found = null;
    else {
      const pieces = holes(`${relations.map((r) => `,${jsonString(r.name)}:"\u0000/${r.path}"`).join('')}}`);
      found = { writer: termWriter(type, `","@type":${jsonString(type.linkedData.term)}`, pieces[0]), tail: pieces.slice(1) };
    }
    nodeHoles.set(type, found);
  }
  return found;
}

/** A member node of a page from its type's holes (see `nodeHolesOf`): `{"@id":"<url>","@type":"T",<fields>,"rel":"<url>/path"}`. */
function derivedNode(doc: Item, derived: { writer: FieldWriter; tail: readonly string[] }): string {
  let out = `{"@id":"${doc.url}${derived.writer.write(doc.fields, true)}`;
  const tail = derived.tail;
  for (let i = 0; i < tail.length; i++) out += doc.url + tail[i]!;
  return out;
}

function nodeMembers(doc: Item): string {
  const text = nodeTextOf(doc.type);
  let out = `"@id":"${uriChars(doc.url)}${text.type}${termMembers(doc)}`;
  const { relations, keys } = text;
  for (let i = 0; i < relations.length; i++) {
    const link = findLink(doc.links, relations[i]!);
    if (link !== undefined) out += `${keys[i]!}${uriChars(link.href)}"`;
  }
  return `${out}}`;
}

/** Hydra ranges of our HTML5 input types. */
const RANGES: Readonly<Record<OperationField['type'], string>> = {
  text: 'xsd:string',
  search: 'xsd:string',
  hidden: 'xsd:string',
  url: 'schema:URL',
  number: 'xsd:integer',
};

/** A Hydra operation (Hydra Core section 4.2) expecting an item of `type`, described by the fields as its supported properties. */
function operationNode(op: Operation, type: ResourceType): Node {
  // rdfs:range is a statement about the property (RDF Schema section 3.2), so it sits on the property
  // node, named by its compact IRI; the SupportedProperty says how this operation uses it.
  const supportedProperty = op.fields.map((f) => ({
    '@type': 'SupportedProperty',
    property: { '@id': termIri(type.api, f.name), range: RANGES[f.type] },
    required: f.required,
    title: f.title,
  }));
  return { '@type': 'Operation', method: op.method, title: op.title, expects: { '@id': type.linkedData.class, '@type': 'Class', supportedProperty } };
}

/** The operations performed on `href` itself; GETs with a query are IRI templates instead. */
function operationsAt(operations: readonly Operation[], href: string, type: ResourceType): Node[] | undefined {
  const out: Node[] = [];
  for (const op of operations) if (op.method !== 'GET' && op.href === href) out.push(operationNode(op, type));
  return out.length ? out : undefined;
}

/** The templated search link as a Hydra IriTemplate (Hydra Core section 4.4), `search` bound to freetextQuery. */
function searchTemplate(link: Link): Node {
  const variables = /\{\?([^}]+)\}/.exec(link.href)?.[1]?.split(',') ?? [];
  return {
    '@type': 'IriTemplate',
    template: link.href,
    variableRepresentation: 'BasicRepresentation',
    mapping: variables.map((variable) => ({ '@type': 'IriTemplateMapping', variable, property: 'freetextQuery', required: true })),
  };
}

/**
 * A page as a Hydra Collection: the members before `member` (`@id`, `@type`, the owner or the search,
 * totalItems) and after it (view, operation, search), as objects; the members themselves are text.
 */
function pageNode(doc: Page): { before: Node; after: Node } {
  const relation = doc.relation;
  const list = listUrl(doc.owner.url, relation);
  // A list is typed by its relation's class too: the ApiDocumentation's class with its add operation.
  const listType = relation.listClass === undefined ? 'Collection' : ['Collection', relation.listClass];
  const before: Node = { '@id': doc.collectionUrl, '@type': doc.search === undefined ? listType : 'Collection' };
  if (doc.search === undefined) {
    if (relation.reverse) before[relation.reverse] = doc.owner.url;
  } else {
    before.freetextQuery = doc.search;
    const collection: Node = { '@id': list, '@type': listType };
    if (relation.reverse) collection[relation.reverse] = doc.owner.url;
    const ops = operationsAt(doc.operations, list, doc.type);
    if (ops) collection.operation = ops;
    before.collection = collection;
  }
  // Hydra's totalItems is exact: a search that stopped counting leaves it out.
  if (!doc.paging.totalIsLowerBound) before.totalItems = doc.paging.total;
  // Hydra Core section 5.1: the page is a PartialCollectionView of the collection.
  const view: Node = { '@id': doc.url, '@type': 'PartialCollectionView', size: String(doc.paging.size) };
  for (const [rel, term] of [['first', 'first'], ['prev', 'previous'], ['next', 'next'], ['last', 'last']] as const) {
    const link = findLink(doc.links, rel);
    if (link) view[term] = link.href;
  }
  const after: Node = { view };
  const ops = operationsAt(doc.operations, doc.collectionUrl, doc.type);
  if (ops) after.operation = ops;
  const search = findLink(doc.links, 'search');
  if (search?.templated) after.search = searchTemplate(search);
  return { before, after };
}

/** A page: its members (`member`, the items as nodes) written between the two halves of its node. */
function renderPage(doc: Page): string {
  const { before, after } = pageNode(doc);
  const members = new Array<string>(doc.items.length);
  const derived = urisAreVerified() && doc.items.length ? nodeHolesOf(doc.type) : null;
  if (derived !== null) for (let i = 0; i < doc.items.length; i++) members[i] = derivedNode(doc.items[i]!, derived);
  else for (let i = 0; i < doc.items.length; i++) members[i] = `{${nodeMembers(doc.items[i]!)}`;
  const head = JSON.stringify(before);
  // `before` holds @id and `after` holds view, so both serialize to `{"...}` and can be spliced.
  return `${contextPrefix(doc.type.api)}${head.slice(1, -1)},"member":[${members.join(',')}],${JSON.stringify(after).slice(1)}`;
}

/** An expanded IRI of a compact one (`schema:name`) with the API's context; an IRI stays as it is. */
function expandIri(api: Api, compact: string): string {
  const colon = compact.indexOf(':');
  const prefix = colon > 0 ? linkedDataContext(api)[compact.slice(0, colon)] : undefined;
  return typeof prefix === 'string' ? prefix + compact.slice(colon + 1) : compact;
}

/** Per type: the expanded IRIs of the fields a body may carry (to their alternate names), and of its relations (server-owned links, ignored). */
const bodyTerms = new WeakMap<ResourceType, { fields: ReadonlyMap<string, string>; links: ReadonlySet<string> }>();

function termsOf(type: ResourceType): { fields: ReadonlyMap<string, string>; links: ReadonlySet<string> } {
  let terms = bodyTerms.get(type);
  if (terms === undefined) {
    const fields = new Map<string, string>();
    for (const f of type.writable) fields.set(canonicalIri(expandIri(type.api, f.iri)), f.term);
    terms = { fields, links: new Set(type.relations.map((r) => expandIri(type.api, r.iri))) };
    bodyTerms.set(type, terms);
  }
  return terms;
}

/** schema.org is published under both http and https; its own context still uses http. */
function canonicalIri(iri: string): string {
  return iri.startsWith('http://schema.org/') ? `https://schema.org/${iri.slice('http://schema.org/'.length)}` : iri;
}

/** A short reason from a jsonld error: the dropped term (safe mode), the refused context, or its message. */
function describeJsonLdError(error: unknown): string {
  const e = error as { message?: string; details?: { url?: string; cause?: { message?: string }; event?: { message?: string; details?: { property?: string; type?: unknown } } } };
  const event = e.details?.event;
  if (event?.details?.property !== undefined) return `the term "${event.details.property}" is not defined by the context (${event.message})`;
  if (event) return `${event.message} ${JSON.stringify(event.details ?? {})}`;
  if (e.details?.url !== undefined) return `the context ${e.details.url} cannot be loaded (${e.details.cause?.message ?? 'not fetched'})`;
  return e.message ?? 'invalid JSON-LD';
}

function bad(detail: string, cause?: unknown, pointer = ''): HttpError {
  return new HttpError(400, `The JSON-LD request body cannot be read: ${detail}`, { errors: [{ pointer, detail }], cause });
}

/**
 * The pointer to the body's member that expanded to `iri`, when the member is named by the IRI itself
 * or by its last segment (the usual compact form); else the whole body.
 */
function memberNaming(object: Node, iri: string): string {
  const local = iri.slice(Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#'), iri.lastIndexOf(':')) + 1);
  for (const name of [iri, local]) if (Object.hasOwn(object, name)) return `/${pointerToken(name)}`;
  return '';
}

/**
 * Reads a JSON-LD request body for `type` by expanding it (JSON-LD 1.1 API section 4.1) in safe mode:
 * with its own `@context` (the API's by URL, schema.org, or any inline context), or with the API's when
 * it has none. So any equivalent JSON-LD works: `{"@context": "https://schema.org", ...}` too. One node
 * is expected, with the properties of the type's writable fields; its `@id` is a reference to an
 * existing item. Remote contexts are never fetched (400).
 *
 * @example
 * await readJsonLdBody({ name: 'Dune' }, bookType); // { fields: { title: 'Dune' }, pointers: { title: '/name' } }
 */
export async function readJsonLdBody(body: unknown, type: ResourceType): Promise<ItemInput> {
  const object = requireObject(body, 'JSON-LD');
  checkJsonLdBody(object);
  const { default: jsonld } = await import('jsonld');
  const api = type.api;
  let expanded: Node[];
  try {
    // keepFreeFloatingNodes: a body that is only `{"@id": ...}` (a reference) is a node, not noise.
    const options = { documentLoader: contextLoader(api), safe: true, keepFreeFloatingNodes: true, ...('@context' in object ? {} : { expandContext: linkedDataContext(api) }) };
    expanded = (await jsonld.expand(object as never, options as never)) as unknown as Node[];
  } catch (error) {
    throw bad(describeJsonLdError(error), error);
  }
  if (expanded.length !== 1) throw bad(`expected one node, found ${expanded.length}`);
  const node = expanded[0]!;
  const terms = termsOf(type);
  const values: [string, unknown, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    // @type is informative; a relation is a server-owned link of a rendered item sent back as is.
    if (key === '@id' || key === '@type' || terms.links.has(key)) continue;
    const name = terms.fields.get(canonicalIri(key));
    if (name === undefined) {
      throw bad(`property <${key}> is not a ${type.title.toLowerCase()} field (expected ${[...terms.fields.values()].join(', ')})`, undefined, memberNaming(object, key));
    }
    const list = value as Node[];
    if (list.length !== 1) throw bad(`<${key}> must have exactly one value`);
    const v = list[0]!;
    values.push([name, '@value' in v ? v['@value'] : v['@id'], `/${name}`]);
  }
  const id = node['@id'];
  return inputFromTerms(type, values, typeof id === 'string' && !id.startsWith('_:') ? { value: id, pointer: '/@id' } : undefined);
}

/**
 * The parameters of application/ld+json (JSON-LD 1.1 section 9.1): `profile`, a list of URIs that does
 * not change the meaning of a document (so the compacted form we serve, and any form we read, satisfy
 * every profile), and `charset=utf-8`. Any other parameter is refused (406 / 415).
 *
 * @example
 * acceptsJsonLdParameters({ profile: 'http://www.w3.org/ns/json-ld#compacted' }); // true
 */
export function acceptsJsonLdParameters(params: Readonly<Record<string, string>>): boolean {
  for (const [name, value] of Object.entries(params)) {
    if (name === 'profile') continue;
    if (name !== 'charset' || value.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

const CONTEXT_SCHEMA: JsonSchema = { type: ['object', 'string', 'array'] };
const TYPES_SCHEMA: JsonSchema = { anyOf: [{ type: 'string' }, arrayOf({ type: 'string' }, 1)] };

/** A node of `type`: `@id`, `@type` its class, its fields by term, and a link (an IRI) per relation. */
function nodeSchema(type: ResourceType): JsonSchema {
  const { properties, required } = fieldMembers(type, 'term');
  for (const r of type.relations) properties[r.name] ??= HREF_SCHEMA;
  return objectSchema({ '@context': CONTEXT_SCHEMA, '@id': HREF_SCHEMA, '@type': TYPES_SCHEMA, ...properties }, ['@id', '@type', ...required]);
}

/**
 * The JSON Schema of a JSON-LD document (compacted with the API's context): an item is a node of its
 * type's class; a page a Hydra Collection (`member` nodes, `totalItems`, a `view`, the add `operation`
 * and the `search` IriTemplate); a body a node's fields by term, `@id` naming an existing item.
 *
 * @example
 * describeJsonLd({ kind: 'item', type: bookType }).required; // ['@id', '@type', 'isbn']
 */
export function describeJsonLd(document: DescribedDocument): JsonSchema | undefined {
  switch (document.kind) {
    case 'item': {
      const node = nodeSchema(document.type) as { required: string[] };
      return { ...node, required: ['@context', ...node.required] };
    }
    case 'page':
      return objectSchema(
        {
          '@context': CONTEXT_SCHEMA,
          '@id': HREF_SCHEMA,
          '@type': TYPES_SCHEMA,
          totalItems: { type: 'integer', minimum: 0 },
          member: arrayOf(nodeSchema(document.type)),
          view: objectSchema({ '@id': HREF_SCHEMA, '@type': TYPES_SCHEMA }, ['@id']),
          operation: arrayOf({ type: 'object' }),
          search: objectSchema({ '@type': TYPES_SCHEMA, template: { type: 'string' } }),
        },
        ['@context', '@id', '@type', 'member'],
      );
    case 'input':
      return objectSchema({ '@context': CONTEXT_SCHEMA, '@id': HREF_SCHEMA, '@type': TYPES_SCHEMA, ...inputMembers(document.fields, false) });
    default:
      return undefined;
  }
}

/**
 * JSON-LD: an item is a node of its type's class (`@id` its URL, its fields in their alternate names,
 * and a link to each of its relations); a page is a Hydra Collection (`@id` the list, totalItems,
 * member items, a PartialCollectionView `view` with size, first, previous, next and last), carrying the
 * POST operation that adds a member (with its expected properties) and the search IriTemplate. The
 * API's context is inline and emitted as a prebuilt string: rendering runs no JSON-LD processor.
 *
 * @example
 * const res = await service.fetch(new Request(url, { headers: { Accept: 'application/ld+json' } }));
 * (await res.json())['@id']; // the item's URL
 */
export const jsonLdRepresentation: Representation = {
  name: 'jsonld',
  title: 'JSON-LD',
  mediaType: JSON_LD_MEDIA_TYPE,
  bodyMediaTypes: [JSON_LD_MEDIA_TYPE],
  acceptable: acceptsJsonLdParameters,
  render(resource: Resource): string {
    // JSON text written directly around JSON.stringify of the page-level nodes: byte-identical to
    // JSON.stringify of the whole node (json-text.ts).
    return withUris(resource, () => (resource.kind === 'item' ? contextPrefix(resource.type.api) + nodeMembers(resource) : renderPage(resource)));
  },
  readBody: (body, _mediaType, type) => readJsonLdBody(body, type),
  describe: describeJsonLd,
};
