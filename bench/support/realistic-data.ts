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
