// The JSON Schemas of Collection+JSON documents (for the OpenAPI descriptions): a collection of one item or of a
// page, and the write template a body sends.
import type { ResourceType } from '../core/model/api.js';
import type { JsonSchema } from '../core/model/declaration.js';
import { arrayOf, fieldValueSchema, HREF_SCHEMA, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';

const VALUE_SCHEMA: JsonSchema = { type: ['string', 'number', 'boolean', 'null'] };
const LINK_SCHEMA = objectSchema({ rel: { type: 'string' }, href: HREF_SCHEMA, prompt: { type: 'string' }, render: { enum: ['link', 'image'] }, name: { type: 'string' } }, ['rel', 'href'], true);
const DATA_SCHEMA = objectSchema({ name: { type: 'string' }, value: VALUE_SCHEMA, prompt: { type: 'string' } }, ['name'], true);
const QUERY_SCHEMA = objectSchema({ rel: { type: 'string' }, href: HREF_SCHEMA, name: { type: 'string' }, prompt: { type: 'string' }, data: arrayOf(DATA_SCHEMA) }, ['rel', 'href'], true);

/** An entry of an item's `data` (section 2.3.4): one of the type's fields by term, with a value its schema allows. */
function itemDataSchema(type: ResourceType): JsonSchema {
  return {
    anyOf: type.termOrder.map((f) => objectSchema({ name: { const: f.term }, value: fieldValueSchema(f), prompt: { type: 'string' } }, ['name', 'value'], true)),
  };
}

/**
 * The JSON Schema of a Collection+JSON document (section 2): a `collection` of version 1.0 whose items
 * carry the type's fields as data entries by alternate name, with links, queries and, on pages, the
 * write template; a body a `template` of data entries.
 *
 * @example
 * describeCollectionJson({ kind: 'item', type: bookType }).required; // ['collection']
 */
export function describeCollectionJson(document: DescribedDocument): JsonSchema | undefined {
  if (document.kind === 'input') {
    const names = document.fields.map((f) => f.term);
    const entry = objectSchema({ name: { enum: names }, value: VALUE_SCHEMA, prompt: { type: 'string' } }, ['name'], true);
    return objectSchema({ template: objectSchema({ data: arrayOf(entry) }, ['data']) }, ['template'], true);
  }
  if (document.kind !== 'item' && document.kind !== 'page') return undefined;
  const item = objectSchema({ href: HREF_SCHEMA, data: arrayOf(itemDataSchema(document.type)), links: arrayOf(LINK_SCHEMA) }, ['href', 'data'], true);
  const collection = objectSchema(
    {
      version: { const: '1.0' },
      href: HREF_SCHEMA,
      links: arrayOf(LINK_SCHEMA),
      items: document.kind === 'item' ? { ...arrayOf(item, 1), maxItems: 1 } : arrayOf(item),
      queries: arrayOf(QUERY_SCHEMA),
      template: objectSchema({ data: arrayOf(DATA_SCHEMA) }, ['data'], true),
    },
    ['version', 'href', 'items'],
    true,
  );
  return objectSchema({ collection }, ['collection'], true);
}
