// The Player model: its fields, the identifier rules, and the two naming schemes.
import { avatarUrl } from './urls.js';

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
export interface StoredPlayer extends PlayerData {
  revision: string;
  modifiedAt: number;
}

/**
 * The field names of the linked-data style representations (JSON-LD, HAL, Collection+JSON, Siren,
 * JSON:API), as the linked-data style formats name them.
 *
 * @example
 * toAlternateFields(player); // { playerId, name, alternateName, image }
 */
export interface AlternatePlayerFields {
  playerId: string;
  name?: string;
  alternateName: string;
  image: string;
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
 * isValidPlayerId('..');    // false
 */
export function isValidPlayerId(id: string): boolean {
  return PLAYER_ID_PATTERN.test(id);
}

/**
 * The plain JSON form of a stored player, with its avatar URL built from `baseUrl`.
 *
 * @example
 * toPlayer({ playerId: 'bob', alias: 'bobby', revision: '1', modifiedAt: 0 }, 'https://x.test');
 * // { playerId: 'bob', alias: 'bobby', profilePhotoUrl: 'https://x.test/player/bob/avatar.png' }
 */
export function toPlayer(data: PlayerData, baseUrl: string): Player {
  const player: Player = { playerId: data.playerId, alias: data.alias, profilePhotoUrl: avatarUrl(baseUrl, data.playerId) };
  if (data.displayName !== undefined) player.displayName = data.displayName;
  return reorder(player);
}

function reorder(p: Player): Player {
  // Keep a stable, documented member order: playerId, alias, displayName, profilePhotoUrl.
  return p.displayName === undefined
    ? { playerId: p.playerId, alias: p.alias, profilePhotoUrl: p.profilePhotoUrl }
    : { playerId: p.playerId, alias: p.alias, displayName: p.displayName, profilePhotoUrl: p.profilePhotoUrl };
}

/**
 * The alternate field names of a player (displayName → name, alias → alternateName,
 * profilePhotoUrl → image).
 *
 * @example
 * toAlternateFields({ playerId: 'bob', alias: 'bobby', profilePhotoUrl: 'https://x.test/player/bob/avatar.png' });
 * // { playerId: 'bob', alternateName: 'bobby', image: 'https://x.test/player/bob/avatar.png' }
 */
export function toAlternateFields(player: Player): AlternatePlayerFields {
  const fields: AlternatePlayerFields = { playerId: player.playerId, alternateName: player.alias, image: player.profilePhotoUrl };
  return player.displayName === undefined
    ? fields
    : { playerId: player.playerId, name: player.displayName, alternateName: player.alias, image: player.profilePhotoUrl };
}
