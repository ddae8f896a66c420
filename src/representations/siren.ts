// Siren (application/vnd.siren+json): entities with class, properties, links, sub-entities and actions.
import { keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import type { ItemInput, Representation } from '../core/model/representation.js';
import type { Api, ResourceType } from '../core/model/api.js';
import { findLink, type Item, type Link, type Operation, type Page, type Resource } from '../core/model/resource.js';
import { flat, holes, interleave, jsonNumber, jsonString, jsonUri, uriChars, urisAreVerified, withUris } from '../core/json/text.js';
import { derivableRelations } from './derived-links.js';
import { embeddedRelations, relationType } from './link-relations.js';
import { inputFromTerms, pointerToken, requireObject } from './term-input.js';
import { termMembers } from './term-fields.js';
import { arrayOf, fieldMembers, HREF_SCHEMA, inputMembers, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';
import type { JsonSchema } from '../core/model/declaration.js';

/**
 * The media type of Siren (https://github.com/kevinswiber/siren).
 *
 * @example
 * fetch(url, { headers: { Accept: SIREN_MEDIA_TYPE } });
 */
export const SIREN_MEDIA_TYPE = 'application/vnd.siren+json';

/** The form encoding of Siren actions (the spec's default `type` when an action has fields). */
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** The start of a Siren link to `rel`, up to its href's characters, by API then relation. */
const linkHeads = new WeakMap<Api, Map<string, string>>();

/** `{"rel":["<relation type>"],"href":"` of a relation of an API. */
function linkHead(rel: string, api: Api): string {
  let heads = linkHeads.get(api);
  if (heads === undefined) linkHeads.set(api, (heads = new Map()));
  let head = heads.get(rel);
  if (head === undefined) {
    head = flat(`{"rel":[${jsonString(relationType(rel, api))}],"href":"`);
    if (heads.size < 256) heads.set(rel, head);
  }
  return head;
}

/** The end of a Siren link after its href's characters: its title and type when present. */
function linkTail(l: Link): string {
  if (l.title === undefined && l.type === undefined) return '"}';
  let out = '"';
  if (l.title !== undefined) out += `,"title":${jsonString(l.title)}`;
  if (l.type !== undefined) out += `,"type":${jsonString(l.type)}`;
  return `${out}}`;
}

function sirenLink(l: Link, api: Api): string {
  return `${linkHead(l.rel, api)}${uriChars(l.href)}${linkTail(l)}`;
}

/** `"links":[...]`: every link that is a URI; templated links become actions (see sirenActions). */
function sirenLinks(links: readonly Link[], api: Api): string {
  let out = '"links":[';
  let sep = '';
  for (const l of links) {
    if (l.templated) continue;
    out += sep + sirenLink(l, api);
    sep = ',';
  }
  return `${out}]`;
}

interface ActionField {
  name: string;
  type: string;
  title: string;
}

/** A Siren action; its fields are sent as a form, the spec's default `type` (Siren, "Actions"). */
function sirenAction(name: string, title: string, method: string, href: string, fields: readonly ActionField[]): string {
  let out = `{"name":${jsonString(name)},"class":[${jsonString(name)}],"title":${jsonString(title)},"method":${jsonString(method)},"href":${jsonUri(href)},"type":"${FORM_MEDIA_TYPE}","fields":[`;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    out += `${i ? ',' : ''}{"name":${jsonString(f.name)},"type":${jsonString(f.type)},"title":${jsonString(f.title)}}`;
  }
  return `${out}]}`;
}

/**
 * `"actions":[...]`: the resource's operations, then its RFC 6570 form-style query templates
 * (`href{?a,b}`) as GET actions with one field per variable; undefined when there is none.
 */
function sirenActions(operations: readonly Operation[], links: readonly Link[]): string | undefined {
  const actions: string[] = [];
  for (const op of operations) actions.push(sirenAction(op.name, op.title, op.method, op.href, op.fields));
  for (const l of links) {
    if (!l.templated || operations.some((o) => o.name === l.rel)) continue;
    const m = /^([^{]*)\{\?([^}]+)\}$/.exec(l.href);
    if (!m) continue;
    const fields = m[2]!.split(',').map((name) => ({ name, type: name === 'search' ? 'search' : 'text', title: name }));
    actions.push(sirenAction(l.rel, l.title ?? l.rel, 'GET', m[1]!, fields));
  }
  return actions.length ? `"actions":[${actions.join(',')}]` : undefined;
}

/** `"properties":{...}`: an item's fields in their alternate names. */
function properties(item: Item): string {
  return `"properties":{${termMembers(item, undefined, true)}}`;
}

function itemEntity(r: Item): string {
  const actions = sirenActions(r.operations, r.links);
  return `{"class":[${jsonString(r.type.name)}],${properties(r)},${actions === undefined ? '' : `${actions},`}${sirenLinks(r.links, r.type.api)}}`;
}

/**
 * A member as a sub-entity (rel `item`): an embedded representation with its properties and the links
 * a client follows from a list, `self` and its relations. Its other links (a picture's URL also shown as
 * a property) are left out; its search action is on its own representation.
 */
/** Per type, `{"class":["<name>"],"rel":["item"],"properties":{` and its embedded relations with their link heads. */
const subEntityTexts = new WeakMap<ResourceType, { head: string; rels: readonly string[]; heads: readonly string[] }>();

function subEntityTextOf(type: ResourceType): { head: string; rels: readonly string[]; heads: readonly string[] } {
  let text = subEntityTexts.get(type);
  if (text === undefined) {
    const rels = embeddedRelations(type);
    text = { head: flat(`{"class":[${jsonString(type.name)}],"rel":["item"],"properties":{`), rels, heads: rels.map((rel) => linkHead(rel, type.api)) };
    subEntityTexts.set(type, text);
  }
  return text;
}

/** Per type whose relation links derive from an item's URL: a sub-entity's links around its URL (`holes`). */
const subEntityHoles = new WeakMap<ResourceType, readonly string[] | null>();

function subEntityHolesOf(type: ResourceType): readonly string[] | null {
  let found = subEntityHoles.get(type);
  if (found === undefined) {
    const relations = derivableRelations(type);
    found = relations ? holes(`},"links":[${linkHead('self', type.api)}\u0000"}${relations.map((r) => `,${linkHead(r.name, type.api)}\u0000/${r.path}"}`).join('')}]}`) : null;
    subEntityHoles.set(type, found);
  }
  return found;
}

/** The text of each shared listed item (`keptItemText`). */
const listedTexts = keptTextSlot();

function subEntity(r: Item): string {
  const derived = urisAreVerified() ? subEntityHolesOf(r.type) : null;
  if (derived !== null) return `${subEntityTextOf(r.type).head}${termMembers(r, undefined, true)}${interleave(derived, r.url)}`;
  const { head, rels, heads } = subEntityTextOf(r.type);
  let links = '';
  for (let i = 0; i < rels.length; i++) {
    const link = findLink(r.links, rels[i]!);
    if (link === undefined || link.templated) continue;
    const text = heads[i]! + uriChars(link.href) + linkTail(link);
    links = links === '' ? text : `${links},${text}`;
  }
  return `${head}${termMembers(r, undefined, true)}},"links":[${links}]}`;
}

function pageEntity(r: Page): string {
  const p = r.paging;
  const kind = r.search !== undefined ? r.relation.search!.className : r.relation.name;
  // Collection-style forms carry `size`, a string holding the count of items on the page.
  // A search that stopped counting gives `totalAtLeast` and no lastPage.
  const totals = p.totalIsLowerBound ? `"totalAtLeast":${jsonNumber(p.total)}` : `"total":${jsonNumber(p.total)},"lastPage":${jsonNumber(p.lastPage)}`;
  let head = `{"class":[${jsonString(kind)},"collection"],"properties":{"size":${jsonString(String(p.size))},"page":${jsonNumber(p.page)},"pageSize":${jsonNumber(p.pageSize)},${totals}`;
  if (r.search !== undefined) head += `,"search":${jsonString(r.search)}`;
  const entities = new Array<string>(r.items.length);
  for (let i = 0; i < r.items.length; i++) entities[i] = keptItemText(listedTexts, r.items[i]!, subEntity);
  const actions = sirenActions(r.operations, r.links) ?? '"actions":[]';
  return `${head}},"entities":[${entities.join(',')}],${actions},${sirenLinks(r.links, r.type.api)}}`;
}

/**
 * The fields of a Siren action body as [name, value, JSON Pointer] entries, own members only: a form's
 * empty field means "not given", a repeated one is kept as a list (and then refused by validation).
 */
function fieldsOf(body: unknown): [string, unknown, string][] {
  if (body instanceof URLSearchParams) {
    const entries: [string, unknown, string][] = [];
    for (const key of new Set(body.keys())) {
      const values = body.getAll(key).filter((v) => v !== '');
      if (values.length) entries.push([key, values.length === 1 ? values[0] : values, `/${pointerToken(key)}`]);
    }
    return entries;
  }
  const object = requireObject(body, 'Siren action');
  return Object.keys(object).map((key) => [key, object[key], `/${pointerToken(key)}`]);
}

/**
 * Reads Siren action fields (a form, or a JSON object) for `type`: the fields in their alternate
 * names; the id field alone adds that existing item (docs/decisions.md).
 *
 * @example
 * readSirenBody(new URLSearchParams('name=Dune'), bookType); // { fields: { title: 'Dune' }, ... }
 */
export function readSirenBody(body: unknown, type: ResourceType): ItemInput {
  const entries = fieldsOf(body);
  const id = type.field(type.idField)!.term;
  if (entries.length === 1 && entries[0]![0] === id) return { fields: {}, ref: String(entries[0]![1]), pointers: { ref: `/${pointerToken(id)}` } };
  return inputFromTerms(type, entries);
}

const STRINGS = arrayOf({ type: 'string' }, 1);
const LINK_SCHEMA = objectSchema({ rel: STRINGS, href: HREF_SCHEMA, title: { type: 'string' }, type: { type: 'string' } }, ['rel', 'href'], true);
const ACTION_SCHEMA = objectSchema(
  {
    name: { type: 'string' },
    class: STRINGS,
    title: { type: 'string' },
    method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    href: HREF_SCHEMA,
    type: { type: 'string' },
    fields: arrayOf(objectSchema({ name: { type: 'string' }, type: { type: 'string' }, title: { type: 'string' }, value: {} }, ['name'], true)),
  },
  ['name', 'href'],
  true,
);

/**
 * The JSON Schema of a Siren document: an item is an entity of its type's class with its fields by
 * alternate name in `properties`, its links and actions; a page an entity of its relation's class and
 * `collection` with the paging numbers in `properties`, one sub-entity (rel `item`) per member, actions
 * and links; a body the action's fields, as a JSON object or a form.
 *
 * @example
 * describeSiren({ kind: 'item', type: bookType }).required; // ['class', 'properties', 'links']
 */
export function describeSiren(document: DescribedDocument): JsonSchema | undefined {
  switch (document.kind) {
    case 'item': {
      const { properties, required } = fieldMembers(document.type, 'term');
      return objectSchema(
        { class: arrayOf({ const: document.type.name }, 1), properties: objectSchema(properties, required, true), actions: arrayOf(ACTION_SCHEMA), links: arrayOf(LINK_SCHEMA) },
        ['class', 'properties', 'links'],
        true,
      );
    }
    case 'page': {
      const { properties, required } = fieldMembers(document.type, 'term');
      const count = { type: 'integer', minimum: 0 };
      const entity = objectSchema({ class: arrayOf({ const: document.type.name }, 1), rel: STRINGS, properties: objectSchema(properties, required, true), links: arrayOf(LINK_SCHEMA) }, ['class', 'rel', 'properties', 'links'], true);
      return objectSchema(
        {
          class: { type: 'array', prefixItems: [{ type: 'string' }, { const: 'collection' }], minItems: 2, maxItems: 2 },
          properties: objectSchema(
            { size: { type: 'string', pattern: '^[0-9]+$' }, page: { type: 'integer', minimum: 1 }, pageSize: count, total: count, totalAtLeast: count, lastPage: { type: 'integer', minimum: 1 }, search: { type: 'string' } },
            ['size', 'page', 'pageSize'],
            true,
          ),
          entities: arrayOf(entity),
          actions: arrayOf(ACTION_SCHEMA),
          links: arrayOf(LINK_SCHEMA),
        },
        ['class', 'properties', 'entities', 'actions', 'links'],
        true,
      );
    }
    case 'input':
      return objectSchema(inputMembers(document.fields, false));
    default:
      return undefined;
  }
}

/**
 * Siren: an item is an entity of its type's class with its fields in `properties` (alternate names)
 * and links with rel arrays (the API's own relations as IRIs of its vocabulary). A page has
 * `properties.size` (a string) and the paging numbers, one sub-entity per member (rel `item`, with its
 * properties and its self and relation links), the add action (POST, form fields with HTML5 input
 * types) and a `search` action. Request bodies are action fields, as a form
 * (application/x-www-form-urlencoded) or as a JSON object (application/vnd.siren+json).
 *
 * @example
 * const body = JSON.parse(sirenRepresentation.render(itemDoc));
 * body.class; // ['book']
 */
export const sirenRepresentation: Representation = {
  name: 'siren',
  title: 'Siren',
  mediaType: SIREN_MEDIA_TYPE,
  bodyMediaTypes: [SIREN_MEDIA_TYPE, FORM_MEDIA_TYPE],
  render(resource: Resource): string {
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object.
    return withUris(resource, () => (resource.kind === 'item' ? itemEntity(resource) : pageEntity(resource)));
  },
  readBody: (body, _mediaType, type) => readSirenBody(body, type),
  describe: describeSiren,
};
