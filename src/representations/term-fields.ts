// An item's fields as the linked-data style formats write them: their terms, in the type's order.
import type { Field, ResourceType } from '../core/model/api.js';
import type { Item } from '../core/model/resource.js';
import { flat, jsonChars, jsonNumber, jsonString, uriChars } from '../core/json/text.js';

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

/**
 * A type's readable fields in term order, as parallel arrays (an index loop over them is what the
 * formats' hot loop reads): the plain names to read values by, whether each is derived (a URI of this
 * service), and each member name written once, with and without a leading comma, and with the opening
 * quote of a string value.
 */
interface Members {
  fields: readonly Field[];
  names: readonly string[];
  derived: readonly boolean[];
  /** `,"term":` and `"term":` (the first member of an object) */
  keys: readonly string[];
  firsts: readonly string[];
  /** `,"term":"` and `"term":"`: before a string's characters. */
  keyQuotes: readonly string[];
  firstQuotes: readonly string[];
}

/** Per type, its members (see `Members`). */
const members = new WeakMap<ResourceType, Members>();

function membersOf(type: ResourceType): Members {
  let found = members.get(type);
  if (found === undefined) {
    const fields = type.termOrder;
    const name = (f: Field) => jsonString(f.term);
    found = {
      fields,
      names: fields.map((f) => f.name),
      derived: fields.map((f) => f.derived !== undefined),
      keys: fields.map((f) => flat(`,${name(f)}:`)),
      firsts: fields.map((f) => flat(`${name(f)}:`)),
      keyQuotes: fields.map((f) => flat(`,${name(f)}:"`)),
      firstQuotes: fields.map((f) => flat(`${name(f)}:"`)),
    };
    members.set(type, found);
  }
  return found;
}

/**
 * The members of an item's fields in their terms and the type's term order (`"isbn":"9780441013593",
 * "name":"Dune",...`), with a leading comma unless `first`; fields without a value are left out, and
 * `except` leaves one out (JSON:API's id).
 *
 * @example
 * `{"_links":...${termMembers(item)}}`;
 */
export function termMembers(item: Item, except?: string, first = false): string {
  const m = membersOf(item.type);
  const values = item.fields;
  const names = m.names;
  let out = '';
  let lead = first;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = values[name];
    if (value === undefined || name === except) continue;
    if (typeof value === 'string') out += (lead ? m.firstQuotes[i]! : m.keyQuotes[i]!) + (m.derived[i] ? uriChars(value) : jsonChars(value)) + '"';
    else out += (lead ? m.firsts[i]! : m.keys[i]!) + fieldJson(m.fields[i]!, value);
    lead = false;
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
