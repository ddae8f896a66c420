// HAL-FORMS (application/prs.hal-forms+json): the HAL documents with `_templates` saying which writes and
// searches a resource offers, generated from its type's declaration, so a HAL client (ketting, Spring
// HATEOAS) can discover and submit them.
import type { Field, Relation, ResourceType } from '../core/model/api.js';
import { addOperationFields, searchOperationFields } from '../core/model/documents.js';
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

/** A HAL-FORMS template (specification section "_templates"). */
interface Template {
  title: string;
  method: string;
  contentType?: string;
  target?: string;
  properties: TemplateProperty[];
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
 * (the members in `Template`'s order; GET submits its properties as the query, so it has no content
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

/**
 * The texts of the templates of a relation's own operations (add, search), made once per relation: the
 * operations of every page and item of its lists carry the relation's field arrays
 * (`addOperationFields`, `searchOperationFields`), so only their targets differ. `forPage` are those of
 * a page's operations (their properties' limits from the page's type), `add` and `search` those of an
 * item's relations.
 */
interface RelationTemplates {
  forPage: Map<string, { title: string; method: string; type: ResourceType; text: TemplateText }>;
  add: (TemplateText & { name: string }) | undefined;
  search: TemplateText | undefined;
}

const relationTemplates = new WeakMap<Relation, RelationTemplates>();

function relationTemplatesOf(relation: Relation): RelationTemplates {
  let found = relationTemplates.get(relation);
  if (found === undefined) {
    const add = relation.add;
    const target = relation.target;
    const search = relation.search;
    found = {
      forPage: new Map(),
      add:
        add === undefined
          ? undefined
          : {
              name: camel(add.name),
              head: flat(templateHead(add.title, 'POST')),
              tail: flat(
                templateTail(
                  add.fields.map((name) => {
                    const f = target.field(name)!;
                    return propertyOf({ name: f.term, title: f.title, required: f.required, type: f.input }, f);
                  }),
                ),
              ),
            },
      search:
        search === undefined
          ? undefined
          : { head: flat(templateHead(search.title, 'GET')), tail: flat(templateTail([{ name: 'search', prompt: search.prompt, required: true, type: 'search' }])) },
    };
    relationTemplates.set(relation, found);
  }
  return found;
}

/** An operation's template text around its target (its properties' limits from the page's type): kept with the relation for its own operations. */
function operationTemplate(op: Operation, page: Page): TemplateText {
  const relation = page.relation;
  const own = op.fields === addOperationFields(relation) ? 'add' : relation.search !== undefined && op.fields === searchOperationFields(relation) ? 'search' : undefined;
  const kept = own === undefined ? undefined : relationTemplatesOf(relation).forPage.get(own);
  if (kept !== undefined && kept.title === op.title && kept.method === op.method && kept.type === page.type) return kept.text;
  const properties = op.fields.map((f) => propertyOf(f, page.type.fieldByTerm(f.name)));
  const text = { head: templateHead(op.title, op.method), tail: templateTail(properties) };
  if (own === undefined) return text;
  const flatText = { head: flat(text.head), tail: flat(text.tail) };
  relationTemplatesOf(relation).forPage.set(own, { title: op.title, method: op.method, type: page.type, text: flatText });
  return flatText;
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
