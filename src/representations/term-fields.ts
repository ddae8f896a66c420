// An item's fields as the linked-data style formats write them: their terms, in the type's order.
import type { Field, ResourceType } from '../core/model/api.js';
import type { Item } from '../core/model/resource.js';
import { jsonNumber, jsonString, uriChars } from '../core/json/text.js';
import { FieldWriter, type FieldShape } from './field-text.js';

/**
 * A field value as JSON text: a string quoted (a derived URI as it stands when the resource's URIs are
 * verified, see `uriChars`), a number as JSON writes it, anything else by JSON.stringify.
 *
 * @example
 * fieldJson(type.field('title')!, 'Dune'); // '"Dune"'
 */
export function fieldJson(field: Field, value: unknown): string {
  if (typeof value === 'string') return field.derived ? `"${uriChars(value)}"` : jsonString(value);
  if (typeof value === 'number') return jsonNumber(value);
  return JSON.stringify(value) ?? 'null';
}

/** JSON object members by term: `"term":` before a value, nothing after it but its closing quote. */
const MEMBERS: FieldShape = {
  before: (field, quote) => `${jsonString(field.term)}:${quote}`,
  after: (_field, quote) => quote,
};

/** Per type, its readable fields in term order written as JSON members. */
const members = new WeakMap<ResourceType, FieldWriter>();

/**
 * The members of an item's fields in their terms and the type's term order (`"isbn":"9780441013593",
 * "name":"Dune",...`), with a leading comma unless `first`; fields without a value are left out, and
 * `except` leaves one out (JSON:API's id).
 *
 * @example
 * `{"_links":...${termMembers(item)}}`;
 */
export function termMembers(item: Item, except?: string, first = false): string {
  let writer = members.get(item.type);
  if (writer === undefined) members.set(item.type, (writer = termWriter(item.type)));
  return writer.write(item.fields, !first, except);
}

/**
 * A writer of a type's fields as JSON members by term, in term order, between fixed texts (see
 * `FieldWriter`): what a format whose item text has fixed parts around its fields merges them with.
 *
 * @example
 * const writer = termWriter(type, '","@type":"SportsTeam"', ',"members":"');
 */
export function termWriter(type: ResourceType, start = '', end = ''): FieldWriter {
  return new FieldWriter(type.termOrder, MEMBERS, start, end);
}

/**
 * The terms a body may use for a type's writable fields, in the type's term order then
 * the rest: what an error about an unknown member lists.
 *
 * @example
 * acceptedNames(bookType); // ['isbn', 'name', 'cover']
 */
export function acceptedNames(type: ResourceType): string[] {
  const names: string[] = [];
  for (const f of [...type.termOrder, ...type.writable]) {
    if (type.fieldByTerm(f.term) !== undefined && !names.includes(f.term)) names.push(f.term);
  }
  return names;
}
