// The operations a list offers (add a member, search it) and their form fields, made once per relation.
import type { Field, Relation } from './api.js';
import type { Operation, OperationField } from './resource.js';
import { listUrl, searchUrl } from './urls.js';

/** Each searchable relation's one search field, as a list of one: shared by every document, so never changed. */
const searchFieldsOf = new WeakMap<Relation, readonly OperationField[]>();

/**
 * The fields of `relation`'s search (its text, `search`): the same array in every document (the
 * variables of each search link, the fields of each search operation), so that a format may keep its
 * text of them by it, and no document makes its own.
 *
 * @example
 * searchOperationFields(friends)[0]!.name; // 'search'
 */
export function searchOperationFields(relation: Relation): readonly OperationField[] {
  let fields = searchFieldsOf.get(relation);
  if (fields === undefined) searchFieldsOf.set(relation, (fields = [{ name: 'search', type: 'search', title: relation.search!.prompt, required: true }]));
  return fields;
}

/** The form field of a member field, in its alternate name (what every body format reads). */
function formField(field: Field): OperationField {
  return { name: field.term, type: field.input, title: field.title, required: field.required };
}

/**
 * The form fields of each relation's add operation, made once: the same array on every page of every
 * list of the relation, so that a format may keep its text of the operation by it (JSON-LD does).
 * Shared, so never changed.
 */
const addFieldsOf = new WeakMap<Relation, OperationField[]>();

/**
 * The form fields of `relation`'s add operation as the documents carry them (the same array each
 * time), or undefined when the relation has no add operation.
 *
 * @example
 * listOperations(friends, url)[0]!.fields === addOperationFields(friends); // true
 */
export function addOperationFields(relation: Relation): readonly OperationField[] | undefined {
  const add = relation.add;
  if (add === undefined) return undefined;
  let fields = addFieldsOf.get(relation);
  if (fields === undefined) addFieldsOf.set(relation, (fields = add.fields.map((name) => formField(relation.target.field(name)!))));
  return fields;
}

/**
 * The operations a list offers: adding a member (POST, the fields the relation's `add` names) and
 * searching it (GET with `search`), as its declaration says.
 *
 * @example
 * listOperations(api.type('player').relation('friends')!, 'https://x.test/player/alice').map((o) => o.name); // ['add-friend', 'search']
 */
export function listOperations(relation: Relation, ownerUrl: string): Operation[] {
  const ops: Operation[] = [];
  const add = relation.add;
  if (add) ops.push({ name: add.name, title: add.title, method: 'POST', href: listUrl(ownerUrl, relation), contentType: 'application/json', fields: addOperationFields(relation) as OperationField[] });
  if (relation.search) {
    ops.push({ name: 'search', title: relation.search.title, method: 'GET', href: searchUrl(ownerUrl, relation), contentType: 'application/x-www-form-urlencoded', fields: searchOperationFields(relation) as OperationField[] });
  }
  return ops;
}
