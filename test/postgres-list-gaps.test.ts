import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MemoryPlayerStore, type PlayerStore } from '../src/index.js';
import { GAP_LIMIT } from '../src/stores/postgres/list-gaps.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, testPool } from './support/postgres.js';

// Removals leave gaps in list positions instead of shifting the rest; pages must still count ranks
// exactly, before and after a list is renumbered in the background.
const gaps = suite('PostgreSQL friend lists with gaps');
const it = POSTGRES_SKIP ? gaps.skip : gaps;
noteSkip();
gaps.after(async () => {
  if (!POSTGRES_SKIP) await dropTestSchemas();
});

/** Every page of `owner`'s list, at page size `size`, as ids. */
async function pages(store: PlayerStore, owner: string, size: number): Promise<string[][]> {
  const total = (await store.listFriends(owner, { offset: 0, limit: 1 }))!.total;
  const out: string[][] = [];
  for (let offset = 0; offset < total + size; offset += size) out.push((await store.listFriends(owner, { offset, limit: size }))!.items.map((p) => p.playerId));
  return out;
}

/** A deterministic sequence of numbers in [0, 1). */
function random(seed: number): () => number {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

it('should page exactly like the memory store through removals, deletes and appends, and after renumbering', async () => {
  const pgStore = await freshPostgresStore('gaps');
  const memory = new MemoryPlayerStore();
  const both = async (f: (s: PlayerStore) => Promise<unknown>) => Promise.all([f(pgStore), f(memory)]);
  await both((s) => s.putPlayer({ playerId: 'o', alias: 'owner' }));
  await both((s) => s.putPlayer({ playerId: 'q', alias: 'other owner' }));
  const n = GAP_LIMIT + 100;
  for (let i = 0; i < n; i++) await both((s) => s.createFriend('o', { playerId: `f${i}`, alias: `f${i}` }));
  for (let i = 0; i < 40; i++) await both((s) => s.addFriend('q', `f${i * 7}`));
  const next = random(7);
  let live = Array.from({ length: n }, (_, i) => `f${i}`);
  // Removals at random places (some by deleting the player, which also leaves a gap in q's list), a few appends between.
  for (let step = 0; step < GAP_LIMIT - 10; step++) {
    const victim = live[Math.floor(next() * live.length)]!;
    if (step % 5 === 0) await both((s) => s.deletePlayer(victim));
    else await both((s) => s.removeFriend('o', victim));
    live = live.filter((id) => id !== victim);
    if (step % 50 === 0) {
      await both((s) => s.createFriend('o', { playerId: `n${step}`, alias: `n${step}` }));
      live.push(`n${step}`);
    }
    if (step % 97 === 0) for (const owner of ['o', 'q']) assert.equal(await pages(pgStore, owner, 7), await pages(memory, owner, 7), `step ${step}, ${owner}`);
  }
  for (const owner of ['o', 'q']) assert.equal(await pages(pgStore, owner, 10), await pages(memory, owner, 10), owner);
  // Past GAP_LIMIT gaps the list is renumbered in the background; pages stay the same throughout.
  for (let i = 0; i < 20; i++) {
    const victim = live[i * 3]!;
    await both((s) => s.removeFriend('o', victim));
    live = live.filter((id) => id !== victim);
  }
  const schemaRow = await testPool!.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'gaps_${process.pid}_%'`);
  const s = `"${schemaRow.rows[0]!.nspname}"`;
  // Removals that came after the renumbering started leave gaps of their own, fewer than the limit.
  let left = Infinity;
  for (let wait = 0; wait < 100 && left >= GAP_LIMIT; wait++) {
    left = Number((await testPool!.query(`SELECT count(*) AS n FROM ${s}.member_gaps g JOIN ${s}.lists l ON l.list = g.list JOIN ${s}.items o ON o.item = l.owner WHERE o.type = 'player' AND o.id = 'o'`)).rows[0].n);
    if (left >= GAP_LIMIT) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(left < 20, `renumbered: ${left} gaps left`);
  const end = (await testPool!.query(`SELECT l.list_end::int AS list_end, l.count AS friend_count FROM ${s}.lists l JOIN ${s}.items o ON o.item = l.owner WHERE o.type = 'player' AND o.id = 'o'`)).rows[0];
  assert.is(end.list_end, end.friend_count + left);
  for (const owner of ['o', 'q']) assert.equal(await pages(pgStore, owner, 10), await pages(memory, owner, 10), `${owner} after renumbering`);
  await both((s) => s.createFriend('o', { playerId: 'last', alias: 'last' }));
  assert.equal(await pages(pgStore, 'o', 10), await pages(memory, 'o', 10), 'an append after renumbering');
});

gaps.run();
