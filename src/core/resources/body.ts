// Request bodies by Content-Type: finds the registered format that reads it, reads and parses the body.
import type { RequestContext } from '../service/context.js';
import { HttpError } from '../http/problem.js';
import type { ItemInput, Representation } from '../model/representation.js';
import type { ResourceType } from '../model/api.js';
import { parseContentType, readParsedBody, type ContentType, type ParsedBody } from '../http/request-body.js';
import { andThen, type Awaitable } from '../service/awaitable.js';

/**
 * The patch document formats PATCH reads: JSON Patch (RFC 6902 section 6) and JSON Merge Patch
 * (RFC 7396 section 4), the value of Accept-Patch (RFC 5789 section 3.1).
 *
 * @example
 * PATCH_MEDIA_TYPES.join(', '); // 'application/json-patch+json, application/merge-patch+json'
 */
export const PATCH_MEDIA_TYPES: readonly string[] = ['application/json-patch+json', 'application/merge-patch+json'];

/**
 * The media types of request bodies the registered formats read, in registration order, without
 * duplicates: the value of Accept-Post (W3C LDP section 7.1) on collections.
 *
 * @example
 * acceptedBodyTypes(service.config.representations); // ['application/json', 'application/hal+json', ...]
 */
export function acceptedBodyTypes(representations: readonly Representation[]): string[] {
  const types = new Set<string>();
  for (const r of representations) if (r.readBody) for (const t of r.bodyMediaTypes ?? []) types.add(t.toLowerCase());
  return [...types];
}

/**
 * The media types PATCH reads: the patch formats, then the formats that read partial updates
 * (Accept-Patch, RFC 5789 section 3.1).
 *
 * @example
 * acceptedPatchTypes(defaultRepresentations); // [...PATCH_MEDIA_TYPES, 'application/vnd.api+json']
 */
export function acceptedPatchTypes(representations: readonly Representation[]): string[] {
  const types = new Set<string>(PATCH_MEDIA_TYPES);
  for (const r of representations) if (r.readBody && r.partialUpdates) for (const t of r.bodyMediaTypes ?? []) types.add(t.toLowerCase());
  return [...types];
}

/** Only UTF-8 is read (RFC 8259 section 8.1); without a format's own rule no other parameter is. */
export function defaultAcceptable(params: Readonly<Record<string, string>>): boolean {
  for (const [name, value] of Object.entries(params)) if (name !== 'charset' || value.toLowerCase() !== 'utf-8') return false;
  return true;
}

/**
 * The format that reads a request's Content-Type, or 415 Unsupported Media Type (RFC 9110 section
 * 15.5.16) listing what is accepted; `advertise` names the response field that carries the list
 * (Accept-Post for POST, Accept-Patch for PATCH, RFC 5789 section 3.1).
 *
 * @example
 * const { representation, contentType } = selectBodyFormat(ctx, 'Accept-Post');
 */
export function selectBodyFormat(ctx: RequestContext, advertise?: string): { representation: Representation; contentType: ContentType } {
  const raw = ctx.head.headers.get('content-type');
  const contentType = parseContentType(raw);
  const found = contentType && ctx.config.representations.find((r) => r.readBody && r.bodyMediaTypes?.some((t) => t.toLowerCase() === contentType.mediaType));
  if (contentType && found && (found.acceptable ?? defaultAcceptable)(contentType.params)) return { representation: found, contentType };
  const accepted = acceptedBodyTypes(ctx.config.representations);
  const headers: Record<string, string> = advertise ? { [advertise]: accepted.join(', ') } : {};
  const detail = raw === null ? 'The request has no Content-Type.' : `Content-Type "${raw}" is not read here.`;
  throw new HttpError(415, `${detail} Accepted: ${accepted.join(', ')}.`, { headers, extensions: { accepted } });
}

/** An item read from a request body, with the body text and media type it came from. */
export interface ItemBody {
  input: ItemInput;
  body: ParsedBody;
  representation: Representation;
}

/**
 * Reads a request body describing an item of `type` in any registered format: 415 for a Content-Type
 * no format reads, 413 over the size limit, 400 for invalid UTF-8, malformed JSON or deep nesting, then
 * the format's own `readBody` (which may throw 400/422 for a body of the wrong shape).
 *
 * @example
 * const { input } = await readItemBody(ctx, type, 'Accept-Post');
 */
export function readItemBody(ctx: RequestContext, type: ResourceType, advertise?: string): Awaitable<ItemBody> {
  const { representation, contentType } = selectBodyFormat(ctx, advertise);
  return andThen(readParsedBody(ctx.bodySource, contentType, { maxBytes: ctx.config.maxBodyBytes, maxDepth: ctx.config.maxBodyDepth }), (body) =>
    andThen(representation.readBody!(body.value, contentType.mediaType, type), (input) => ({ input, body, representation })),
  );
}
