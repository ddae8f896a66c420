// Which format reads a request body: the Content-Type (RFC 9110 section 8.3) against every format's bodyMediaTypes.
import { HttpError } from './problem.js';
import type { Representation } from './representation.js';

/**
 * The format that reads a body of this Content-Type, with the bare media type and its parameters.
 * 415 (RFC 9110 section 15.5.16) when no format reads the type, or when the format refuses the
 * parameters through `acceptable` (JSON:API: parameters other than ext / profile). Without `acceptable`,
 * only a `charset` of utf-8 is allowed.
 *
 * @example
 * bodyFormat(defaultRepresentations, 'application/vnd.api+json').representation.name; // 'jsonapi'
 * bodyFormat(defaultRepresentations, 'application/vnd.api+json; v=2'); // throws HttpError 415
 */
export function bodyFormat(
  representations: readonly Representation[],
  contentType: string | null,
): { representation: Representation; mediaType: string; params: Record<string, string> } {
  const [rawType = '', ...rawParams] = (contentType ?? '').split(';');
  const mediaType = rawType.trim().toLowerCase();
  const params: Record<string, string> = {};
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  const readable = representations.filter((r) => r.readBody && r.bodyMediaTypes?.length);
  const accepted = [...new Set(readable.flatMap((r) => r.bodyMediaTypes!))];
  const representation = readable.find((r) => r.bodyMediaTypes!.some((t) => t.toLowerCase() === mediaType));
  const refuse = (detail: string) => new HttpError(415, detail, { extensions: { accepted }, headers: { 'Accept-Post': accepted.join(', ') } });
  if (!representation) throw refuse(`Request bodies of type "${mediaType || '(none)'}" are not read here. Accepted: ${accepted.join(', ')}.`);
  const ok = representation.acceptable
    ? representation.acceptable(params)
    : Object.entries(params).every(([k, v]) => k === 'charset' && v.toLowerCase() === 'utf-8');
  if (!ok) throw refuse(`The media type parameters of "${contentType}" are not supported.`);
  return { representation, mediaType, params };
}
