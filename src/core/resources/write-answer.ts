// The answer of a successful write: the item's new representation with the validators a GET would send.
import type { RequestContext } from '../service/context.js';
import type { ResourceType } from '../model/api.js';
import { storedValue, type StoredItem } from '../model/documents.js';
import type { RenderPlan, Representation } from '../model/representation.js';
import { Answer, type Fields } from '../respond/answer.js';
import { appendVary, copyFields } from '../respond/fields.js';
import { linkHeader } from '../respond/document-fields.js';
import { httpDate } from '../http/date.js';
import { embeddedSlices, itemView, type EmbeddedSlices } from './item-view.js';
import { andThen, type Awaitable } from '../service/awaitable.js';
import { noteWritten } from './records.js';

/** What `respondToWrite` needs: the status, the item after the write, and the negotiated format. */
export interface WriteResult {
  status: 200 | 201;
  type: ResourceType;
  stored: StoredItem;
  representation: Representation;
  plan: RenderPlan;
  /** Location of a created resource (RFC 9110 section 10.2.2), for 201. */
  location?: string;
  /** Extra header fields (e.g. Idempotent-Replayed). */
  fields?: ReadonlyMap<string, string>;
}

/**
 * Answers a successful PUT, POST or PATCH with the item's representation in the negotiated format,
 * its ETag and Last-Modified (the values a following GET in the same format answers, RFC 9110 section
 * 8.8.3 and 9.3.4), Content-Location naming the item (section 8.7; RFC 9111 section 4.4 then has
 * caches invalidate it), its links in Link, and Location for 201 Created. Write answers themselves are
 * not stored (`no-store`).
 *
 * @example
 * return respondToWrite(ctx, { status: created ? 201 : 200, type, stored: item, representation, plan, location });
 */
export function respondToWrite(ctx: RequestContext, result: WriteResult): Awaitable<Answer> {
  const { type, stored, plan } = result;
  const id = storedValue(stored, type.idField) as string;
  // The next read-modify-write of the item starts from what this one left (see compareAndSet).
  if (!ctx.unchanged) noteWritten(ctx, type, stored);
  // Most formats embed no list: their answer is made without waiting on a read.
  if (!plan.embed?.length) return writeAnswer(ctx, result, id, undefined);
  return andThen(embeddedSlices(ctx, type, id, plan), (slices) => writeAnswer(ctx, result, id, slices ?? undefined));
}

function writeAnswer(ctx: RequestContext, result: WriteResult, id: string, slices: EmbeddedSlices | undefined): Answer {
  const { type, stored, representation, plan } = result;
  const view = itemView(ctx, type, stored, representation, plan, slices);
  const fields: Fields = copyFields(ctx.responseHeaders);
  fields.set('date', httpDate(ctx.config.now()));
  appendVary(fields, 'Accept');
  fields.set('etag', view.validators.etag!);
  fields.set('last-modified', httpDate(view.validators.lastModified!));
  fields.set('cache-control', 'no-store');
  fields.set('content-location', type.itemUrl(ctx.baseUrl, id));
  if (result.location) fields.set('location', result.location);
  result.fields?.forEach((value, name) => fields.set(name, value));
  const resource = view.build();
  // As GET does: the item's links in the Link header too (RFC 8288 section 3).
  fields.set('link', linkHeader(resource.links));
  fields.set('content-type', representation.contentType ?? representation.mediaType);
  return new Answer(result.status, fields, representation.render(resource, plan));
}

/**
 * The answer of a successful DELETE: 204 No Content (RFC 9110 section 9.3.5).
 *
 * @example
 * return noContent(ctx);
 */
export function noContent(ctx: RequestContext): Answer {
  const fields: Fields = copyFields(ctx.responseHeaders);
  fields.set('cache-control', 'no-store');
  return new Answer(204, fields, null);
}
