// GET /player/{id}/friends and /player/{id}/friends/search: pages of friends; the list's write routes.
import { acceptedBodyTypes } from '../body-formats.js';
import { selectRepresentation, type RequestContext } from '../context.js';
import { friendsResource, paging } from '../documents.js';
import { pageEtag, representationKey, sliceKey } from '../etag.js';
import { playerUrl } from '../player.js';
import { requirePage, requirePlayerId, requireSearch } from '../params.js';
import { HttpError } from '../problem.js';
import { respond } from '../respond.js';
import type { Route } from '../router.js';
import { deleteFriend, postFriend } from './friend-writes.js';

async function servePage(ctx: RequestContext, query: string | undefined): Promise<Response> {
  const id = requirePlayerId(ctx.params.id);
  const search = query === undefined ? undefined : requireSearch(ctx.url.searchParams);
  const page = requirePage(ctx.url.searchParams);
  const kind = search === undefined ? 'friends' : 'search';
  const { representation, plan } = selectRepresentation(ctx, kind);
  const { store, pageSize } = ctx.config;
  const window = { offset: (page - 1) * pageSize, limit: pageSize };
  const [owner, slice] = await Promise.all([
    store.getPlayer(id),
    search === undefined ? store.listFriends(id, window) : store.searchFriends(id, search, window),
  ]);
  if (!owner || !slice) throw new HttpError(404, `There is no player "${id}".`);
  const info = paging(page, pageSize, slice.total, slice.items.length);
  // DESIGN.md: a page past the last is 404, except page 1 of an empty list.
  if (page > info.lastPage) throw new HttpError(404, `Page ${page} does not exist; the last page is ${info.lastPage}.`);
  let lastModified = owner.modifiedAt;
  for (const p of slice.items) lastModified = Math.max(lastModified, p.modifiedAt);
  // Everything the body depends on: format, variants, the owner's URL (base URL, prefix, proxy host) and
  // revision (it changes with the friend list), the kind, search text, page and page size, the total,
  // and each player on the page by id and revision. Nothing here needs the body to be built.
  const key = representationKey(representation.name, plan.variant, ctx.variant, playerUrl(ctx.baseUrl, id));
  const depends = `${key}|${owner.revision}|${kind}|${encodeURIComponent(search ?? '')}|${page}|${pageSize}|${sliceKey(slice)}`;
  return respond(ctx, {
    representation,
    plan,
    validators: { etag: pageEtag(depends, owner.revision), lastModified },
    policy: search === undefined ? ctx.config.cache.friends : ctx.config.cache.search,
    build: () => friendsResource(ctx.baseUrl, id, slice.items, info, search),
  });
}

/**
 * Serves GET/HEAD of a page of a player's friends (`?page=N`, 1-based).
 *
 * @example
 * await getFriends(ctx);
 */
export function getFriends(ctx: RequestContext): Promise<Response> {
  return servePage(ctx, undefined);
}

/**
 * Serves GET/HEAD of a page of the friends matching `?search=TEXT` (alias or display name,
 * case-insensitive).
 *
 * @example
 * await searchFriends(ctx);
 */
export function searchFriends(ctx: RequestContext): Promise<Response> {
  return servePage(ctx, '');
}

/** The route of a friends list; OPTIONS advertises the body formats POST reads (Accept-Post, W3C LDP section 7.1). */
export const friendsRoute: Route = {
  path: '/player/{id}/friends',
  methods: { GET: getFriends, POST: postFriend },
  optionsHeaders: (config) => ({ 'Accept-Post': acceptedBodyTypes(config.representations).join(', ') }),
};
/** The route of one entry of a friends list: it can only be removed. */
export const friendRoute: Route = { path: '/player/{id}/friends/{friendId}', methods: { DELETE: deleteFriend } };
/** The route of a search among friends. */
export const searchRoute: Route = { path: '/player/{id}/friends/search', methods: { GET: searchFriends } };
