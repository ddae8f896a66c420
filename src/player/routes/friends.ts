// GET /player/{id}/friends and /player/{id}/friends/search: pages of friends; the list's write routes.
import type { Answer } from '../../core/respond/answer.js';
import { acceptedBodyTypes } from '../body.js';
import { selectRepresentation, type RequestContext } from '../../core/service/context.js';
import { friendsResource, PLAYER } from '../documents.js';
import { loadFriendsPage } from '../friends-page.js';
import { pageEtag, representationKey, sliceKey } from '../../core/respond/etag.js';
import { playerUrl } from '../urls.js';
import { requirePage, requirePlayerId, requireSearch } from '../params.js';
import { respond } from '../../core/respond/conditional-get.js';
import type { Route } from '../../core/service/router.js';
import { deleteFriend, postFriend } from './friend-writes.js';

async function servePage(ctx: RequestContext, query: string | undefined): Promise<Answer> {
  const id = requirePlayerId(ctx.params.id);
  const params = ctx.url.searchParams;
  const { representation, plan } = selectRepresentation(ctx, 'page', PLAYER);
  // A format may name the search text its own way (JSON:API: filter[search]), also on the list itself.
  const parameter = representation.searchParameter ?? 'search';
  const searching = query !== undefined || (parameter !== 'search' && params.has(parameter));
  const search = searching ? requireSearch(params, parameter) : undefined;
  const page = requirePage(params);
  const kind = search === undefined ? 'friends' : 'search';
  const { pageSize } = ctx.config;
  const { owner, slice, info, lastModified, shown } = await loadFriendsPage(ctx, id, page, search);
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
    // A search page may change with any friend of the owner (one may start or stop matching).
    dependsOn: search === undefined ? shown : 'all',
    ...(search === undefined ? {} : { tags: { players: shown, search: true } }),
    build: () => friendsResource(ctx.baseUrl, id, slice.items, info, search, 'list', parameter, ctx.config.store.sharesRecords === true),
  });
}

/**
 * Serves GET/HEAD of a page of a player's friends (`?page=N`, 1-based).
 *
 * @example
 * await getFriends(ctx);
 */
export function getFriends(ctx: RequestContext): Promise<Answer> {
  return servePage(ctx, undefined);
}

/**
 * Serves GET/HEAD of a page of the friends matching `?search=TEXT` (alias or display name,
 * case-insensitive).
 *
 * @example
 * await searchFriends(ctx);
 */
export function searchFriends(ctx: RequestContext): Promise<Answer> {
  return servePage(ctx, '');
}

/** The route of a friends list; OPTIONS advertises the body formats POST reads (Accept-Post, W3C LDP section 7.1). */
export const friendsRoute: Route = {
  path: '/player/{id}/friends',
  methods: { GET: getFriends, POST: postFriend },
  optionsFields: (config) => new Map([['accept-post', acceptedBodyTypes(config.representations).join(', ')]]),
};
/** The route of one entry of a friends list: it can only be removed. */
export const friendRoute: Route = { path: '/player/{id}/friends/{friendId}', methods: { DELETE: deleteFriend } };
/** The route of a search among friends. */
export const searchRoute: Route = { path: '/player/{id}/friends/search', methods: { GET: searchFriends } };
