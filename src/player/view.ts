// What a player's representation depends on: its validators and its resource document, for GET and writes.
import type { Validators } from '../core/http/conditional.js';
import type { RequestContext } from '../core/service/context.js';
import { friendsResource, paging, playerResource } from './documents.js';
import { playerEtag, representationKey, sliceKey } from '../core/respond/etag.js';
import { type StoredPlayer } from './player.js';
import { playerUrl } from './urls.js';
import type { RenderPlan, Representation } from '../core/model/representation.js';
import type { Item } from '../core/model/resource.js';

/** A player ready to be answered: validators computed, the players it shows, the document built only on demand. */
export interface PlayerView {
  validators: Validators;
  dependsOn: readonly string[];
  build: () => Item;
}

/**
 * The view of a stored player in one format: the ETag from the store revision (and, when the format
 * embeds them, the revisions of the first page of friends), Last-Modified, and a builder of the
 * document. GET and every write use it, so a write answers the ETag a following GET would.
 *
 * @example
 * const view = await playerView(ctx, stored, representation, plan);
 * view.validators.etag; // '"17-..."'
 */
export async function playerView(ctx: RequestContext, stored: StoredPlayer, representation: Representation, plan: RenderPlan): Promise<PlayerView> {
  const { store, pageSize } = ctx.config;
  const slice = plan.embed?.includes('friends') ? await store.listFriends(stored.playerId, { offset: 0, limit: pageSize }) : undefined;
  return viewOf(ctx, stored, representation, plan, slice);
}

/**
 * The view from data already loaded (GET loads the player and its friends in parallel).
 *
 * @example
 * const view = viewOf(ctx, stored, representation, plan, slice);
 */
export function viewOf(
  ctx: RequestContext,
  stored: StoredPlayer,
  representation: Representation,
  plan: RenderPlan,
  slice: { items: readonly StoredPlayer[]; total: number } | undefined,
): PlayerView {
  const id = stored.playerId;
  const { pageSize } = ctx.config;
  // Everything the body depends on besides the player's own revision: format, variants, URL and, when
  // the format embeds them, the first page of friends (ids, revisions, total).
  let depends = representationKey(representation.name, plan.variant, ctx.variant, playerUrl(ctx.baseUrl, id));
  let lastModified = stored.modifiedAt;
  const shown = [id];
  if (slice) {
    depends += `|${sliceKey(slice)}`;
    for (const p of slice.items) {
      lastModified = Math.max(lastModified, p.modifiedAt);
      shown.push(p.playerId);
    }
  }
  return {
    validators: { etag: playerEtag(stored.revision, depends), lastModified },
    dependsOn: shown,
    build: () =>
      playerResource(
        ctx.baseUrl,
        stored,
        slice && friendsResource(ctx.baseUrl, id, slice.items, paging(1, pageSize, slice.total, slice.items.length), undefined, 'list', undefined, ctx.config.store.sharesRecords === true),
      ),
  };
}
