// The header fields that carry a document's information outside its body: Link (RFC 8288) and Total-Count.
import type { Link, Resource } from '../model/resource.js';

/**
 * Serializes links as an RFC 8288 Link field value (templated links are left out: they are not URIs).
 *
 * @example
 * linkHeader([{ rel: 'next', href: 'https://x.test/p?page=2' }]); // '<https://x.test/p?page=2>; rel="next"'
 */
export function linkHeader(links: readonly Link[]): string {
  return links
    .filter((l) => !l.templated)
    .map((l) => `<${l.href}>; rel="${l.rel}"`)
    .join(', ');
}

/**
 * The header fields a 200 of this document carries besides the body, in every format: its links
 * (RFC 8288 section 3: plain JSON has no other place for them), and for a page the length of the whole
 * list (`Total-Count`, see docs/decisions.md).
 *
 * @example
 * documentHeaders(page); // { Link: '<https://x.test/player/alice/friends?page=1>; rel="self", ...', 'Total-Count': '32' }
 */
export function documentHeaders(resource: Resource): Record<string, string> {
  const link = linkHeader(resource.links);
  return resource.kind === 'player' ? { Link: link } : { Link: link, 'Total-Count': String(resource.paging.total) };
}
