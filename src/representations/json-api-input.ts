// What JSON:API request bodies say: a resource document to create or change an item, linkage to change a list.
import { HttpError } from '../core/http/problem.js';
import type { ItemInput } from '../core/model/representation.js';
import type { Relation, ResourceType } from '../core/model/api.js';
import { inputFromTerms, pointerToken } from './term-input.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Reads a JSON:API request document (sections "Creating Resources", "Updating Resources"): a resource
 * object of `type` (its attributes by term, to-one relationships as their fields), or a resource
 * identifier of an existing item.
 *
 * @example
 * readDocument({ data: { type: 'books', attributes: { name: 'Dune' } } }, bookType).fields; // { title: 'Dune' }
 */
export function readDocument(body: unknown, type: ResourceType): ItemInput {
  const fail = (pointer: string, detail: string, status = 400) => new HttpError(status, detail, { errors: [{ pointer, detail }] });
  if (!isObject(body) || !isObject(body.data)) throw fail('/data', 'A JSON:API request document has a "data" member holding one resource object.');
  const data = body.data;
  // Section "Creating Resources": a type the collection does not hold is 409 Conflict.
  if (data.type !== type.plural) throw fail('/data/type', `The resource type must be "${type.plural}".`, 409);
  if (data.id !== undefined && typeof data.id !== 'string') throw fail('/data/id', 'The id must be a string.');
  // Section "Updating a Resource's Relationships": a server may refuse to replace a to-many relationship
  // in full, and must then refuse the whole request with 403. Lists change through the relationship URL.
  // A relationship object with links only (as GET gives it) says nothing to change; one with data is
  // linkage, which a partial update refuses (ItemInput.relationshipPointer).
  // A to-one relationship's data names the item its field holds (section "Updating To-One Relationships").
  let relationshipPointer: string | undefined;
  const toOne: [string, unknown, string][] = [];
  if (isObject(data.relationships)) {
    for (const [name, relationship] of Object.entries(data.relationships)) {
      if (!isObject(relationship) || !('data' in relationship)) continue;
      const pointer = `/data/relationships/${pointerToken(name)}/data`;
      const relation = type.relation(name);
      if (relation?.kind !== 'to-one') {
        relationshipPointer ??= pointer;
        continue;
      }
      const linkage = relationship.data;
      if (linkage !== null && (!isObject(linkage) || linkage.type !== relation.target.plural || typeof linkage.id !== 'string')) {
        throw fail(pointer, `A to-one relationship's data is null or a resource identifier object of type "${relation.target.plural}".`);
      }
      toOne.push([type.field(relation.field!)!.term, linkage === null ? null : linkage.id, pointer]);
    }
  } else if (data.relationships !== undefined) throw fail('/data/relationships', 'relationships must be an object.');
  if (data.attributes !== undefined && !isObject(data.attributes)) throw fail('/data/attributes', 'attributes must be an object.');
  // A resource identifier of an existing item: add that item.
  const withLinkage = (input: ItemInput): ItemInput => (relationshipPointer === undefined ? input : { ...input, relationshipPointer });
  if (data.id !== undefined && data.attributes === undefined && toOne.length === 0) return withLinkage({ fields: {}, ref: data.id });
  // The attributes the type has, read as own members by their terms; any other is 400.
  const idTerm = type.field(type.idField)!.term;
  const values: [string, unknown, string][] = [];
  if (data.id !== undefined) values.push([idTerm, data.id, '/data/id']);
  const attributes = data.attributes ?? {};
  for (const name of Object.keys(attributes)) {
    const pointer = `/data/attributes/${pointerToken(name)}`;
    if (name === idTerm) throw fail(pointer, `unknown attribute "${idTerm}"; the id of a ${type.title.toLowerCase()} is data.id`);
    values.push([name, attributes[name], pointer]);
  }
  values.push(...toOne);
  const input = withLinkage(inputFromTerms(type, values));
  // Section "Client-Generated IDs": an id beside attributes names the new resource.
  if (data.id === undefined) return input;
  return { ...input, newId: data.id };
}

/**
 * The ids of a to-many relationship document (section "Updating To-Many Relationships"): `data` is an
 * array of resource identifier objects of the relation's target type; a type of another collection is 409.
 *
 * @example
 * readLinkage({ data: [{ type: 'books', id: 'dune' }] }, relation); // ['dune']
 */
export function readLinkage(body: unknown, relation: Relation): string[] | null {
  const plural = relation.target.plural;
  const fail = (pointer: string, detail: string, status = 400) => new HttpError(status, detail, { errors: [{ pointer, detail }] });
  const identifierAt = (item: unknown, pointer: string): string => {
    if (!isObject(item)) throw fail(pointer, 'A resource identifier object is an object with type and id.');
    if (item.type !== plural) throw fail(`${pointer}/type`, `The resource type must be "${plural}".`, 409);
    if (typeof item.id !== 'string') throw fail(`${pointer}/id`, 'The id must be a string.');
    return item.id;
  };
  if (relation.kind === 'to-one') {
    // Section "Updating To-One Relationships": a resource identifier object, or null to clear it.
    if (!isObject(body) || !('data' in body)) throw fail('/data', 'A to-one relationship document has a "data" member holding a resource identifier object or null.');
    return body.data === null ? null : [identifierAt(body.data, '/data')];
  }
  if (!isObject(body) || !Array.isArray(body.data)) throw fail('/data', 'A to-many relationship document has a "data" member holding an array of resource identifier objects.');
  return body.data.map((item: unknown, i: number) => identifierAt(item, `/data/${i}`));
}
