// OpenAPI 3.0's schema dialect (an extended subset of JSON Schema draft-05) from the 2020-12 schemas of a 3.1
// document: nullable instead of a "null" type, enum instead of const, boolean exclusive bounds.

type Json = { [key: string]: unknown };

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keywords of 2020-12 that OpenAPI 3.0's Schema Object does not have (section 4.8.24). */
const DROPPED = new Set(['$schema', '$id', '$defs', '$comment', 'const', 'examples', 'prefixItems', 'contentMediaType', 'contentEncoding', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'contains']);

/**
 * A JSON Schema (2020-12) as an OpenAPI 3.0 Schema Object: a type array with "null" becomes the other
 * type and `nullable: true` (several types an `anyOf`), `{ type: 'null' }` in an `anyOf` the parent's
 * `nullable`, `const` a one-value `enum`, `examples` the first `example`, numeric `exclusiveMinimum` /
 * `exclusiveMaximum` the boolean form, `prefixItems` items of any kind; `$ref`s are kept.
 *
 * @example
 * toOpenApi30Schema({ type: ['string', 'null'], const: 'x' }); // { type: 'string', nullable: true, enum: ['x'] }
 */
export function toOpenApi30Schema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') return { $ref: schema.$ref };
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length < value.length) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      // Several types: one branch each, nullable where the type is (3.0 wants nullable beside a type).
      else if (types.length > 1) {
        out.anyOf = types.map((type) => (out.nullable ? { type, nullable: true } : { type }));
        delete out.nullable;
      }
    } else if (key === 'type' && value === 'null') out.nullable = true;
    else if (key === 'const') out.enum = [value];
    else if (key === 'examples' && Array.isArray(value) && value.length) out.example = value[0];
    else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'number') {
      out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = value;
      out[key] = true;
    } else if (key === 'x-nullable') out.nullable = value;
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      const kept = value.filter((s) => !(isObject(s) && s.type === 'null' && Object.keys(s).length === 1));
      const converted = kept.map(toOpenApi30Schema) as Json[];
      if (kept.length < value.length) {
        // `null` among the branches: each typed branch is nullable (3.0 wants nullable beside a type).
        for (const branch of converted) if (branch.type !== undefined) branch.nullable = true;
        if (converted.length === 1 && converted[0]!.type === undefined && converted[0]!.$ref === undefined) converted[0]!.nullable = true;
      }
      if (converted.length === 1 && isObject(converted[0]) && converted[0].$ref === undefined) Object.assign(out, converted[0]);
      else out[key] = converted;
    } else if (key === 'allOf' && Array.isArray(value)) out.allOf = value.map(toOpenApi30Schema);
    else if (key === 'properties' && isObject(value)) out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toOpenApi30Schema(v)]));
    else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isObject(value)) out[key] = toOpenApi30Schema(value);
    else if (!DROPPED.has(key)) out[key] = value;
  }
  if (Array.isArray(schema.prefixItems) && out.items === undefined) out.items = {};
  if (out.nullable === true && out.type === undefined && out.anyOf === undefined && out.$ref === undefined && Object.keys(out).length === 1) return {};
  return out;
}

/**
 * An OpenAPI 3.1 document's schemas (components and every `schema` member) in the 3.0 dialect.
 *
 * @example
 * const doc30 = toOpenApi30Document(doc31);
 */
export function toOpenApi30Document<T extends Json>(doc: T): T {
  const walk = (value: unknown, inSchemas: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, false));
    if (!isObject(value)) return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      if (inSchemas || key === 'schema') out[key] = toOpenApi30Schema(v);
      else out[key] = walk(v, key === 'schemas');
    }
    return out;
  };
  const out = walk(doc, false) as Json;
  delete out.jsonSchemaDialect;
  return out as T;
}
