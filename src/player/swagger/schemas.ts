// JSON Schemas as Swagger 2.0 Schema Objects (a draft-04 subset), and the friend payload derived from the player schema.

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
 * The friend creation payload (name, alternateName, image), or a reference to an existing
 * player (playerId or @id), derived from the player schema through the alternate field names, so that
 * the constraints are those the service validates with.
 *
 * @example
 * friendPayloadSchema(PLAYER_SCHEMA).properties; // { name, alternateName, image, playerId, '@id' }
 */
export function friendPayloadSchema(playerSchema: SchemaObject): SchemaObject {
  const props = (playerSchema.properties ?? {}) as Record<string, SchemaObject>;
  const pick = (name: string, description: string): SchemaObject => ({ ...structuredClone(props[name] ?? { type: 'string' }), description });
  return {
    title: 'FriendPayload',
    description:
      'A new friend (name, alternateName, image: created with a server-chosen id), or an existing player to add (playerId, or @id: its URL). ' +
      'The same fields are read from every registered format (HAL, Siren action fields, Collection+JSON template, JSON:API attributes...).',
    type: 'object',
    properties: {
      name: pick('displayName', 'Full name shown for the player (displayName)'),
      alternateName: pick('alias', 'Short handle of the player (alias); required for a new player'),
      image: pick('image', 'Absolute http(s) URL of a picture; the avatar redirects to it until one is uploaded'),
      playerId: pick('playerId', 'The id of an existing player to add as a friend'),
      '@id': { type: 'string', format: 'uri', description: 'The URL of an existing player to add as a friend' },
    },
  };
}
