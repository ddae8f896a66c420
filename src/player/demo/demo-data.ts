// Demo players and friendships for the example server, the CLI and the documentation.
import type { PlayerStore } from '../player-store.js';

/**
 * The id of the demo player with more than 25 friends (three pages at the default page size).
 *
 * @example
 * await service.fetch(new Request(`${baseUrl}/player/${DEMO_PLAYER_ID}`));
 */
export const DEMO_PLAYER_ID = 'alice';

const FIRST = ['Ada', 'Brook', 'Cyril', 'Dana', 'Elif', 'Femi', 'Goro', 'Hana', 'Ivo', 'Juno', 'Kai', 'Lena', 'Milo', 'Nora', 'Otto', 'Pia', 'Quinn', 'Rosa', 'Sami', 'Tove'];
const LAST = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Silva', 'Novak', 'Haddad', 'Kowalski'];

/**
 * Fills a store with demo data: `alice` (Alice Liddell) with 32 friends, `bob` with 3, and 40 other
 * players. Deterministic: the same ids, names and order every time.
 *
 * @example
 * const store = new MemoryPlayerStore();
 * await seedDemoData(store);
 * (await store.listFriends('alice', { offset: 0, limit: 10 }))?.total; // 32
 */
export async function seedDemoData(store: PlayerStore): Promise<void> {
  await store.putPlayer({ playerId: DEMO_PLAYER_ID, alias: 'alice', displayName: 'Alice Liddell' });
  await store.putPlayer({ playerId: 'bob', alias: 'bobby', displayName: 'Bob Builder' });
  for (let i = 0; i < 40; i++) {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[i % LAST.length]!;
    const playerId = `${first.toLowerCase()}-${String(i + 1).padStart(2, '0')}`;
    const data = { playerId, alias: `${first.toLowerCase()}${i + 1}`, displayName: `${first} ${last}` };
    await store.putPlayer(i % 5 === 4 ? { playerId: data.playerId, alias: data.alias } : data);
    if (i < 32) await store.addFriend(DEMO_PLAYER_ID, playerId);
    if (i % 10 === 0) await store.addFriend('bob', playerId);
  }
}
