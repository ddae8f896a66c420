// Link relation types: IANA-registered names stay bare, an API's own become extension relation URIs (RFC 8288 section 2.1.2).
import type { Api, ResourceType } from '../core/model/api.js';

/**
 * The registered relation types the service uses (IANA Link Relations registry).
 *
 * @example
 * REGISTERED_RELATIONS.has('next'); // true
 */
export const REGISTERED_RELATIONS: ReadonlySet<string> = new Set([
  'self', 'first', 'prev', 'next', 'last', 'up', 'collection', 'item', 'search', 'related', 'icon', 'describedby',
]);

/**
 * A relation type as formats that require registered names or URIs (Siren) write it: registered names
 * as they are, the API's own (its relations, its links) as IRIs of its vocabulary, the same IRIs the HAL
 * curie and the JSON-LD context expand to (RFC 8288 section 2.1.2).
 *
 * @example
 * relationType('next', api);    // 'next'
 * relationType('reviews', api); // 'https://example.com/vocab#reviews'
 */
export function relationType(rel: string, api: Api): string {
  return REGISTERED_RELATIONS.has(rel) ? rel : api.vocabulary.iri + rel;
}

const embedded = new WeakMap<ResourceType, readonly string[]>();

/**
 * The relations an item embedded in a page keeps (HAL `_embedded`, Siren sub-entities): `self`, to
 * follow it, and its relations. Its other links (a picture's URL is also a field) and its search
 * templates are on its own representation: embedded items are partial (HAL section 4.1.2).
 *
 * @example
 * embeddedRelations(bookType); // ['self', 'reviews']
 */
export function embeddedRelations(type: ResourceType): readonly string[] {
  let rels = embedded.get(type);
  if (rels === undefined) embedded.set(type, (rels = Object.freeze(['self', ...type.relations.map((r) => r.name)])));
  return rels;
}
