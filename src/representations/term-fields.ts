// An item's fields as the linked-data style formats write them: their terms, in the type's order.
import type { Field, ResourceType } from '../core/model/api.js';
import type { Item } from '../core/model/resource.js';
import { flat, jsonNumber, jsonString, uriChars } from '../core/json/text.js';

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

/** Per type, each readable field in term order with its member name written once (`,"name":`). */
const members = new WeakMap<ResourceType, readonly { field: Field; key: string }[]>();

function membersOf(type: ResourceType): readonly { field: Field; key: string }[] {
  let list = members.get(type);
  if (list === undefined) members.set(type, (list = type.termOrder.map((field) => ({ field, key: flat(`,${jsonString(field.term)}:`) }))));
  return list;
}

/**
 * The members of an item's fields in their terms and the type's term order, each with
 * a leading comma (`,"isbn":"9780441013593","name":"Dune",...`); fields without a value are left
 * out. `except` leaves a field out (JSON:API's id).
 *
 * @example
 * `{"_links":...${termMembers(item)}}`;
 */
export function termMembers(item: Item, except?: string): string {
  let out = '';
  const values = item.fields;
  for (const { field, key } of membersOf(item.type)) {
    const value = values[field.name];
    if (value === undefined || field.name === except) continue;
    out += key + fieldJson(field, value);
  }
  return out;
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
