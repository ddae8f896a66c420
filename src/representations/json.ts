// Plain JSON (application/json): an item as an object of its fields' plain names, a page as an array of items.
import { HttpError } from '../core/http/problem.js';
import type { ItemInput, Representation } from '../core/model/representation.js';
import type { ResourceType } from '../core/model/api.js';
import type { Item, Resource } from '../core/model/resource.js';
import { isSharedDocument, keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import { arrayOf, fieldMembers, inputMembers, objectSchema, URI_SCHEMA, type DescribedDocument } from '../core/model/document-schemas.js';
import type { JsonSchema } from '../core/model/declaration.js';

/**
 * The media type of the plain JSON representation.
 *
 * @example
 * fetch(url, { headers: { Accept: JSON_MEDIA_TYPE } });
 */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * Reads a plain JSON body for `type`: an item with the plain field names or the alternate ones (those
 * of the linked-data formats, when they differ), or a reference to an existing item by its id field or
 * `@id`. Other members pass through, so that the schema rejects them.
 *
 * @example
 * readJsonItem({ name: 'Dune' }, bookType); // { fields: { title: 'Dune' }, pointers: { title: '/name' } }
 * readJsonItem({ '@id': 'https://x.test/book/dune' }, bookType); // { fields: {}, ref: 'https://x.test/book/dune' }
 */
export function readJsonItem(body: unknown, type: ResourceType): ItemInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, `The body must be a JSON object describing a ${type.title.toLowerCase()}.`, { errors: [{ pointer: '', detail: 'must be object' }] });
  }
  const fields: Record<string, unknown> = {};
  const pointers: Record<string, string> = {};
  const clashes: { pointer: string; detail: string }[] = [];
  let ref: string | undefined;
  const members = body as Record<string, unknown>;
  for (const member of Object.keys(members)) {
    const value = members[member];
    if (member === '@id') {
      if (typeof value !== 'string') throw new HttpError(400, 'The body has members of the wrong JSON type.', { errors: [{ pointer: '/@id', detail: 'must be string' }] });
      ref = value;
      continue;
    }
    // An alternate name that is not a plain one stands for its field.
    const byAlternate = type.field(member) === undefined ? type.fieldByTerm(member) : undefined;
    const plain = byAlternate?.name ?? member;
    if (Object.hasOwn(fields, plain)) {
      clashes.push({ pointer: `/${member}`, detail: `gives ${plain} a second time` });
      continue;
    }
    // defineProperty: a member named "__proto__" stays an own member (and is then rejected by the schema).
    if (plain === '__proto__') Object.defineProperty(fields, plain, { value, enumerable: true, writable: true, configurable: true });
    else fields[plain] = value;
    if (plain !== member) pointers[plain] = `/${member}`;
  }
  if (clashes.length) {
    const renamed = type.writable.filter((f) => f.term !== f.name);
    throw new HttpError(422, `Use either the plain names (${renamed.map((f) => f.name).join(', ')}) or the alternate ones (${renamed.map((f) => f.term).join(', ')}).`, { errors: clashes });
  }
  return ref === undefined ? { fields, pointers } : { fields, pointers, ref };
}

/**
 * The JSON Schema of a plain JSON document: an item is its readable fields by plain name, nothing
 * else; a page an array of items; a body the writable fields by plain or alternate name, or `@id`.
 *
 * @example
 * describeJson({ kind: 'item', type: bookType }).properties; // { isbn: {...}, title: {...} }
 */
export function describeJson(document: DescribedDocument): JsonSchema | undefined {
  switch (document.kind) {
    case 'item': {
      const { properties, required } = fieldMembers(document.type, 'name');
      return objectSchema(properties, required, true);
    }
    case 'page':
      return arrayOf(describeJson({ kind: 'item', type: document.type })!);
    case 'input': {
      const reference = document.relation !== undefined && document.relation.add?.reference !== false;
      return objectSchema({ ...inputMembers(document.fields, true), ...(reference ? { '@id': URI_SCHEMA } : {}) }, [], true);
    }
    default:
      return undefined;
  }
}

/** The JSON text of an item listed on pages, kept with its document while it is shared (`keptItemText`). */
const itemTexts = keptTextSlot();

function fieldsText(doc: Item): string {
  return JSON.stringify(doc.fields);
}

function itemText(doc: Item): string {
  return keptItemText(itemTexts, doc, fieldsText);
}

/**
 * Plain JSON: an item is the object of its readable fields in their plain names, in the type's order;
 * a page (of a list or of a search) is a JSON array of such items, its paging links in the `Link` header
 * and its total in `Total-Count` (added by the core). Request bodies: see `readJsonItem`.
 *
 * @example
 * jsonRepresentation.render(itemDoc); // '{"isbn":"9780441013593","title":"Dune"}'
 */
export const jsonRepresentation: Representation = {
  name: 'json',
  title: 'JSON',
  mediaType: JSON_MEDIA_TYPE,
  bodyMediaTypes: [JSON_MEDIA_TYPE],
  render(resource: Resource): string {
    if (resource.kind === 'item') return JSON.stringify(resource.fields);
    // A page of documents seen before (shared, see isSharedDocument) is written from the kept text of
    // each, the same bytes as stringifying the array; any other page is stringified at once.
    if (!resource.items.every(isSharedDocument)) return JSON.stringify(resource.items.map((item) => item.fields));
    let out = '[';
    for (let i = 0; i < resource.items.length; i++) out += i === 0 ? itemText(resource.items[i]!) : `,${itemText(resource.items[i]!)}`;
    return `${out}]`;
  },
  readBody: (body, _mediaType, type) => readJsonItem(body, type),
  describe: describeJson,
};
