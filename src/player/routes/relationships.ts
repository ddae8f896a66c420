// GET /player/{id}/relationships/friends: the linkage of a player's friends (JSON:API relationship URL).
import type { Answer } from '../../respond/answer.js';
import { selectRepresentation, type RequestContext } from '../../service/context.js';
import { friendsResource } from '../documents.js';
import { loadFriendsPage } from '../friends-page.js';
import { pageEtag, representationKey, sliceKey } from '../../respond/etag.js';
import { requirePage, requirePlayerId } from '../params.js';
import { playerUrl } from '../urls.js';
import { respond } from '../../respond/conditional-get.js';
import type { Route } from '../../service/router.js';

/**
 * Serves GET/HEAD of one page (`?page=N`) of the linkage of a player's friends: the identifiers of the
 * friends, in the formats that implement `renderLinkage` (JSON:API among the built-ins); any other
 * Accept is 406 listing those formats.
 *
 * @example
 * await getFriendsLinkage(ctx);
 */
export async function getFriendsLinkage(ctx: RequestContext): Promise<Answer> {
  const id = requirePlayerId(ctx.params.id);
  const page = requirePage(ctx.url.searchParams);
  const { representation, plan } = selectRepresentation(ctx, 'friends', 'renderLinkage');
  const { pageSize } = ctx.config;
  const { owner, slice, info, lastModified, shown } = await loadFriendsPage(ctx, id, page);
  const key = representationKey(representation.name, plan.variant, ctx.variant, playerUrl(ctx.baseUrl, id));
  const depends = `${key}|${owner.revision}|linkage|${page}|${pageSize}|${sliceKey(slice)}`;
  return respond(ctx, {
    representation,
    plan,
    validators: { etag: pageEtag(depends), lastModified },
    policy: ctx.config.cache.friends,
    dependsOn: shown,
    build: () => friendsResource(ctx.baseUrl, id, slice.items, info, undefined, 'linkage'),
    render: (resource, r, p) => (resource.kind === 'player' ? r.render(resource, p) : r.renderLinkage!(resource, p)),
  });
}

/** The route of the friends relationship (JSON:API "relationship URL"). */
export const friendsLinkageRoute: Route = { path: '/player/{id}/relationships/friends', methods: { GET: getFriendsLinkage } };
