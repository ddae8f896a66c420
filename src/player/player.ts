// A player as the Player API's callers see it, and as its stores keep it.
import type { StoredItem } from '../core/model/documents.js';

/**
 * A player as the plain JSON representation shows it (the Player object of the Player API).
 *
 * @example
 * const p: Player = { playerId: 'alice', alias: 'ali', displayName: 'Alice Liddell',
 *   profilePhotoUrl: 'https://api.example.com/player/alice/avatar.png' };
 */
export interface Player {
  playerId: string;
  alias: string;
  displayName?: string;
  profilePhotoUrl: string;
}

/**
 * The writable state of a player, as a store keeps it. `profilePhotoUrl` is not stored: it is always
 * derived from the base URL and the id. `image` is the picture URL given when the player was created
 * (the avatar endpoint redirects to it while no avatar was uploaded).
 *
 * @example
 * const data: PlayerData = { playerId: 'bob', alias: 'bobby', image: 'https://cdn.example.com/b.png' };
 */
export interface PlayerData {
  playerId: string;
  alias: string;
  displayName?: string;
  image?: string;
}

/**
 * A stored player: its data plus the store's revision (an opaque token, different after every change of
 * the player or of its friend list, never reused) and the time of its last change (epoch milliseconds).
 *
 * @example
 * const record: StoredPlayer = { playerId: 'bob', alias: 'bobby', revision: '17', modifiedAt: Date.now() };
 */
export interface StoredPlayer extends PlayerData, StoredItem {
  revision: string;
  modifiedAt: number;
}

/**
 * Player ids: 1 to 64 characters of the RFC 3986 unreserved set, but not `.` or `..`, which are dot
 * segments a URL resolves away (RFC 3986 section 5.2.4: `/player/..` is `/`; docs/decisions.md).
 *
 * @example
 * PLAYER_ID_PATTERN.test('ada-01'); // true
 */
export const PLAYER_ID_PATTERN = /^(?!\.\.?$)[A-Za-z0-9._~-]{1,64}$/;

/**
 * Whether `id` is a valid player id (1-64 characters of `A-Z a-z 0-9 . _ ~ -`, not `.` or `..`).
 *
 * @example
 * isValidPlayerId('alice'); // true
 * isValidPlayerId('a/b');   // false
 */
export function isValidPlayerId(id: string): boolean {
  return PLAYER_ID_PATTERN.test(id);
}
