// HAL-FORMS (application/prs.hal-forms+json): the HAL documents with `_templates` saying which writes and
// searches a resource offers, generated from its type's declaration, so a HAL client (ketting, Spring
// HATEOAS) can discover and submit them.
import type { Field, Relation } from '../core/model/api.js';
import { findLink, type Item, type Operation, type OperationField, type Page, type Resource } from '../core/model/resource.js';
import type { Representation } from '../core/model/representation.js';
import { describeHal, halRepresentation } from './hal.js';
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

/** An operation as a template, with its target always named (a page's own URL carries its page number). */
function templateOf(op: Operation, page: Page): Template {
  // GET submits its properties as the query; other methods a JSON body (the format ketting and Spring send).
  return {
    title: op.title,
    method: op.method,
    ...(op.method === 'GET' ? {} : { contentType: 'application/json' }),
    target: op.href,
    properties: op.fields.map((f) => propertyOf(f, page.type.fieldByTerm(f.name))),
  };
}

/** `add-member` as a template name: `addMember`. */
function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The templates of an item: `default` replaces it (PUT of its plain JSON form, its current values
 * filled in), then each to-many relation's add (POST to the list) and search.
 */
function itemTemplates(doc: Item): Record<string, Template> {
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
  const templates: Record<string, Template> = { default: { title: type.replaceTitle, method: 'PUT', contentType: 'application/json', target: doc.url, properties } };
  for (const relation of type.relations) {
    const list = findLink(doc.links, relation.name)?.href;
    if (list === undefined || relation.kind !== 'to-many') continue;
    addTemplates(templates, relation, list);
  }
  return templates;
}

/** A list's add template (its fields by term) and search template. */
function addTemplates(templates: Record<string, Template>, relation: Relation, list: string): void {
  const add = relation.add;
  if (add) {
    const target = relation.target;
    const properties = add.fields.map((name) => {
      const f = target.field(name)!;
      return propertyOf({ name: f.term, title: f.title, required: f.required, type: f.input }, f);
    });
    templates[camel(add.name)] = { title: add.title, method: 'POST', contentType: 'application/json', target: list, properties };
  }
  if (relation.search) {
    templates.search = { title: relation.search.title, method: 'GET', target: `${list}/search`, properties: [{ name: 'search', prompt: relation.search.prompt, required: true, type: 'search' }] };
  }
}

/** The templates of a page: its list's operations (adding a member as `default` on the list itself, search). */
function pageTemplates(doc: Page): Record<string, Template> {
  const templates: Record<string, Template> = {};
  const add = doc.relation.add?.name;
  for (const op of doc.operations) {
    const name = op.name === add ? (doc.search === undefined ? 'default' : camel(add)) : op.name;
    templates[name] = templateOf(op, doc);
  }
  return templates;
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
    const hal = halRepresentation.render(resource);
    const templates = resource.kind === 'item' ? itemTemplates(resource) : pageTemplates(resource);
    if (Object.keys(templates).length === 0) return hal;
    // The HAL text ends with its object's closing brace: the templates go in just before it.
    return `${hal.slice(0, -1)},"_templates":${JSON.stringify(templates)}}`;
  },
  describe: describeHalForms,
};
