// The header fields that carry a document's information outside its body: Link (RFC 8288) and Total-Count.
import type { Link, Resource } from '../model/resource.js';
import type { Fields } from './fields.js';

/**
 * Serializes links as an RFC 8288 Link field value (templated links are left out: they are not URIs).
 *
 * @example
 * linkHeader([{ rel: 'next', href: 'https://x.test/p?page=2' }]); // '<https://x.test/p?page=2>; rel="next"'
 */
export function linkHeader(links: readonly Link[]): string {
  let value = '';
  for (const l of links) {
    if (l.templated) continue;
    value += value === '' ? `<${l.href}>; rel="${l.rel}"` : `, <${l.href}>; rel="${l.rel}"`;
  }
  return value;
}

/**
 * The header fields a 200 of this document carries besides the body, in every format: its links
 * (RFC 8288 section 3: plain JSON has no other place for them), and for a page the length of the whole
 * list (`Total-Count`, see docs/decisions.md).
 *
 * @example
 * documentFields(page); // Map { 'link' => '<https://x.test/player/alice/friends?page=1>; rel="self", ...', 'total-count' => '32' }
 */
export function documentFields(resource: Resource): Fields {
  const fields: Fields = new Map([['link', linkHeader(resource.links)]]);
  // A search that stopped counting has no exact total to give (README, "Search totals").
  if (resource.kind === 'page' && !resource.paging.totalIsLowerBound) fields.set('total-count', String(resource.paging.total));
  return fields;
}
