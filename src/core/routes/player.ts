// GET /player/{id}: one player.
import { selectRepresentation, type RequestContext } from '../context.js';
import { friendsResource, paging, playerResource } from '../documents.js';
import { playerEtag, representationKey, sliceKey } from '../etag.js';
import { requirePlayerId } from '../params.js';
import { playerUrl } from '../player.js';
import { HttpError } from '../problem.js';
import { respond } from '../respond.js';
import type { Route } from '../router.js';

/**
 * Serves GET/HEAD of a player. The ETag comes from the store revision (and, when the format embeds
 * them, the revisions of the first page of friends), so a 304 costs one store read and no rendering.
 *
 * @example
 * await getPlayer(ctx); // Response 200, 304 or an HttpError
 */
export async function getPlayer(ctx: RequestContext): Promise<Response> {
  const id = requirePlayerId(ctx.params.id);
  const { representation, plan } = selectRepresentation(ctx, 'player');
  const { store, pageSize } = ctx.config;
  const [stored, slice] = await Promise.all([
    store.getPlayer(id),
    plan.embedFriends ? store.listFriends(id, { offset: 0, limit: pageSize }) : undefined,
  ]);
  if (!stored) throw new HttpError(404, `There is no player "${id}".`);
  const url = playerUrl(ctx.baseUrl, id);
  // Everything the body depends on besides the player's own revision: format, variants, URL and, when
  // the format embeds them, the first page of friends (ids, revisions, total).
  let depends = representationKey(representation.name, plan.variant, ctx.variant, url);
  let lastModified = stored.modifiedAt;
  if (slice) {
    depends += `|${sliceKey(slice)}`;
    for (const p of slice.items) lastModified = Math.max(lastModified, p.modifiedAt);
  }
  return respond(ctx, {
    representation,
    plan,
    validators: { etag: playerEtag(stored.revision, depends), lastModified },
    policy: ctx.config.cache.player,
    build: () =>
      playerResource(
        ctx.baseUrl,
        stored,
        slice && friendsResource(ctx.baseUrl, id, slice.items, paging(1, pageSize, slice.total, slice.items.length)),
      ),
  });
}

/** The route of a player resource. */
export const playerRoute: Route = { path: '/player/{id}', methods: { GET: getPlayer } };
