// HAL-FORMS (application/prs.hal-forms+json): the HAL documents with `_templates` saying which writes and
// searches a resource offers, generated from its type's declaration, so a HAL client (ketting, Spring
// HATEOAS) can discover and submit them.
import type { Field, Relation, ResourceType } from '../core/model/api.js';
import { addOperationFields, searchOperationFields } from '../core/model/list-operations.js';
import { flat, jsonKey, jsonString, jsonUri, withUris } from '../core/json/text.js';
import { findLink, type Item, type Operation, type OperationField, type Page, type Resource } from '../core/model/resource.js';
import type { Representation } from '../core/model/representation.js';
import { describeHal, halOpenText } from './hal.js';
import { arrayOf, HREF_SCHEMA, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';
import type { JsonSchema } from '../core/model/declaration.js';

/**
 * The media type of HAL-FORMS documents (HAL-FORMS specification, "Media Type").
 *
 * @example
 * fetch(url, { headers: { Accept: HAL_FORMS_MEDIA_TYPE } });
 */
export const HAL_FORMS_MEDIA_TYPE = 'application/prs.hal-forms+json';

/** A HAL-FORMS property (specification section "property"). */
interface TemplateProperty {
  name: string;
  prompt: string;
  required: boolean;
  type: string;
  value?: string;
  maxLength?: number;
}

/** The longest value a field's schema allows, when it says. */
function maxLengthOf(field: Field | undefined): number | undefined {
  const max = (field?.schema as { maxLength?: unknown } | undefined)?.maxLength;
  return typeof max === 'number' ? max : undefined;
}

/** A property from an operation's field (a field's term, or a search text), its length limit from the type's field. */
function propertyOf(field: OperationField, declared: Field | undefined): TemplateProperty {
  const property: TemplateProperty = { name: field.name, prompt: field.title, required: field.required, type: field.type === 'hidden' ? 'hidden' : field.type };
  const max = maxLengthOf(declared);
  if (max !== undefined) property.maxLength = max;
  return property;
}

/**
 * A template's text up to its target, `{"title":T,"method":M,"contentType":"application/json","target":`
 * (a template's members, specification section "_templates", in the order title, method, contentType,
 * target, properties; GET submits its properties as the query, so it has no content
 * type, other methods a JSON body, the format ketting and Spring send).
 */
function templateHead(title: string, method: string): string {
  return `{"title":${jsonString(title)},"method":${jsonString(method)}${method === 'GET' ? '' : ',"contentType":"application/json"'},"target":`;
}

/** What follows a template's target: `,"properties":[...]}`. */
function templateTail(properties: readonly TemplateProperty[]): string {
  return `,"properties":${JSON.stringify(properties)}}`;
}

/** A template's text around its target, which every page and item writes in between. */
interface TemplateText {
  head: string;
  tail: string;
}

/** A template's text around its target, from its title, method and fields (their limits from `type`). */
function templateText(title: string, method: string, fields: readonly OperationField[], type: ResourceType): TemplateText {
  return { head: templateHead(title, method), tail: templateTail(fields.map((f) => propertyOf(f, type.fieldByTerm(f.name)))) };
}

/**
 * The texts of a relation's own templates (add, search), made once per relation from the fields every
 * document of its lists carries (`addOperationFields`, `searchOperationFields`): an item's templates and
 * a page's operations alike, only their targets differ.
 */
interface RelationTemplates {
  add: (TemplateText & { name: string; title: string }) | undefined;
  search: (TemplateText & { title: string }) | undefined;
}

const relationTemplates = new WeakMap<Relation, RelationTemplates>();

function relationTemplatesOf(relation: Relation): RelationTemplates {
  let found = relationTemplates.get(relation);
  if (found === undefined) {
    const { add, search, target } = relation;
    const kept = (title: string, method: string, fields: readonly OperationField[]) => {
      const text = templateText(title, method, fields, target);
      return { title, head: flat(text.head), tail: flat(text.tail) };
    };
    found = {
      add: add === undefined ? undefined : { name: camel(add.name), ...kept(add.title, 'POST', addOperationFields(relation)!) },
      search: search === undefined ? undefined : kept(search.title, 'GET', searchOperationFields(relation)),
    };
    relationTemplates.set(relation, found);
  }
  return found;
}

/**
 * An operation's template text around its target: the relation's kept text for its own operations (its
 * fields arrays, title and method, on a page of its target type), else made for this page.
 */
function operationTemplate(op: Operation, page: Page): TemplateText {
  const relation = page.relation;
  if (page.type === relation.target) {
    const { add, search } = relationTemplatesOf(relation);
    if (add !== undefined && op.fields === addOperationFields(relation) && op.method === 'POST' && op.title === add.title) return add;
    if (search !== undefined && op.fields === searchOperationFields(relation) && op.method === 'GET' && op.title === search.title) return search;
  }
  return templateText(op.title, op.method, op.fields, page.type);
}

/** `add-member` as a template name: `addMember`. */
function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Each type's `default` template text up to its target (PUT of its plain JSON form). */
const defaultHeads = new WeakMap<ResourceType, string>();

function defaultHead(type: ResourceType): string {
  let head = defaultHeads.get(type);
  if (head === undefined) defaultHeads.set(type, (head = flat(templateHead(type.replaceTitle, 'PUT'))));
  return head;
}

/**
 * The templates of an item, by name, as text: `default` replaces it (PUT of its plain JSON form, its
 * current values filled in), then each to-many relation's add (POST to the list) and search.
 */
function itemTemplates(doc: Item): Record<string, string> {
  const type = doc.type;
  const properties: TemplateProperty[] = [];
  for (const f of type.writable) {
    if (f.name === type.idField) continue;
    const property: TemplateProperty = { name: f.name, prompt: f.title, required: f.required, type: f.input === 'hidden' ? 'hidden' : f.input };
    // HAL-FORMS "property": value is a string; a number or a boolean is written as its JSON text (the
    // service reads such text back for a number field, docs/decisions.md, "The resource model" (values from forms)).
    const value = doc.fields[f.name];
    if (typeof value === 'string') property.value = value;
    else if (typeof value === 'number' || typeof value === 'boolean') property.value = String(value);
    const max = maxLengthOf(f);
    if (max !== undefined) property.maxLength = max;
    properties.push(property);
  }
  const templates: Record<string, string> = { default: `${defaultHead(type)}${jsonUri(doc.url)}${templateTail(properties)}` };
  for (const relation of type.relations) {
    const list = findLink(doc.links, relation.name)?.href;
    if (list === undefined || relation.kind !== 'to-many') continue;
    const { add, search } = relationTemplatesOf(relation);
    if (add !== undefined) templates[add.name] = `${add.head}${jsonUri(list)}${add.tail}`;
    if (search !== undefined) templates.search = `${search.head}${jsonUri(`${list}/search`)}${search.tail}`;
  }
  return templates;
}

/** The templates of a page, by name, as text: its list's operations (adding a member as `default` on the list itself, search). */
function pageTemplates(doc: Page): Record<string, string> {
  const templates: Record<string, string> = {};
  const add = doc.relation.add?.name;
  for (const op of doc.operations) {
    const name = op.name === add ? (doc.search === undefined ? 'default' : camel(add)) : op.name;
    const text = operationTemplate(op, doc);
    templates[name] = `${text.head}${jsonUri(op.href)}${text.tail}`;
  }
  return templates;
}

/**
 * `_templates`' object from the templates' texts by name, in the order JSON.stringify writes an object's
 * members (a name given twice keeps its first place and its last text); '' when there are none.
 */
function templatesText(templates: Record<string, string>): string {
  let out = '';
  for (const name in templates) out += `${out === '' ? '{' : ','}${jsonKey(name)}${templates[name]!}`;
  return out === '' ? '' : `${out}}`;
}

/** A template (specification section "_templates") and its properties. */
const TEMPLATE_SCHEMA = objectSchema(
  {
    title: { type: 'string' },
    method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
    contentType: { type: 'string' },
    target: HREF_SCHEMA,
    properties: arrayOf(
      objectSchema(
        { name: { type: 'string', minLength: 1 }, prompt: { type: 'string' }, required: { type: 'boolean' }, type: { type: 'string' }, value: { type: 'string' }, maxLength: { type: 'integer', minimum: 0 } },
        ['name'],
        true,
      ),
    ),
  },
  ['method'],
  true,
);

/**
 * The JSON Schema of a HAL-FORMS document: the HAL one (see `describeHal`) with `_templates`.
 *
 * @example
 * describeHalForms({ kind: 'item', type: bookType }).properties._templates;
 */
export function describeHalForms(document: DescribedDocument): JsonSchema | undefined {
  if (document.kind !== 'item' && document.kind !== 'page') return undefined;
  const hal = describeHal(document) as { properties: Record<string, JsonSchema> };
  return { ...hal, properties: { ...hal.properties, _templates: { type: 'object', additionalProperties: TEMPLATE_SCHEMA } } };
}

/**
 * HAL-FORMS: the HAL document (links, state, embedded items) with `_templates` generated from the
 * type's declaration. An item offers `default` (PUT, its values filled in) and, per list, its add
 * template and `search`; a list `default` (add a member, POST to the list) and `search`; a search page
 * its add template and `search`. Bodies are JSON (`contentType: application/json`); a GET template's
 * properties go in the query. Properties carry the `maxLength` their field's schema gives.
 *
 * @example
 * const res = await service.fetch(new Request(itemUrl, { headers: { Accept: 'application/prs.hal-forms+json' } }));
 * (await res.json())._templates.default.method; // 'PUT'
 */
export const halFormsRepresentation: Representation = {
  name: 'hal-forms',
  title: 'HAL-FORMS',
  mediaType: HAL_FORMS_MEDIA_TYPE,
  render(resource: Resource): string {
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object:
    // the HAL text without its closing brace, then `_templates`.
    return withUris(resource, () => {
      const templates = templatesText(resource.kind === 'item' ? itemTemplates(resource) : pageTemplates(resource));
      const hal = halOpenText(resource);
      return templates === '' ? `${hal}}` : `${hal},"_templates":${templates}}`;
    });
  },
  describe: describeHalForms,
};
