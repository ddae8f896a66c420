// JSON:API (application/vnd.api+json): resource objects of each type, compound documents, sparse fieldsets.
import { keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import { flat, jsonString, jsonUri, uriChars, withUris } from '../core/json/text.js';
import type { RenderPlan, Representation } from '../core/model/representation.js';
import type { Field, Relation, ResourceType } from '../core/model/api.js';
import { findLink, type Item, type Page, type Resource } from '../core/model/resource.js';
import { linkageUrl, listUrl } from '../core/model/urls.js';
import { FieldWriter } from './field-text.js';
import { fieldJson } from './term-fields.js';
import { attributeFields, memberNames } from './json-api-members.js';
import { optionsOf, planQuery, readsParameter, SEARCH_PARAMETER, type JsonApiOptions } from './json-api-query.js';
import { problemDocument } from './json-api-errors.js';
import { readDocument, readLinkage } from './json-api-input.js';
import { describeJsonApi } from './json-api-schema.js';

export { describeJsonApi } from './json-api-schema.js';

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
    const attributes = attributeFields(type);
    found = {
      attributes: attributes.map((field) => ({ field, key: flat(`,${jsonString(field.term)}:`) })),
      names: memberNames(type),
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
    if (link) out += `,"${rel}":${u(link.href)}`;
  }
  return out;
}

/** Pagination members (first, prev, next, last) for page `page` of `lastPage`, as JSON members. */
function pagination(at: (page: number) => string, page: number, lastPage: number): string {
  let out = `,"first":${u(at(1))}`;
  if (page > 1) out += `,"prev":${u(at(Math.min(page - 1, lastPage)))}`;
  if (page < lastPage) out += `,"next":${u(at(page + 1))}`;
  return `${out},"last":${u(at(lastPage))}`;
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
  let out = `{"data":${resourceObject(r, o)},"links":{"self":${u(r.url)}}`;
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

/** The text of each shared listed item without a sparse fieldset (`keptItemText`). */
const listedTexts = keptTextSlot();

const NO_OPTIONS: JsonApiOptions = { fields: new Map(), include: new Set() };

/** An item's resource object with every field (no sparse fieldset). */
function fullResourceObject(r: Item): string {
  return resourceObject(r, NO_OPTIONS);
}

function renderPage(r: Page, o: JsonApiOptions): string {
  const items = new Array<string>(r.items.length);
  // Without a sparse fieldset an item's resource object is the document's alone, so it may be kept.
  if (o.fields.size === 0) for (let i = 0; i < r.items.length; i++) items[i] = keptItemText(listedTexts, r.items[i]!, fullResourceObject);
  else for (let i = 0; i < r.items.length; i++) items[i] = resourceObject(r.items[i]!, o);
  const links = `"self":${u(r.url)}${pageLinks(r)}`;
  return `{"data":[${items.join(',')}],"links":{${links}},"meta":${pageMeta(r)},"jsonapi":${VERSION}}`;
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
  readsParameter,
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
    const links = `"self":${u(page.url)},"related":${u(findLink(page.links, 'related')?.href ?? listUrl(page.owner.url, page.relation))}${pageLinks(page)}`;
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
