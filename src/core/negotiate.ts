// Content negotiation on Accept (RFC 9110 section 12.5.1), cached per header value.
import Negotiator from 'negotiator';
import type { Representation } from './representation.js';

/**
 * Picks a representation for an Accept header value; undefined when nothing is acceptable (406).
 *
 * @example
 * const choose = createNegotiation(defaultRepresentations);
 * choose('application/hal+json, application/json;q=0.5')?.name; // 'hal'
 */
export type Negotiation = (accept: string | null) => Representation | undefined;

const CACHE_LIMIT = 500;

/**
 * A negotiation function over `representations` (the first one wins ties and serves a missing Accept).
 * Results are kept in a bounded map keyed by the header string, so a repeated Accept costs one lookup.
 *
 * @example
 * const choose = createNegotiation(defaultRepresentations);
 * choose(null)?.mediaType; // 'application/json'
 */
export function createNegotiation(representations: readonly Representation[]): Negotiation {
  const byType = new Map(representations.map((r) => [r.mediaType.toLowerCase(), r] as const));
  const available = representations.map((r) => r.mediaType);
  const cache = new Map<string, Representation | null>();
  return (accept) => {
    // RFC 9110 section 12.5.1: a request without Accept accepts any media type.
    if (accept === null || accept.trim() === '') return representations[0];
    const hit = cache.get(accept);
    if (hit !== undefined) return hit ?? undefined;
    const type = new Negotiator({ headers: { accept } }).mediaType(available);
    const chosen = type === undefined ? null : byType.get(type.toLowerCase()) ?? null;
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(accept, chosen);
    return chosen ?? undefined;
  };
}
