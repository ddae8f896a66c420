// JSON-LD (application/ld+json): items as nodes of their type's class in Hydra collections, with the API's context inline.
import { keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import type { Representation } from '../core/model/representation.js';
import type { Api, Relation, ResourceType } from '../core/model/api.js';
import { addOperationFields } from '../core/model/list-operations.js';
import { findLink, type Item, type Link, type Operation, type OperationField, type Page, type Resource } from '../core/model/resource.js';
import { linkedDataContext, termIri } from '../core/model/terms.js';
import { listUrl } from '../core/model/urls.js';
import { termMembers, termWriter } from './term-fields.js';
import type { FieldWriter } from './field-text.js';
import { flat, holes, jsonString, jsonUri, uriChars, urisAreVerified, withUris } from '../core/json/text.js';
import { derivableRelations } from './derived-links.js';
import { readJsonLdBody } from './json-ld-input.js';
import { describeJsonLd } from './json-ld-schema.js';

export { readJsonLdBody } from './json-ld-input.js';
export { describeJsonLd } from './json-ld-schema.js';

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

/** A member node of a page: from its type's holes where the URIs allow, else member by member (the same text). */
function memberNode(doc: Item): string {
  const derived = urisAreVerified() ? nodeHolesOf(doc.type) : null;
  return derived !== null ? derivedNode(doc, derived) : `{${nodeMembers(doc)}`;
}

/** The text of each shared listed item (`keptItemText`). */
const listedTexts = keptTextSlot();

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

/**
 * The text after each search template's URL, by its variables (`search`): the template is the only part
 * of a Hydra IriTemplate (Hydra Core section 4.4) that differs from page to page. Bounded, in case
 * hand-built links name many.
 */
const templateTails = new Map<string, string>();

/** The templated search link as a Hydra IriTemplate, `search` bound to freetextQuery: what `JSON.stringify` writes of the node. */
function searchTemplateText(link: Link): string {
  const variables = /\{\?([^}]+)\}/.exec(link.href)?.[1] ?? '';
  let tail = templateTails.get(variables);
  if (tail === undefined) {
    const mapping = (variables ? variables.split(',') : []).map((variable) => ({ '@type': 'IriTemplateMapping', variable, property: 'freetextQuery', required: true }));
    tail = flat(`,"variableRepresentation":"BasicRepresentation","mapping":${JSON.stringify(mapping)}}`);
    if (templateTails.size < 64) templateTails.set(variables, tail);
  }
  return `{"@type":"IriTemplate","template":${jsonUri(link.href)}${tail}`;
}

/**
 * The text of the node of each relation's add operation: a list's operations are made for each page,
 * but their fields are the relation's own array (`addOperationFields`) and a node names no URL, so every
 * page of the list writes the same text (`npm run bench -- render`: a first page of 50 at 1.3x
 * `JSON.stringify` of the plain items, against 1.55x when the members after `member` were stringified
 * for each page). Another operation (a hand-built page's) is written each time.
 */
const operationTexts = new WeakMap<Relation, { method: string; title: string; type: ResourceType; text: string }>();

function operationText(op: Operation, doc: Page): string {
  const shared = op.fields === addOperationFields(doc.relation);
  const kept = shared ? operationTexts.get(doc.relation) : undefined;
  if (kept !== undefined && kept.type === doc.type && kept.method === op.method && kept.title === op.title) return kept.text;
  const text = flat(JSON.stringify(operationNode(op, doc.type)));
  if (shared) operationTexts.set(doc.relation, { method: op.method, title: op.title, type: doc.type, text });
  return text;
}

/**
 * A page as a Hydra Collection: the members before `member` (`@id`, `@type`, the owner or the search,
 * totalItems) as an object, and the text of those after it (view, operation, search), the same bytes
 * as `JSON.stringify` of them.
 */
function pageNode(doc: Page): { before: Node; after: string } {
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
  let after = `"view":${JSON.stringify(view)}`;
  let ops = '';
  for (const op of doc.operations) if (op.method !== 'GET' && op.href === doc.collectionUrl) ops += ops === '' ? operationText(op, doc) : `,${operationText(op, doc)}`;
  if (ops !== '') after += `,"operation":[${ops}]`;
  const search = findLink(doc.links, 'search');
  if (search?.templated) after += `,"search":${searchTemplateText(search)}`;
  return { before, after };
}

/** A page: its members (`member`, the items as nodes) written between the two halves of its node. */
function renderPage(doc: Page): string {
  const { before, after } = pageNode(doc);
  const members = new Array<string>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) members[i] = keptItemText(listedTexts, doc.items[i]!, memberNode);
  const head = JSON.stringify(before);
  // `before` holds @id, so it serializes to `{"...}` and can be spliced.
  return `${contextPrefix(doc.type.api)}${head.slice(1, -1)},"member":[${members.join(',')}],${after}}`;
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
