// The answer of a successful write: the player's new representation with the validators a GET would send.
import type { RequestContext } from './context.js';
import { playerUrl, type StoredPlayer } from './player.js';
import { playerView } from './player-view.js';
import type { RenderPlan, Representation } from './representation.js';
import { linkHeader } from './document-headers.js';
import { appendVary } from './respond.js';

/** What `respondToWrite` needs: the status, the player after the write, and the negotiated format. */
export interface WriteResult {
  status: 200 | 201;
  stored: StoredPlayer;
  representation: Representation;
  plan: RenderPlan;
  /** Location of a created resource (RFC 9110 section 10.2.2), for 201. */
  location?: string;
  /** Extra header fields (e.g. Idempotent-Replayed). */
  headers?: Record<string, string>;
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
export async function respondToWrite(ctx: RequestContext, result: WriteResult): Promise<Response> {
  const { stored, representation, plan } = result;
  const view = await playerView(ctx, stored, representation, plan);
  const headers = new Headers([...ctx.responseHeaders]);
  headers.set('Date', new Date().toUTCString());
  appendVary(headers, 'Accept');
  headers.set('ETag', view.validators.etag!);
  headers.set('Last-Modified', new Date(view.validators.lastModified!).toUTCString());
  headers.set('Cache-Control', 'no-store');
  headers.set('Content-Location', playerUrl(ctx.baseUrl, stored.playerId));
  if (result.location) headers.set('Location', result.location);
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value);
  const resource = view.build();
  // As GET does: the player's links in the Link header too (RFC 8288 section 3).
  headers.set('Link', linkHeader(resource.links));
  headers.set('Content-Type', representation.contentType ?? representation.mediaType);
  return new Response(representation.render(resource, plan), { status: result.status, headers });
}

/**
 * The answer of a successful DELETE: 204 No Content (RFC 9110 section 9.3.5).
 *
 * @example
 * return noContent(ctx);
 */
export function noContent(ctx: RequestContext): Response {
  const headers = new Headers([...ctx.responseHeaders]);
  headers.set('Cache-Control', 'no-store');
  return new Response(null, { status: 204, headers });
}
