// Content negotiation on Accept (RFC 9110 section 12.5.1), with media-type parameters, cached per header value.
import type { Representation } from '../model/representation.js';

/**
 * Picks a representation for an Accept header value; undefined when nothing is acceptable (406).
 *
 * @example
 * const choose = createNegotiation(defaultRepresentations);
 * choose('application/hal+json, application/json;q=0.5')?.name; // 'hal'
 */
export type Negotiation = (accept: string | null) => Representation | undefined;

/**
 * One media range of an Accept field value (RFC 9110 section 12.5.1), `index` its position.
 *
 * @example
 * const range: MediaRange = { type: 'application', subtype: 'hal+json', params: {}, q: 0.9 };
 */
export interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  index: number;
}

const CACHE_LIMIT = 500;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses an Accept field value into media ranges. Malformed ranges are skipped (RFC 9110 section 5.5
 * allows a recipient to ignore invalid members); a `q` outside 0..1 or not a qvalue counts as 0.
 *
 * @example
 * parseAccept('text/html, application/*;q=0.5')[1]; // { type: 'application', subtype: '*', params: {}, q: 0.5, index: 1 }
 */
export function parseAccept(accept: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of splitOutsideQuotes(accept, ',')) {
    // A member of only parameters (`;`, `;q=1`) has no range: skipped like any other malformed member.
    const [range = '', ...paramParts] = splitOutsideQuotes(part, ';');
    const slash = range.indexOf('/');
    if (slash < 0) continue;
    const type = range.slice(0, slash).trim().toLowerCase();
    const subtype = range.slice(slash + 1).trim().toLowerCase();
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || (type === '*' && subtype !== '*')) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const name = p.slice(0, eq).trim().toLowerCase();
      let value = p.slice(eq + 1).trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
      // Section 12.4.2: the weight; parameters after it were accept-ext in RFC 7231 and are ignored.
      if (name === 'q') {
        q = /^(0(\.[0-9]{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : 0;
        break;
      }
      params[name] = value;
    }
    ranges.push({ type, subtype, params, q, index: ranges.length });
  }
  return ranges;
}

function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted) i++;
    else if (c === separator && !quoted) {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts.filter((p) => p.trim() !== '');
}

/**
 * Whether a format accepts its media type with these parameters: the format's own `acceptable` hook,
 * else only `charset=utf-8` (every built-in body is UTF-8 JSON).
 */
function paramsAccepted(representation: Representation, params: Record<string, string>): boolean {
  if (representation.acceptable) return representation.acceptable(params);
  for (const [name, value] of Object.entries(params)) if (name !== 'charset' || value.toLowerCase() !== 'utf-8') return false;
  return true;
}

interface Priority {
  q: number;
  specificity: number;
  order: number;
  index: number;
}

/**
 * The most specific range matching a format decides its weight (RFC 9110 section 12.5.1: "media ranges
 * can be overridden by more specific media ranges or specific media types").
 */
function priorityOf(representation: Representation, [type, subtype]: [string, string], ranges: MediaRange[], index: number): Priority | undefined {
  let best: Priority | undefined;
  for (const r of ranges) {
    let specificity = 0;
    if (r.type === type) specificity |= 4;
    else if (r.type !== '*') continue;
    if (r.subtype === subtype) specificity |= 2;
    else if (r.subtype !== '*') continue;
    if (Object.keys(r.params).length > 0) {
      if (specificity !== 6 || !paramsAccepted(representation, r.params)) continue;
      specificity |= 1;
    }
    if (!best || specificity > best.specificity || (specificity === best.specificity && (r.q > best.q || (r.q === best.q && r.index < best.order)))) {
      best = { q: r.q, specificity, order: r.index, index };
    }
  }
  return best;
}

/**
 * Whether Accept names the format's media type only with parameters the format refuses. JSON:API 1.1
 * section "Content Negotiation": such a request is 406 even when other types would fit; applied to
 * every format that defines `acceptable`.
 */
function refusedByParameters(representation: Representation, [type, subtype]: [string, string], ranges: MediaRange[]): boolean {
  if (!representation.acceptable) return false;
  let named = false;
  for (const r of ranges) {
    if (r.type !== type || r.subtype !== subtype) continue;
    named = true;
    if (Object.keys(r.params).length === 0 || representation.acceptable(r.params)) return false;
  }
  return named;
}

/**
 * Chooses among `representations` for parsed ranges: highest weight, then most specific range, then
 * earliest in Accept, then earliest in the list. Ranges with q=0 exclude (section 12.4.2).
 *
 * @example
 * chooseRepresentation(parseAccept('application/hal+json'), defaultRepresentations)?.name; // 'hal'
 */
export function chooseRepresentation(ranges: MediaRange[], representations: readonly Representation[]): Representation | undefined {
  let chosen: Representation | undefined;
  let best: Priority | undefined;
  for (let i = 0; i < representations.length; i++) {
    const r = representations[i]!;
    const full = r.mediaType.toLowerCase();
    const slash = full.indexOf('/');
    const parts: [string, string] = [full.slice(0, slash), full.slice(slash + 1)];
    if (refusedByParameters(r, parts, ranges)) return undefined;
    const p = priorityOf(r, parts, ranges, i);
    if (!p || p.q <= 0) continue;
    if (!best || p.q > best.q || (p.q === best.q && (p.specificity > best.specificity || (p.specificity === best.specificity && p.order < best.order)))) {
      best = p;
      chosen = r;
    }
  }
  return chosen;
}

/**
 * A negotiation function over `representations` (the first one wins ties and serves a missing Accept).
 * Results are kept in a bounded map keyed by the header string, so a repeated Accept costs one lookup;
 * when the map is full the oldest entry goes.
 *
 * @example
 * const choose = createNegotiation(defaultRepresentations);
 * choose(null)?.mediaType; // 'application/json'
 */
export function createNegotiation(representations: readonly Representation[]): Negotiation {
  const cache = new Map<string, Representation | null>();
  const first = representations[0];
  return (accept) => {
    // RFC 9110 section 12.5.1: a request without Accept accepts any media type.
    if (accept === null) return first;
    const hit = cache.get(accept);
    if (hit !== undefined) return hit ?? undefined;
    const ranges = parseAccept(accept);
    // An Accept with no valid member (e.g. empty) is treated as absent.
    const chosen = ranges.length === 0 ? first : chooseRepresentation(ranges, representations);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(accept, chosen ?? null);
    return chosen;
  };
}
