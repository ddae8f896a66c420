// The JSON Schemas of JSON:API documents (for the OpenAPI descriptions): resource objects of a type, pages,
// linkage, errors, request documents.
import type { ResourceType } from '../core/model/api.js';
import type { JsonSchema } from '../core/model/declaration.js';
import { arrayOf, fieldValueSchema, HREF_SCHEMA, inputMembers, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';
import { attributeFields } from './json-api-members.js';

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
  for (const f of attributeFields(type)) properties[f.term] = fieldValueSchema(f);
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
