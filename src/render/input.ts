// Reads a player or a page of friends given as plain JSON (what a user has) into a resource document.
import { friendsResource, paging, playerResource } from '../player/documents.js';
import { isValidPlayerId, type StoredPlayer } from '../player/player.js';
import type { Page, Resource } from '../core/model/resource.js';

/**
 * A player as `render` and the CLI read it: the plain JSON field names. `friends` (the first page of its
 * friends) and `total` (the length of its whole list, default the number given) matter to the formats
 * that show a player's friend linkage (JSON:API); without them the list is empty.
 *
 * @example
 * const input: PlayerJson = { playerId: 'bob', alias: 'bobby', displayName: 'Bob Builder' };
 * const withFriends: PlayerJson = { playerId: 'bob', alias: 'bobby', friends: [{ playerId: 'ada-01', alias: 'ada' }], total: 3 };
 */
export interface PlayerJson {
  playerId: string;
  alias: string;
  displayName?: string;
  friends?: PlayerJson[];
  total?: number;
}

/**
 * A page of a player's friends as the CLI reads it: the owner's id, the friends on this page, and
 * optionally the page number (default 1), the total of the whole list (default: this page's count) and
 * the search text (which makes it a page of search results).
 *
 * @example
 * const page: FriendsPageJson = { playerId: 'alice', page: 2, total: 32, friends: [{ playerId: 'bob', alias: 'bobby' }] };
 */
export interface FriendsPageJson {
  playerId: string;
  friends: PlayerJson[];
  page?: number;
  total?: number;
  search?: string;
}

/** A TypeError whose message is meant for the person running the CLI. */
function bad(message: string): TypeError {
  return new TypeError(message);
}

function readPlayer(value: unknown, where: string): StoredPlayer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${where} must be an object`);
  const v = value as Record<string, unknown>;
  if (typeof v.playerId !== 'string' || !isValidPlayerId(v.playerId)) throw bad(`${where}.playerId must be 1-64 characters of A-Z a-z 0-9 . _ ~ -`);
  if (typeof v.alias !== 'string' || v.alias.length < 1) throw bad(`${where}.alias must be a non-empty string`);
  if (v.displayName !== undefined && typeof v.displayName !== 'string') throw bad(`${where}.displayName must be a string`);
  const player: StoredPlayer = { playerId: v.playerId, alias: v.alias, revision: '0', modifiedAt: 0 };
  if (typeof v.displayName === 'string') player.displayName = v.displayName;
  return player;
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw bad(`${name} must be a non-negative integer`);
  return value;
}

function readPage(v: Record<string, unknown>, baseUrl: string, pageSize: number, searchParameter?: string): Page {
  if (!Array.isArray(v.friends)) throw bad('friends must be an array of players');
  const friends = v.friends.map((f, i) => readPlayer(f, `friends[${i}]`));
  if (friends.length > pageSize) throw bad(`friends holds ${friends.length} players, more than a page of ${pageSize} (see --page-size)`);
  const page = positiveInteger(v.page, 'page', 1) || 1;
  const total = positiveInteger(v.total, 'total', (page - 1) * pageSize + friends.length);
  if (total < (page - 1) * pageSize + friends.length) throw bad('total is smaller than the players up to this page');
  if (v.search !== undefined && typeof v.search !== 'string') throw bad('search must be a string');
  const owner = readPlayer({ playerId: v.playerId, alias: 'owner' }, 'the page').playerId;
  return friendsResource(baseUrl, owner, friends, paging(page, pageSize, total, friends.length), v.search as string | undefined, 'list', searchParameter);
}

/**
 * Turns the parsed JSON into the resource document the representations render: a page when it has a
 * `friends` array, else a player. Throws a TypeError naming what is wrong.
 *
 * @example
 * resourceFromJson({ playerId: 'bob', alias: 'bobby' }, 'https://api.example.com', 10).kind; // 'player'
 */
export function resourceFromJson(value: unknown, baseUrl: string, pageSize: number, embedFriends = false, searchParameter?: string): Resource {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('the input must be a JSON object: a player or a page of friends');
  const v = value as Record<string, unknown>;
  if ('friends' in v && !('alias' in v)) return readPage(v, baseUrl, pageSize, searchParameter);
  const player = readPlayer(v, 'the player');
  // Formats that carry the friend linkage in the player (JSON:API) get its first page (empty unless given).
  if (!embedFriends) return playerResource(baseUrl, player);
  const first = v.friends === undefined ? { playerId: player.playerId, friends: [], total: v.total } : { playerId: player.playerId, friends: v.friends, total: v.total };
  return playerResource(baseUrl, player, readPage(first, baseUrl, pageSize));
}
