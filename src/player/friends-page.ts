// Loading one page of a player's friends (or of a search among them) with its paging and validators.
import type { RequestContext } from '../core/service/context.js';
import { paging } from './documents.js';
import type { StoredPlayer } from './player.js';
import { HttpError } from '../core/http/problem.js';
import { keepingSince, keepRecords } from './current-player.js';
import type { Paging } from '../core/model/resource.js';
import type { PlayerSlice } from '../stores/contract.js';

/**
 * A loaded page: the owner, the slice of friends, its paging, and the latest change time of anything
 * the page shows (for Last-Modified).
 *
 * @example
 * const { slice, info } = await loadFriendsPage(ctx, 'alice', 2);
 */
export interface LoadedFriendsPage {
  owner: StoredPlayer;
  slice: PlayerSlice;
  info: Paging;
  lastModified: number;
  /** The players the page shows: the owner (its list) and each friend on it. */
  shown: string[];
}

/**
 * Reads one page of the owner's friends (or of the friends matching `search`) and the owner: with the
 * slice when the store gives it (one read), else by a second read.
 * 404 for an unknown owner, and for a page past the last except page 1 of an empty list (docs/decisions.md).
 *
 * @example
 * const page = await loadFriendsPage(ctx, 'alice', 1, 'ada');
 */
export async function loadFriendsPage(ctx: RequestContext, id: string, page: number, search?: string): Promise<LoadedFriendsPage> {
  const { store, pageSize } = ctx.config;
  const window = { offset: (page - 1) * pageSize, limit: pageSize };
  const since = keepingSince(ctx);
  // A search counts its matches up to the limit, or up to one past this page, whichever is further.
  const slice = await (search === undefined
    ? store.listFriends(id, window)
    : store.searchFriends(id, search, { ...window, countLimit: Math.max(ctx.config.searchCountLimit, window.offset + pageSize + 1) }));
  const owner = slice && (slice.owner ?? (await store.getPlayer(id)));
  if (!owner || !slice) throw new HttpError(404, `There is no player "${id}".`);
  // The page's players and its owner, for the reads of them that follow (keptPlayer).
  if (since !== undefined) keepRecords(ctx, [owner, ...slice.items], since);
  const info = paging(page, pageSize, slice.total, slice.items.length, slice.totalIsLowerBound === true);
  if (page > info.lastPage) throw new HttpError(404, `Page ${page} does not exist; the last page is ${info.lastPage}.`);
  let lastModified = owner.modifiedAt;
  const shown = [owner.playerId];
  for (const p of slice.items) {
    lastModified = Math.max(lastModified, p.modifiedAt);
    shown.push(p.playerId);
  }
  return { owner, slice, info, lastModified, shown };
}
