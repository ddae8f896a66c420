// Link relation types: IANA-registered names stay bare, ours become extension relation URIs (RFC 8288 section 2.1.2).
import { PLAYER_VOCAB } from './vocabulary.js';

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
 * as they are, the service's own (`friends`, `avatar`) as IRIs of our vocabulary, the same IRIs the HAL
 * curie `ph` and the JSON-LD context expand to (RFC 8288 section 2.1.2).
 *
 * @example
 * relationType('next');    // 'next'
 * relationType('friends'); // 'https://w3id.org/player-hypermedia/vocab#friends'
 */
export function relationType(rel: string): string {
  return REGISTERED_RELATIONS.has(rel) ? rel : PLAYER_VOCAB + rel;
}

/**
 * The relations a player embedded in a page keeps (HAL `_embedded`, Siren sub-entities): `self`, to
 * follow it, and `friends`, the links of a single player. Its avatar URL is its `image` field, and its
 * search template is on its own representation: embedded players are partial (HAL section 4.1.2).
 *
 * @example
 * page.items[0].links.filter((l) => EMBEDDED_PLAYER_RELATIONS.includes(l.rel)); // self and friends
 */
export const EMBEDDED_PLAYER_RELATIONS: readonly string[] = Object.freeze(['self', 'friends']);
