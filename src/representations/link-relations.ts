// Link relation types: IANA-registered names stay bare, ours become extension relation URIs (RFC 8288 section 2.1.2).

/** The registered relation types the service uses (IANA Link Relations registry). */
export const REGISTERED_RELATIONS: ReadonlySet<string> = new Set([
  'self', 'first', 'prev', 'next', 'last', 'up', 'collection', 'item', 'search', 'related', 'icon', 'describedby',
]);

/**
 * The base URL of a resource URL built by `playerUrl` (everything before `/player/`).
 *
 * @example
 * serviceBase('https://x.test/api/player/bob/friends?page=2'); // 'https://x.test/api'
 */
export function serviceBase(resourceUrl: string): string {
  const at = resourceUrl.lastIndexOf('/player/');
  return at < 0 ? resourceUrl : resourceUrl.slice(0, at);
}

/**
 * A relation type as formats that require registered names or URIs (Siren) write it: registered names
 * as they are, the service's own (`friends`, `avatar`) as `{baseUrl}/rels/{name}` (RFC 8288 section 2.1.2).
 *
 * @example
 * relationType('next', 'https://x.test');    // 'next'
 * relationType('friends', 'https://x.test'); // 'https://x.test/rels/friends'
 */
export function relationType(rel: string, baseUrl: string): string {
  return REGISTERED_RELATIONS.has(rel) ? rel : `${baseUrl}/rels/${rel}`;
}
