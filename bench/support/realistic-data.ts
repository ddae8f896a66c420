// The data set of bench/realistic: 1,000 players with 50 friends each, the same in every server and run.

/** Players in the data set. */
export const PLAYERS = 1000;
/** Friends of each player at the start. */
export const FRIENDS = 50;
/** The base URL both servers build their links from. */
export const BASE_URL = 'http://bench.test';
/** The Bearer token both servers accept for writes. */
export const TOKEN = 'realistic-bench-token';

/** One seeded player: id, alias, and a display name for every other one (so both shapes occur). */
export interface SeedPlayer {
  playerId: string;
  alias: string;
  displayName?: string;
}

/** The id of player `i`. */
export const playerId = (i: number): string => `p${String(i).padStart(4, '0')}`;

/** Player `i` as seeded. */
export function seedPlayer(i: number): SeedPlayer {
  const p: SeedPlayer = { playerId: playerId(i), alias: `alias-${i}` };
  if (i % 2 === 0) p.displayName = `Player ${i}`;
  return p;
}

/** The indexes of the friends of player `i`, in list order: 50 distinct players, never `i` itself. */
export function friendIndexes(i: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < FRIENDS; k++) out.push((i + 1 + k * 19) % PLAYERS);
  return out;
}

/** What `seedPlayers` needs of a store: the Player API's own writes. */
export interface SeedTarget {
  putPlayer(player: SeedPlayer): Promise<unknown>;
  addFriend(playerId: string, friendId: string): Promise<unknown>;
}

/**
 * Writes the data set through a store's own API, one write at a time: every player, then every list.
 *
 * @example
 * await seedPlayers(new MemoryPlayerStore());
 */
export async function seedPlayers(store: SeedTarget): Promise<void> {
  for (let i = 0; i < PLAYERS; i++) await store.putPlayer(seedPlayer(i));
  for (let i = 0; i < PLAYERS; i++) for (const f of friendIndexes(i)) await store.addFriend(playerId(i), playerId(f));
}
