// Which of a type's fields a JSON:API resource object shows as attributes, and every member name a sparse
// fieldset may name: shared by the renderer, the query's checks and the described schema.
import type { Field, ResourceType } from '../core/model/api.js';

const attributesOf = new WeakMap<ResourceType, readonly Field[]>();

/**
 * The attributes of a type's resource objects (JSON:API section "Attributes"): its readable fields but
 * the id (the object's `id`) and those a to-one relation holds (its relationship), in term order.
 *
 * @example
 * attributeFields(team).map((f) => f.term); // ['name', 'motto', 'founded'] (captainId is the captain relationship)
 */
export function attributeFields(type: ResourceType): readonly Field[] {
  let found = attributesOf.get(type);
  if (found === undefined) {
    const held = new Set(type.relations.flatMap((r) => (r.field === undefined ? [] : [r.field])));
    attributesOf.set(type, (found = type.termOrder.filter((f) => f.name !== type.idField && !held.has(f.name))));
  }
  return found;
}

/**
 * Every name a sparse fieldset (`fields[TYPE]=...`) may give: the attributes' terms, then the relations.
 *
 * @example
 * memberNames(bookType); // ['name', 'cover', 'reviews']: attributes by term, then relations
 */
export function memberNames(type: ResourceType): string[] {
  return [...attributeFields(type).map((f) => f.term), ...type.relations.map((r) => r.name)];
}
