// Builds the neutral resource documents (players, friend pages, search pages) from stored data.
import type { Player, StoredPlayer } from './player.js';
import { avatarOf, friendsUrl, linkageUrl, playerUrl, searchTemplate, searchUrl } from './urls.js';
import { markShared, markUriSafe, type FriendsResource, type Link, type Operation, type Paging, type PlayerResource } from '../core/model/resource.js';

/**
 * The operations a friends list offers: add a friend (POST, the name / alternateName / image
 * payload) and search the friends (GET with `search`).
 *
 * @example
 * friendOperations('https://x.test', 'alice').map((o) => o.name); // ['add-friend', 'search']
 */
export function friendOperations(baseUrl: string, ownerId: string): Operation[] {
  const ownerUrl = playerUrl(baseUrl, ownerId);
  return [
    {
      name: 'add-friend',
      title: 'Add a friend',
      method: 'POST',
      href: friendsUrl(ownerUrl),
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
      href: searchUrl(ownerUrl),
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
  const doc = playerDocument(playerUrl(baseUrl, stored.playerId), stored);
  if (friends) doc.friends = friends;
  markUriSafe(doc, baseUrl);
  return doc;
}

/** A player's document from its URL (every other URL derives from it: one percent-encoding of the id). */
function playerDocument(url: string, stored: StoredPlayer): PlayerResource {
  const avatar = avatarOf(url);
  const links: Link[] = [
    { rel: 'self', href: url },
    { rel: 'friends', href: friendsUrl(url) },
    { rel: 'avatar', href: avatar, type: 'image/png' },
    { rel: 'search', href: searchTemplate(url), templated: true },
  ];
  const player: Player =
    stored.displayName === undefined
      ? { playerId: stored.playerId, alias: stored.alias, profilePhotoUrl: avatar }
      : { playerId: stored.playerId, alias: stored.alias, displayName: stored.displayName, profilePhotoUrl: avatar };
  return { kind: 'player', url, player, links, operations: [] };
}

/**
 * The documents of listed players, by stored record, for a store that hands out the same record until
 * the player changes (`PlayerStore.sharesRecords`, the memory store): each document is built once per
 * base URL, not once per page that lists it, and the formats keep their texts of it with it. At most
 * MAX_ITEM_DOCUMENTS are kept (the oldest eighth goes when full): the documents of a store's hot
 * players, never one per player of a large store (bench/memory). A store whose records are new on every
 * read (PostgreSQL) keeps nothing here. Shared between requests, so never changed once made.
 */
const itemDocuments = new Map<StoredPlayer, { baseUrl: string; doc: PlayerResource }>();

/** The most listed players' documents kept (with their texts, about 3 KB each: about 6 MB in all). */
const MAX_ITEM_DOCUMENTS = 2048;

function keptItemDocument(baseUrl: string, stored: StoredPlayer): PlayerResource {
  const kept = itemDocuments.get(stored);
  if (kept !== undefined && kept.baseUrl === baseUrl) {
    // Listed again: the formats may keep their text of it from now on.
    markShared(kept.doc);
    return kept.doc;
  }
  const doc = itemDocument(baseUrl, stored);
  if (itemDocuments.size >= MAX_ITEM_DOCUMENTS) {
    let excess = MAX_ITEM_DOCUMENTS / 8;
    for (const old of itemDocuments.keys()) {
      if (excess-- <= 0) break;
      itemDocuments.delete(old);
    }
  }
  itemDocuments.set(stored, { baseUrl, doc });
  return doc;
}

function itemDocument(baseUrl: string, stored: StoredPlayer): PlayerResource {
  return playerDocument(playerUrl(baseUrl, stored.playerId), stored);
}

/**
 * Paging arithmetic for a 1-based page of `pageSize` items in a list of `total` (or of more than
 * `total`, when `lowerBound`).
 *
 * @example
 * paging(2, 10, 25, 10); // { page: 2, pageSize: 10, size: 10, total: 25, lastPage: 3 }
 */
export function paging(page: number, pageSize: number, total: number, size: number, lowerBound = false): Paging {
  const info: Paging = { page, pageSize, size, total, lastPage: Math.max(1, Math.ceil(total / pageSize)) };
  if (lowerBound) info.totalIsLowerBound = true;
  return info;
}

/**
 * Where the pages of a friend list are addressed: the list itself (`/friends?page=N`), or its JSON:API
 * relationship URL (`/relationships/friends?page=N`, the linkage of the same pages).
 *
 * @example
 * const at: PageAddress = 'linkage';
 */
export type PageAddress = 'list' | 'linkage';

/**
 * The resource document of one page of friends, or of search results when `query` is given (its URLs
 * carry the text as `searchParameter`); with `address` 'linkage', the same page at the relationship
 * URL (linking `related`, the list itself). With `sharedRecords`, the items are a store's own records,
 * handed out again until their player changes (`PlayerStore.sharesRecords`): each one's document is
 * kept with it and reused by the next page that lists it.
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
  address: PageAddress = 'list',
  searchParameter = 'search',
  sharedRecords = false,
): FriendsResource {
  const ownerUrl = playerUrl(baseUrl, ownerId);
  const collectionUrl = query !== undefined ? searchUrl(ownerUrl, query, undefined, searchParameter) : address === 'linkage' ? linkageUrl(ownerUrl) : friendsUrl(ownerUrl);
  const at = (page: number) =>
    query !== undefined ? searchUrl(ownerUrl, query, page, searchParameter) : address === 'linkage' ? linkageUrl(ownerUrl, page) : friendsUrl(ownerUrl, page);
  const links: Link[] = [{ rel: 'self', href: at(pageInfo.page) }, { rel: 'first', href: at(1) }];
  if (pageInfo.page > 1) links.push({ rel: 'prev', href: at(Math.min(pageInfo.page - 1, pageInfo.lastPage)) });
  if (pageInfo.page < pageInfo.lastPage) links.push({ rel: 'next', href: at(pageInfo.page + 1) });
  // A search that stopped counting does not know its last page.
  if (!pageInfo.totalIsLowerBound) links.push({ rel: 'last', href: at(pageInfo.lastPage) });
  links.push({ rel: 'up', href: ownerUrl });
  if (query !== undefined) links.push({ rel: 'collection', href: friendsUrl(ownerUrl) });
  if (address === 'linkage') links.push({ rel: 'related', href: friendsUrl(ownerUrl) });
  else links.push({ rel: 'search', href: searchTemplate(ownerUrl), templated: true });
  const doc: FriendsResource = {
    kind: query === undefined ? 'friends' : 'search',
    url: at(pageInfo.page),
    collectionUrl,
    ownerId,
    ownerUrl,
    // The items share the page's verdict on their URIs (markUriSafe below): not marked one by one.
    items: items.map(sharedRecords ? (p) => keptItemDocument(baseUrl, p) : (p) => itemDocument(baseUrl, p)),
    paging: pageInfo,
    links,
    operations: friendOperations(baseUrl, ownerId),
  };
  if (query !== undefined) doc.query = query;
  markUriSafe(doc, baseUrl);
  return doc;
}
