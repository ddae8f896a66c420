// PATCH of an item: a JSON Patch (RFC 6902), a JSON Merge Patch (RFC 7396) on its plain JSON form, or a format's partial update.
import type { Answer } from '../respond/answer.js';
import type { ResourceType } from '../model/api.js';
import { itemFields, type StoredItem } from '../model/documents.js';
import { requirePrincipal } from '../service/auth.js';
import type { Representation } from '../model/representation.js';
import { selectRepresentation, type RequestContext } from '../service/context.js';
import { applyCompiledPatch, JsonPatchError } from '../json/patch.js';
import { compilePatch } from '../json/patch-document.js';
import { jsonEqual, type JsonValue } from '../json/value.js';
import { applyMergePatch, checkMergePatch, MergePatchError } from '../json/merge-patch.js';
import { HttpError } from '../http/problem.js';
import { parseContentType, readParsedBody, type ContentType } from '../http/request-body.js';
import { StoreError, type Expectation } from '../../stores/contract.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions, type WriteConditions } from '../respond/write-preconditions.js';
import { acceptedPatchTypes, defaultAcceptable, PATCH_MEDIA_TYPES } from './body.js';
import { compareAndSet } from './compare-and-set.js';
import { itemDataFromDocument } from './input.js';
import { notFound } from './item-routes.js';
import { addressedItem } from './params.js';
import { respondToWrite } from './write-answer.js';
import { storePut } from './store-writes.js';
import { andThen, type Awaitable } from '../service/awaitable.js';

/** The media type of a JSON Patch document (RFC 6902 section 6). */
export const JSON_PATCH_MEDIA_TYPE = 'application/json-patch+json';
/** The media type of a JSON Merge Patch document (RFC 7396 section 4). */
export const MERGE_PATCH_MEDIA_TYPE = 'application/merge-patch+json';

/** A validated patch document, ready to apply to the plain JSON form of an item. */
type Change = (item: JsonValue) => JsonValue;

/**
 * The patch format of the request: a patch document, or a format's document read as a partial update
 * (`Representation.partialUpdates`, e.g. JSON:API); 415 with Accept-Patch for anything else (RFC 5789
 * section 2.2, "Unsupported patch document"; section 3.1 for Accept-Patch). Only UTF-8 is read (RFC
 * 8259 section 8.1).
 */
function patchContentType(ctx: RequestContext): { contentType: ContentType; document?: Representation } {
  const raw = ctx.head.headers.get('content-type');
  const contentType = parseContentType(raw);
  if (contentType && PATCH_MEDIA_TYPES.includes(contentType.mediaType) && defaultAcceptable(contentType.params)) return { contentType };
  const document =
    contentType && ctx.config.representations.find((r) => r.readBody && r.partialUpdates && r.bodyMediaTypes?.some((t) => t.toLowerCase() === contentType.mediaType));
  if (contentType && document && (document.acceptable ?? defaultAcceptable)(contentType.params)) return { contentType, document };
  const accepted = acceptedPatchTypes(ctx.config.representations);
  const detail = raw === null ? 'The PATCH request has no Content-Type.' : `Content-Type "${raw}" is not a patch format read here.`;
  throw new HttpError(415, `${detail} Accepted: ${accepted.join(', ')}.`, { headers: { 'Accept-Patch': accepted.join(', ') }, extensions: { accepted } });
}

/**
 * A format's document as a partial update (JSON:API 1.1 "Updating Resources"): its fields replace the
 * item's, members left out keep their values, `null` removes an optional member (a required one is
 * then 422, as any invalid result). An id other than the target's is 409 Conflict (JSON:API: the
 * resource object's id must match the endpoint).
 */
async function documentChange(type: ResourceType, representation: Representation, body: unknown, mediaType: string, id: string): Promise<Change> {
  const input = await representation.readBody!(body, mediaType, type);
  const t = type.title.toLowerCase();
  // JSON:API "Updating a Resource's Relationships": a server may refuse to replace a to-many
  // relationship in full, and must then refuse the whole request with 403.
  if (input.relationshipPointer !== undefined) {
    const name = /^\/data\/relationships\/([^/]*)/.exec(input.relationshipPointer)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    const relation = name === undefined ? undefined : type.relation(name);
    const detail = relation
      ? `A ${relation.member} list is not replaced through the ${t}; POST or DELETE its members at ${type.path}/relationships/${relation.name}.`
      : `A list is not replaced through the ${t}; POST or DELETE its members at its relationship URL.`;
    throw new HttpError(403, detail, { errors: [{ pointer: input.relationshipPointer, detail }] });
  }
  const idField = type.idField;
  const named = input.fields[idField] ?? input.ref;
  if (named !== undefined && named !== id) {
    const pointer = input.pointers?.[idField] ?? input.pointers?.ref ?? `/${idField}`;
    throw new HttpError(409, `The document names ${t} "${String(named)}", not "${id}", the ${t} at this URL.`, { errors: [{ pointer, detail: 'does not match the URL' }] });
  }
  return (item) => {
    const after = { ...(item as Record<string, JsonValue>) };
    for (const [name, value] of Object.entries(input.fields)) {
      if (name === idField) continue;
      if (value === null) delete after[name];
      else after[name] = value as JsonValue;
    }
    return after;
  };
}

/** The JsonPatchError reasons that are a patch going past the service's bounds: 413. */
const OVER_LIMIT: ReadonlySet<string> = new Set(['too-many-operations', 'too-large', 'too-deep']);

/**
 * A JsonPatchError as an HTTP failure (docs/errors.md): a malformed patch (or a refused prototype path) is
 * 400; a failed `test` or a location that does not exist is 409 Conflict (RFC 5789 section 2.2); a patch
 * past the bounds (too many operations, too many bytes added, a result nested too deep) is 413, as its
 * request content is more than the service is willing to process (RFC 9110 section 15.5.14).
 * `errors[0].pointer` names the failing member of the request body, e.g. `/2/path`.
 *
 * @example
 * patchFailure(new JsonPatchError('test-failed', 'Operation 0 ...', { index: 0 })).status; // 409
 */
export function patchFailure(error: JsonPatchError): HttpError {
  const malformed = error.reason === 'invalid-patch' || error.reason === 'prototype-path';
  return new HttpError(OVER_LIMIT.has(error.reason) ? 413 : malformed ? 400 : 409, error.message, {
    errors: [{ pointer: error.pointer, detail: error.reason }],
    extensions: { reason: error.reason, ...(error.index === undefined ? {} : { operation: error.index }) },
  });
}

/** At most this many operations in one PATCH (docs/decisions.md). */
const MAX_PATCH_OPERATIONS = 1000;

/**
 * Validates a JSON Patch body before the item is read (400, 413), and returns its application (409,
 * 413). The patch may add no more than a PUT body may hold, nested no deeper, since its result is
 * stored like one.
 */
function jsonPatchChange(body: unknown, config: RequestContext['config']): Change {
  const limits = { maxOperations: MAX_PATCH_OPERATIONS, maxAddedBytes: config.maxBodyBytes, maxDepth: config.maxBodyDepth };
  let steps: ReturnType<typeof compilePatch>;
  try {
    steps = compilePatch(body, limits.maxOperations);
  } catch (error) {
    throw error instanceof JsonPatchError ? patchFailure(error) : error;
  }
  return (item) => {
    try {
      return applyCompiledPatch(item, steps, limits);
    } catch (error) {
      throw error instanceof JsonPatchError ? patchFailure(error) : error;
    }
  };
}

/** Validates a merge patch body (members named like prototype paths are 400), and returns its application. */
function mergePatchChange(body: unknown): Change {
  const patch = body as JsonValue;
  try {
    checkMergePatch(patch);
  } catch (error) {
    if (!(error instanceof MergePatchError)) throw error;
    throw new HttpError(400, error.message, { errors: [{ pointer: error.pointer, detail: error.reason }], extensions: { reason: error.reason } });
  }
  return (item) => applyMergePatch(item, patch);
}

const keptFields = new WeakMap<ResourceType, readonly string[]>();

/** The fields no patch may remove: the id and the derived fields (types are defined once: worked out once). */
function keptFieldsOf(type: ResourceType): readonly string[] {
  let kept = keptFields.get(type);
  if (kept === undefined) keptFields.set(type, (kept = [type.idField, ...type.fields.filter((f) => f.derived).map((f) => f.name)]));
  return kept;
}

/**
 * The patched item, checked like a PUT body (docs/errors.md: 422 for a result that breaks the type's
 * schema, changes its id or changes a server-owned field; removing either is a change too), then
 * written with the revision it was computed from.
 */
function writePatched(ctx: RequestContext, type: ResourceType, id: string, current: StoredItem, after: JsonValue, expect: Expectation): Awaitable<StoredItem> {
  const data = itemDataFromDocument(type, after, { id, baseUrl: ctx.baseUrl, current, wrongTypeStatus: 422 });
  const kept = keptFieldsOf(type);
  let missing: string[] | undefined;
  for (const name of kept) if (!Object.hasOwn(after as object, name)) (missing ??= []).push(name);
  if (missing) {
    throw new HttpError(422, `The patch removes ${missing.join(' and ')}, which every ${type.title.toLowerCase()} has.`, {
      errors: missing.map((name) => ({ pointer: `/${name}`, detail: 'cannot be removed' })),
    });
  }
  return andThen(storePut(ctx, type, data, { expect }), (written) => written.item);
}

/**
 * PATCH of an item: applies an `application/json-patch+json` (RFC 6902) or
 * `application/merge-patch+json` (RFC 7396) document to the plain JSON form of the item (its readable
 * fields by plain name), or a format's partial update (JSON:API), atomically. Needs a principal.
 * Statuses: 200 with the new representation in the negotiated format and its ETag; 400 malformed
 * patch; 404 unknown item; 409 failed `test` or missing location; 412 stale If-Match /
 * If-Unmodified-Since (a compare-and-set in the store); 413 a patch past its bounds (1,000 operations,
 * `maxBodyBytes` added, `maxBodyDepth` levels); 415 with Accept-Patch; 422 a result that is not a
 * valid item.
 *
 * @example
 * await service.fetch(new Request(`${base}/player/alice`, { method: 'PATCH',
 *   headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json-patch+json', 'If-Match': etag },
 *   body: JSON.stringify([{ op: 'replace', path: '/alias', value: 'ali' }]) })); // 200
 */
export function patchItem(type: ResourceType): (ctx: RequestContext) => Awaitable<Answer> {
  return (ctx) => {
    const id = addressedItem(ctx, type);
    requirePrincipal(ctx);
    const { representation, plan } = selectRepresentation(ctx, 'item', type);
    const { contentType, document } = patchContentType(ctx);
    requireIfMatchWhenConfigured(ctx);
    const { config } = ctx;
    // Once the body is here, nothing below waits on I/O with a store that reads and writes without it.
    return andThen(readParsedBody(ctx.bodySource, contentType, { maxBytes: config.maxBodyBytes, maxDepth: config.maxBodyDepth }), ({ value }) => {
      const change = document
        ? documentChange(type, document, value, contentType.mediaType, id)
        : contentType.mediaType === JSON_PATCH_MEDIA_TYPE
          ? jsonPatchChange(value, config)
          : mergePatchChange(value);
      const stored = andThen(change, (apply) => andThen(writePreconditions(ctx, () => config.store.get(type, id)), (c) => patched(ctx, type, id, c, apply)));
      return andThen(stored, (item) => respondToWrite(ctx, { status: 200, type, stored: item, representation, plan }));
    });
  };
}

/** The compare-and-set of a PATCH: `change` applied to the current item, written unless it changes nothing. */
function patched(ctx: RequestContext, type: ResourceType, id: string, conditions: WriteConditions, change: Change): Awaitable<StoredItem> {
  if (conditions.failed) throw preconditionFailed();
  return compareAndSet(ctx, type, id, conditions.expect, (current, expect, verified) => {
    if (!current) throw notFound(type, id);
    const before = itemFields(type, ctx.baseUrl, current) as JsonValue;
    const after = change(before);
    if (!jsonEqual(after, before)) return writePatched(ctx, type, id, current, after, expect);
    // A patch that changes nothing (tests only, or values set to what they were) writes nothing, so no
    // compare-and-set checks the record: one the memo kept is read from the store first.
    if (!verified) throw new StoreError('revision-mismatch', 'the kept record is checked against the store');
    ctx.unchanged = true;
    return current;
  });
}
