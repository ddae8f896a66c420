// Builds the neutral resource documents (players, friend pages, search pages) from stored data.
import { avatarUrl, playerUrl, toPlayer, type StoredPlayer } from './player.js';
import { markUriSafe, type FriendsResource, type Link, type Operation, type Paging, type PlayerResource } from '../model/resource.js';

/**
 * The operations a friends list offers: add a friend (POST, the seed's name / alternateName / image
 * payload) and search the friends (GET with `search`).
 *
 * @example
 * friendOperations('https://x.test', 'alice').map((o) => o.name); // ['add-friend', 'search']
 */
export function friendOperations(baseUrl: string, ownerId: string): Operation[] {
  const friends = `${playerUrl(baseUrl, ownerId)}/friends`;
  return [
    {
      name: 'add-friend',
      title: 'Add a friend',
      method: 'POST',
      href: friends,
      contentType: 'application/json',
      fields: [
        { name: 'name', type: 'text', title: 'Full name', required: false },
        { name: 'alternateName', type: 'text', title: 'Alias', required: true },
        { name: 'image', type: 'url', title: 'Picture URL', required: false },
      ],
    },
    {
      name: 'search',
      title: 'Search friends',
      method: 'GET',
      href: `${friends}/search`,
      contentType: 'application/x-www-form-urlencoded',
      fields: [{ name: 'search', type: 'search', title: 'Text in alias or name', required: true }],
    },
  ];
}

/**
 * The resource document of one player.
 *
 * @example
 * const doc = playerResource('https://x.test', stored);
 * doc.links.map((l) => l.rel); // ['self', 'friends', 'avatar', 'search']
 */
export function playerResource(baseUrl: string, stored: StoredPlayer, friends?: FriendsResource): PlayerResource {
  const url = playerUrl(baseUrl, stored.playerId);
  const links: Link[] = [
    { rel: 'self', href: url },
    { rel: 'friends', href: `${url}/friends` },
    { rel: 'avatar', href: avatarUrl(baseUrl, stored.playerId), type: 'image/png' },
    { rel: 'search', href: `${url}/friends/search{?search}`, templated: true },
  ];
  const doc: PlayerResource = { kind: 'player', url, player: toPlayer(stored, baseUrl), links, operations: [] };
  if (friends) doc.friends = friends;
  markUriSafe(doc, baseUrl);
  return doc;
}

/**
 * Paging arithmetic for a 1-based page of `pageSize` items in a list of `total`.
 *
 * @example
 * paging(2, 10, 25, 10); // { page: 2, pageSize: 10, size: 10, total: 25, lastPage: 3 }
 */
export function paging(page: number, pageSize: number, total: number, size: number): Paging {
  return { page, pageSize, size, total, lastPage: Math.max(1, Math.ceil(total / pageSize)) };
}

/**
 * The resource document of one page of friends, or of search results when `query` is given.
 *
 * @example
 * const doc = friendsResource('https://x.test', 'alice', slice.items, paging(1, 10, slice.total, slice.items.length));
 */
export function friendsResource(
  baseUrl: string,
  ownerId: string,
  items: readonly StoredPlayer[],
  pageInfo: Paging,
  query?: string,
): FriendsResource {
  const ownerUrl = playerUrl(baseUrl, ownerId);
  const listUrl = query === undefined ? `${ownerUrl}/friends` : `${ownerUrl}/friends/search`;
  const collectionUrl = query === undefined ? listUrl : `${listUrl}?search=${encodeURIComponent(query)}`;
  const at = (page: number) => (query === undefined ? `${listUrl}?page=${page}` : `${collectionUrl}&page=${page}`);
  const links: Link[] = [{ rel: 'self', href: at(pageInfo.page) }, { rel: 'first', href: at(1) }];
  if (pageInfo.page > 1) links.push({ rel: 'prev', href: at(Math.min(pageInfo.page - 1, pageInfo.lastPage)) });
  if (pageInfo.page < pageInfo.lastPage) links.push({ rel: 'next', href: at(pageInfo.page + 1) });
  links.push({ rel: 'last', href: at(pageInfo.lastPage) });
  links.push({ rel: 'up', href: ownerUrl });
  if (query !== undefined) links.push({ rel: 'collection', href: `${ownerUrl}/friends` });
  links.push({ rel: 'search', href: `${ownerUrl}/friends/search{?search}`, templated: true });
  const doc: FriendsResource = {
    kind: query === undefined ? 'friends' : 'search',
    url: at(pageInfo.page),
    collectionUrl,
    ownerId,
    ownerUrl,
    items: items.map((p) => playerResource(baseUrl, p)),
    paging: pageInfo,
    links,
    operations: friendOperations(baseUrl, ownerId),
  };
  if (query !== undefined) doc.query = query;
  markUriSafe(doc, baseUrl);
  return doc;
}
