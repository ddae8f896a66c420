// The Player API's documents: a player and a page of its friends, built by the model's builders.
import { itemDocument, pageDocument, type PageAddress } from '../core/model/documents.js';
import type { Item, Page, Paging } from '../core/model/resource.js';
import { playerApi } from './api.js';
import type { StoredPlayer } from './player.js';

export { paging } from '../core/model/documents.js';

/** The player type and its friends relation, compiled. */
export const PLAYER = playerApi.type('player');
export const FRIENDS = PLAYER.relation('friends')!;

/**
 * The JSON Schema of a player in its plain JSON form: what PUT bodies and PATCH results are validated
 * against (made from the player type's fields).
 *
 * @example
 * PLAYER_SCHEMA.required; // ['playerId', 'alias']
 */
export const PLAYER_SCHEMA = PLAYER.schema as {
  readonly title: string;
  readonly type: 'object';
  readonly required: readonly string[];
  readonly properties: Readonly<Record<'playerId' | 'alias' | 'displayName' | 'image' | 'profilePhotoUrl', Readonly<Record<string, unknown>>>>;
  readonly additionalProperties: false;
};

/**
 * The document of one player; with `friends`, the first page of its friends (JSON:API linkage and
 * `include=friends`).
 *
 * @example
 * const doc = playerResource('https://x.test', stored);
 * doc.links.map((l) => l.rel); // ['self', 'friends', 'avatar', 'search']
 */
export function playerResource(baseUrl: string, stored: StoredPlayer, friends?: Page): Item {
  return itemDocument(PLAYER, baseUrl, stored, friends ? { friends } : undefined);
}

/**
 * The document of one page of a player's friends, or of search results when `query` is given (see
 * `pageDocument`).
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
): Page {
  return pageDocument(FRIENDS, baseUrl, ownerId, items, pageInfo, query, address, searchParameter, sharedRecords);
}
