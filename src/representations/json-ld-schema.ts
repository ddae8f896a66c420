// The JSON Schemas of JSON-LD documents (for the OpenAPI descriptions): a type's node, a Hydra collection page,
// a request node.
import type { ResourceType } from '../core/model/api.js';
import type { JsonSchema } from '../core/model/declaration.js';
import { arrayOf, fieldMembers, HREF_SCHEMA, inputMembers, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';

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
