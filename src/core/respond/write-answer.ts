// The answer of a successful write: the player's new representation with the validators a GET would send.
import type { RequestContext } from '../service/context.js';
import { type StoredPlayer } from '../../player/player.js';
import { playerUrl } from '../../player/urls.js';
import { playerView } from '../../player/view.js';
import type { RenderPlan, Representation } from '../model/representation.js';
import { Answer, type Fields } from './answer.js';
import { appendVary } from './fields.js';
import { linkHeader } from './document-fields.js';
import { httpDate } from '../http/date.js';

/** What `respondToWrite` needs: the status, the player after the write, and the negotiated format. */
export interface WriteResult {
  status: 200 | 201;
  stored: StoredPlayer;
  representation: Representation;
  plan: RenderPlan;
  /** Location of a created resource (RFC 9110 section 10.2.2), for 201. */
  location?: string;
  /** Extra header fields (e.g. Idempotent-Replayed). */
  fields?: ReadonlyMap<string, string>;
}

/**
 * Answers a successful PUT, POST or PATCH with the player's representation in the negotiated format,
 * its ETag and Last-Modified (the values a following GET in the same format answers, RFC 9110 section
 * 8.8.3 and 9.3.4), Content-Location naming the player (section 8.7; RFC 9111 section 4.4 then has
 * caches invalidate it), its links in Link, and Location for 201 Created. Write answers themselves are
 * not stored (`no-store`).
 *
 * @example
 * return respondToWrite(ctx, { status: created ? 201 : 200, stored: player, representation, plan, location });
 */
export async function respondToWrite(ctx: RequestContext, result: WriteResult): Promise<Answer> {
  const { stored, representation, plan } = result;
  const view = await playerView(ctx, stored, representation, plan);
  const fields: Fields = new Map(ctx.responseHeaders);
  fields.set('date', httpDate(Date.now()));
  appendVary(fields, 'Accept');
  fields.set('etag', view.validators.etag!);
  fields.set('last-modified', httpDate(view.validators.lastModified!));
  fields.set('cache-control', 'no-store');
  fields.set('content-location', playerUrl(ctx.baseUrl, stored.playerId));
  if (result.location) fields.set('location', result.location);
  result.fields?.forEach((value, name) => fields.set(name, value));
  const resource = view.build();
  // As GET does: the player's links in the Link header too (RFC 8288 section 3).
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
  const fields: Fields = new Map(ctx.responseHeaders);
  fields.set('cache-control', 'no-store');
  return new Answer(204, fields, null);
}
