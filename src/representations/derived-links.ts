// The links an item built by the document builders carries are a function of its URL and its type, but
// for a to-one relation (whose target is a field): the formats write them as fixed text around the URL.
import type { Relation, ResourceType } from '../core/model/api.js';

/**
 * The to-many relations of a type, when no relation is to-one: then every relation link of an item of
 * it is `{url}/{path}` (documents.ts `itemLinks`), and a format may derive them from its URL. Undefined
 * when a to-one relation makes an item's links depend on its fields.
 *
 * @example
 * derivableRelations(team)?.map((r) => r.path); // ['members']
 */
export function derivableRelations(type: ResourceType): readonly Relation[] | undefined {
  return type.relations.every((r) => r.kind === 'to-many') ? type.relations : undefined;
}
