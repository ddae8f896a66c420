// The pieces formats describe their documents with (JSON Schema 2020-12): an item's fields by name or by
// term, links, and the documents a format may be asked to describe (see Representation.describe).
import type { JsonSchema } from './declaration.js';
import type { Field, Relation, ResourceType } from './api.js';

/**
 * A document a format is asked to describe for the OpenAPI descriptions:
 * - `item`: an item of `type` as GET renders it;
 * - `page`: a page of `relation` (its members of type `type`), or of a search among it;
 * - `linkage`: the linkage of `relation` (GET `{item}/relationships/{name}`, formats with `renderLinkage`);
 * - `input`: a request body of `mediaType` giving `fields` of `type`: PUT's writable fields, or, with
 *   `relation`, what POST to its list reads (the fields a new member is made of, or an existing item
 *   named by its id or URL, as the relation's `add` allows);
 * - `error`: the format's own error document (formats with `renderProblem`).
 *
 * @example
 * const doc: DescribedDocument = { kind: 'item', type: api.type('player') };
 */
export type DescribedDocument =
  | { readonly kind: 'item'; readonly type: ResourceType }
  | { readonly kind: 'page'; readonly type: ResourceType; readonly relation: Relation }
  | { readonly kind: 'linkage'; readonly relation: Relation }
  | { readonly kind: 'input'; readonly type: ResourceType; readonly mediaType: string; readonly fields: readonly Field[]; readonly relation?: Relation }
  | { readonly kind: 'error' };

/**
 * A string that is an absolute URI (RFC 3986 section 4.3).
 *
 * @example
 * ({ properties: { self: URI_SCHEMA } });
 */
export const URI_SCHEMA: JsonSchema = { type: 'string', format: 'uri' };

/**
 * The href of a link: a URI, or an RFC 6570 URI Template when the link is templated.
 *
 * @example
 * ({ properties: { href: HREF_SCHEMA } });
 */
export const HREF_SCHEMA: JsonSchema = { type: 'string', minLength: 1 };

/**
 * The schema of a field's value as a document carries it: the field's schema without the annotations
 * that say who writes it (readOnly, writeOnly), which describe the field, not a value.
 *
 * @example
 * fieldValueSchema(bookType.field('isbn')!); // { type: 'string', pattern: '...' }
 */
export function fieldValueSchema(field: Field): JsonSchema {
  const { readOnly: _r, writeOnly: _w, ...schema } = field.schema as Record<string, unknown>;
  return schema;
}

/** A field's value schema with its title as the description, for the members of an object. */
function valueSchema(field: Field): JsonSchema {
  return { ...fieldValueSchema(field), description: field.title };
}

/**
 * The readable fields of a type as the members of a JSON object, by plain `name` or by `term`: their
 * schemas as `properties`, the required ones as `required` (fields a format leaves out when empty are
 * optional). `except` leaves a field out (JSON:API's id, written as `data.id`).
 *
 * @example
 * fieldMembers(bookType, 'term'); // { properties: { isbn: {...}, name: {...} }, required: ['isbn'] }
 */
export function fieldMembers(type: ResourceType, by: 'name' | 'term', except?: string): { properties: Record<string, JsonSchema>; required: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of by === 'term' ? type.termOrder : type.readable) {
    if (field.name === except) continue;
    const key = by === 'term' ? field.term : field.name;
    properties[key] = valueSchema(field);
    if (field.required) required.push(key);
  }
  return { properties, required };
}

/**
 * The writable `fields` of a request body as members by `term` (and, with `names`, by plain name too,
 * as plain JSON reads both), none required: a partial body is the schema's to judge, with the 422 the
 * description gives.
 *
 * @example
 * inputMembers(bookType.writable, false); // { isbn: {...}, name: {...} }
 */
export function inputMembers(fields: readonly Field[], names: boolean): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields) {
    properties[field.term] = valueSchema(field);
    if (names) properties[field.name] = valueSchema(field);
  }
  return properties;
}

/**
 * A JSON object schema: the members given, those named `required`, others allowed unless `closed`.
 *
 * @example
 * objectSchema({ href: HREF_SCHEMA }, ['href']);
 */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = [], closed = false): JsonSchema {
  return { type: 'object', ...(required.length ? { required: [...required] } : {}), properties, ...(closed ? { additionalProperties: false } : {}) };
}

/**
 * An array of `items`.
 *
 * @example
 * arrayOf(URI_SCHEMA);
 */
export function arrayOf(items: JsonSchema, minItems?: number): JsonSchema {
  return { type: 'array', items, ...(minItems === undefined ? {} : { minItems }) };
}

/**
 * The name a described document has among the description's schemas (`Player`, `PlayerFriendsPage`,
 * `PlayerFriendsLinkage`, `PlayerInput`, `Error`), to which a format's name is added.
 *
 * @example
 * documentName({ kind: 'page', type: player, relation: friends }); // 'PlayerFriendsPage'
 */
export function documentName(document: DescribedDocument): string {
  const upper = (s: string) => s.replace(/(^|[ -])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[ -]/g, '');
  switch (document.kind) {
    case 'item':
      return upper(document.type.name);
    case 'page':
      return `${upper(document.relation.owner.name)}${upper(document.relation.name)}Page`;
    case 'linkage':
      return `${upper(document.relation.owner.name)}${upper(document.relation.name)}Linkage`;
    case 'input':
      return document.relation ? `${upper(document.relation.owner.name)}${upper(document.relation.name)}Input` : `${upper(document.type.name)}Input`;
    case 'error':
      return 'Error';
  }
}
