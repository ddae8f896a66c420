// Conditional requests: RFC 9110 section 13.1 preconditions, evaluated in section 13.2.2 order.
import { parseHttpDate } from './date.js';
import type { RequestHead } from './request-head.js';

/**
 * Validators of the selected representation.
 *
 * @example
 * const v: Validators = { etag: '"17-abc"', lastModified: Date.parse('2026-01-01T00:00:00Z') };
 */
export interface Validators {
  etag?: string;
  lastModified?: number;
}

/**
 * The outcome of evaluating preconditions: go on, answer 304 Not Modified, or 412 Precondition Failed.
 *
 * @example
 * if (evaluatePreconditions(request, validators) === 'not-modified') return notModified();
 */
export type PreconditionOutcome = 'proceed' | 'not-modified' | 'failed';

/**
 * The entity tags of an If-Match / If-None-Match field value (RFC 9110 section 13.1.1-2), or '*'.
 *
 * @example
 * parseEntityTags('"a", W/"b"'); // ['"a"', 'W/"b"']
 */
export function parseEntityTags(value: string): string[] | '*' {
  if (value.trim() === '*') return '*';
  return value.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/**
 * Weak comparison (RFC 9110 section 8.8.3.2): opaque tags equal, weakness ignored.
 *
 * @example
 * weakMatch('W/"1"', '"1"'); // true
 */
export function weakMatch(a: string, b: string): boolean {
  return (a.startsWith('W/') ? a.slice(2) : a) === (b.startsWith('W/') ? b.slice(2) : b);
}

/**
 * Strong comparison (RFC 9110 section 8.8.3.2): both strong and equal.
 *
 * @example
 * strongMatch('W/"1"', '"1"'); // false
 */
export function strongMatch(a: string, b: string): boolean {
  return !a.startsWith('W/') && a === b;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Evaluates the preconditions of a request against the current validators, in the order of RFC 9110
 * section 13.2.2: If-Match, else If-Unmodified-Since; then If-None-Match, else If-Modified-Since
 * (only for GET and HEAD). `exists` is false when the target has no current representation.
 *
 * @example
 * evaluatePreconditions(new Request(url, { headers: { 'If-None-Match': '"17-abc"' } }), { etag: '"17-abc"' });
 * // 'not-modified'
 */
export function evaluatePreconditions(request: Pick<RequestHead, 'method' | 'headers'>, validators: Validators, exists = true): PreconditionOutcome {
  const h = request.headers;
  const safe = request.method === 'GET' || request.method === 'HEAD';
  // Step 1: If-Match, strong comparison (section 13.1.1).
  const ifMatch = h.get('if-match');
  if (ifMatch !== null) {
    const tags = parseEntityTags(ifMatch);
    const ok = tags === '*' ? exists : validators.etag !== undefined && tags.some((t) => strongMatch(t, validators.etag!));
    if (!ok) return 'failed';
  } else {
    // Step 2: If-Unmodified-Since, only without If-Match (section 13.1.4).
    const since = parseHttpDate(h.get('if-unmodified-since'));
    if (since !== undefined && exists && validators.lastModified !== undefined && seconds(validators.lastModified) > seconds(since)) {
      return 'failed';
    }
  }
  // Step 3: If-None-Match, weak comparison (section 13.1.2).
  const ifNoneMatch = h.get('if-none-match');
  if (ifNoneMatch !== null) {
    // The common revalidation sends back the one tag it holds: no parsing needed for that.
    if (ifNoneMatch === validators.etag) return safe ? 'not-modified' : 'failed';
    const tags = parseEntityTags(ifNoneMatch);
    const matched = tags === '*' ? exists : validators.etag !== undefined && tags.some((t) => weakMatch(t, validators.etag!));
    if (matched) return safe ? 'not-modified' : 'failed';
    return 'proceed';
  }
  // Step 4: If-Modified-Since, GET/HEAD only and ignored when If-None-Match is present (section 13.1.3).
  if (safe) {
    const since = parseHttpDate(h.get('if-modified-since'));
    if (since !== undefined && exists && validators.lastModified !== undefined && seconds(validators.lastModified) <= seconds(since)) {
      return 'not-modified';
    }
  }
  return 'proceed';
}
