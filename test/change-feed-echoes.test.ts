import { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChangeFeed } from '../src/stores/postgres/change-feed.js';
import { schemaChannel } from '../src/stores/postgres/channels.js';
import type { Changes, CurrentRecords, StoredItem } from '../src/stores/contract.js';

// The PostgreSQL change feed with its write echoes, over a scripted connection: a notice naming an item
// a write of this instance is writing waits for that write; its own echo is never told; and the lease
// does not advance while a notice waits, so the staleness bound holds. docs/decisions.md, "PostgreSQL".
const feed = suite('ChangeFeed: the echo of a write of this instance, and the lease while a notice waits');

/** A pool of one scripted listening connection: heartbeats come back at once; `notify` delivers a notice. */
function scriptedPool() {
  const client = Object.assign(new EventEmitter(), {
    query(text: string) {
      const beat = /^NOTIFY (\S+), '(\d+)'$/.exec(text);
      if (beat) setImmediate(() => client.emit('notification', { channel: beat[1], payload: beat[2] }));
      // The schema's migrations: at migration 8, so the feed listens to the schema's own channel.
      return Promise.resolve({ rows: text.includes('schema_migrations') ? [{ version: 8 }] : [] });
    },
    release() {},
  });
  const pool = { connect: (callback: (error: Error | undefined, c: unknown) => void) => callback(undefined, client) } as unknown as Pool;
  const notify = (key: string, revision: string) => client.emit('notification', { channel: schemaChannel('public'), payload: `public\n${key}\n${revision}` });
  return { pool, notify };
}

const record = (revision: string): StoredItem => ({ playerId: 'alice', alias: 'a', revision, modifiedAt: 0 }) as StoredItem;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function listening(maxStalenessMs = 5000) {
  const { pool, notify } = scriptedPool();
  const changeFeed = new ChangeFeed(pool, 'public', { heartbeatMs: 10, maxStalenessMs });
  const told: { changed: Changes; current?: CurrentRecords }[] = [];
  changeFeed.add((changed, current) => told.push({ changed, current }));
  for (let waited = 0; !told.some((t) => t.changed === 'all') && waited < 1000; waited += 5) await wait(5);
  const keys = () => told.filter((t) => Array.isArray(t.changed)).map((t) => (t.changed as string[]).join());
  const leases = () => told.filter((t) => typeof t.changed === 'object' && !Array.isArray(t.changed)).length;
  return { changeFeed, notify, told, keys, leases };
}

feed('should hold the echo heard before the write returns, tell the write once with its record, and hold the lease meanwhile', async () => {
  const { changeFeed, notify, told, keys, leases } = await listening();
  await wait(30);
  assert.ok(leases() > 0, 'heartbeats heard: leases told');
  const ticket = changeFeed.begin(['player/alice']);
  notify('player/alice', '7'); // the echo, before the write's own answer
  const held = leases();
  await wait(50);
  assert.is(leases(), held, 'no lease while a notice waits: it would vouch for a change not told');
  assert.equal(keys(), [], 'the notice waits for the write');
  changeFeed.tellWrite(ticket, ['player/alice'], new Map([['player/alice', record('7')]]), 'unchanged');
  assert.equal(keys(), ['player/alice'], 'told once: the write, not its echo');
  const write = told.find((t) => Array.isArray(t.changed))!;
  assert.is(write.current?.records.get('player/alice')?.revision, '7', 'its record handed on');
  assert.is(write.current?.lists, 'unchanged');
  assert.ok(leases() > held, 'the lease the heartbeat earned is told once nothing waits');
  notify('player/bob', '8');
  assert.equal(keys(), ['player/alice', 'player/bob'], 'an item no write is writing: told at once');
  changeFeed.close();
});

feed('should tell a change by another instance that waited, after the write, with no record of that item', async () => {
  const { changeFeed, notify, told, keys } = await listening();
  const ticket = changeFeed.begin(['player/alice']);
  notify('player/alice', '7');
  notify('player/alice', '9'); // another instance's change, committed after this write
  changeFeed.tellWrite(ticket, ['player/alice'], new Map([['player/alice', record('7')]]), 'unchanged');
  assert.equal(keys(), ['player/alice', 'player/alice'], 'the write, then the later change');
  assert.is(told.find((t) => Array.isArray(t.changed))!.current, undefined, 'a later change was heard: nothing handed on');
  // The echo that comes after the write returned is not told either.
  const next = changeFeed.begin(['player/alice']);
  changeFeed.tellWrite(next, ['player/alice'], new Map([['player/alice', record('11')]]), 'unchanged');
  notify('player/alice', '11');
  assert.equal(keys().length, 3, 'the echo of revision 11 is not told');
  // A write that fails tells what it held.
  const failed = changeFeed.begin(['player/alice']);
  notify('player/alice', '12');
  changeFeed.abandon(failed);
  assert.equal(keys().length, 4);
  changeFeed.close();
});

feed('should tell a notice held for a slow write after a quarter of the staleness bound, and let the lease go on', async () => {
  const { changeFeed, notify, told, keys, leases } = await listening(200);
  const slow = changeFeed.begin(['player/alice']);
  notify('player/alice', '9');
  const held = leases();
  await wait(20);
  assert.equal(keys(), [], 'held for a moment');
  await wait(100);
  assert.equal(keys(), ['player/alice'], 'told while the write still waits');
  assert.ok(leases() > held, 'the lease goes on');
  changeFeed.tellWrite(slow, ['player/alice'], new Map([['player/alice', record('8')]]), 'unchanged');
  assert.is(told.filter((t) => Array.isArray(t.changed)).at(-1)!.current, undefined, 'nothing handed on: a change was told meanwhile');
  changeFeed.close();
});

feed('should keep the lease going under writes that always hold some notice', async () => {
  const { changeFeed, notify, keys, leases } = await listening();
  // Overlapping writes: at every moment one holds its echo, yet each echo is held only briefly.
  let previous = changeFeed.begin(['player/w0'])!;
  notify('player/w0', '1');
  const before = leases();
  for (let i = 1; i <= 40; i++) {
    const next = changeFeed.begin([`player/w${i}`])!;
    notify(`player/w${i}`, String(i + 1));
    changeFeed.tellWrite(previous, [`player/w${i - 1}`], new Map([[`player/w${i - 1}`, record(String(i))]]), 'unchanged');
    previous = next;
    await wait(3);
  }
  assert.ok(leases() > before + 3, `the lease went on (${leases() - before} leases told)`);
  assert.is(keys().length, 40, 'each write told once, no echo');
  changeFeed.close();
});

feed('should hold nothing and hand nothing on while no listener wants records', async () => {
  const { pool, notify } = scriptedPool();
  const changeFeed = new ChangeFeed(pool, 'public', { heartbeatMs: 10, maxStalenessMs: 5000 });
  const told: Changes[] = [];
  let wants = false;
  changeFeed.add(Object.assign((changed: Changes) => void told.push(changed), { wantsRecords: () => wants }));
  for (let waited = 0; !told.includes('all') && waited < 1000; waited += 5) await wait(5);
  assert.is(changeFeed.begin(['player/alice']), undefined, 'the memo keeps nothing: no ticket');
  notify('player/alice', '7');
  assert.ok(told.some((t) => Array.isArray(t) && t[0] === 'player/alice'), 'the echo told like any notice');
  wants = true;
  assert.ok(changeFeed.begin(['player/alice']), 'it keeps reads again: tickets again');
  changeFeed.close();
});

feed.run();
