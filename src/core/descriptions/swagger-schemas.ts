// JSON Schemas as Swagger 2.0 Schema Objects (a draft-04 subset), and the payload of a list's POST made from its target's fields.
import type { Field, Relation } from '../model/api.js';

/**
 * A JSON Schema or Swagger Schema Object, loosely typed.
 *
 * @example
 * const schema: SchemaObject = { type: 'string', minLength: 1 };
 */
export type SchemaObject = { [keyword: string]: unknown };

// Swagger 2.0 section "Schema Object": the JSON Schema keywords it keeps, plus its own.
const KEPT = new Set([
  '$ref', 'format', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxProperties',
  'minProperties', 'required', 'enum', 'type', 'items', 'allOf', 'properties', 'additionalProperties',
  'discriminator', 'readOnly', 'xml', 'externalDocs', 'example',
]);

/**
 * Converts a JSON Schema (draft-04 to 2020-12 keywords) to a Swagger 2.0 Schema Object: `const`
 * becomes a one-value `enum`, `examples` the first `example`, a `[type, 'null']` type its type plus
 * `x-nullable`, numeric `exclusiveMinimum`/`exclusiveMaximum` the draft-04 boolean form, `$ref`s into
 * `$defs`/`definitions` point at `#/definitions/`; keywords Swagger 2.0 lacks (`$schema`, `$id`,
 * `oneOf`, `if`...) are dropped. The input is not changed.
 *
 * @example
 * toSwaggerSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: ['string', 'null'], const: 'x' });
 * // { type: 'string', 'x-nullable': true, enum: ['x'] }
 */
export function toSwaggerSchema(schema: SchemaObject): SchemaObject {
  const out: SchemaObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-')) out[key] = structuredClone(value);
    else if (key === 'const') out.enum = [structuredClone(value)];
    else if (key === 'examples' && Array.isArray(value) && value.length) out.example = structuredClone(value[0]);
    else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length === 1) out.type = types[0];
      if (types.length < value.length) out['x-nullable'] = true;
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number') {
      out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = value;
      out[key] = true;
    } else if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(/^#\/(\$defs|definitions)\//, '#/definitions/');
    else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, toSwaggerSchema(s as SchemaObject)]));
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = toSwaggerSchema(value);
    else if (key === 'allOf' && Array.isArray(value)) out.allOf = value.map((s) => toSwaggerSchema(s as SchemaObject));
    else if (KEPT.has(key)) out[key] = structuredClone(value);
  }
  return out;
}

function isObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What POST to a list reads: a new member from the fields the relation's `add` names (by their terms,
 * as every format reads them), or a reference to an existing item (its id field, or @id: its URL), made
 * from the target type's field schemas, so that the constraints are those the service validates with.
 *
 * @example
 * memberPayloadSchema(friends).properties; // { name, alternateName, image, playerId, '@id' }
 */
export function memberPayloadSchema(relation: Relation): SchemaObject {
  const target = relation.target;
  const add = relation.add!;
  const pick = (field: Field, description: string): SchemaObject => ({ ...structuredClone(field.schema as SchemaObject), description });
  const properties: Record<string, SchemaObject> = {};
  const t = target.title.toLowerCase();
  if (add.create !== false) {
    for (const name of add.fields) {
      const field = target.field(name)!;
      const required = field.required ? `; required for a new ${t}` : '';
      properties[field.term] = pick(field, `${String(field.schema.description ?? field.title)} (${field.name})${required}`);
    }
  }
  if (add.reference !== false) {
    const id = target.field(target.idField)!;
    properties[id.term] = pick(id, `The id of an existing ${t} to add as a ${relation.member}`);
    properties['@id'] = { type: 'string', format: 'uri', description: `The URL of an existing ${t} to add as a ${relation.member}` };
  }
  const fields = add.fields.map((n) => target.field(n)!.term).join(', ');
  return {
    title: `${capitalized(relation.member)}Payload`,
    description:
      `A new ${relation.member} (${fields}: created with a server-chosen id), or an existing ${t} to add (${target.idField}, or @id: its URL). ` +
      'The same fields are read from every registered format (HAL, Siren action fields, Collection+JSON template, JSON:API attributes...).',
    type: 'object',
    properties,
  };
}

/**
 * A name in upper camel case (`add friend` to `AddFriend`), for schema names and operation ids.
 *
 * @example
 * capitalized('friend'); // 'Friend'
 */
export function capitalized(name: string): string {
  return name.replace(/(^|[ -])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
}
