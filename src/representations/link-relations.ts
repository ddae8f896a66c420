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
