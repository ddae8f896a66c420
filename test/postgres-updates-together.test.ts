import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { StoreError } from '../src/stores/contract.js';
import { STALLED_MS } from '../src/stores/postgres/together.js';
import { playerApi } from '../src/player/api.js';
import { countStatements, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// Compare-and-set updates sent together while others are in flight (Together): each keeps its own
// outcome. docs/decisions.md, "PostgreSQL writes together".
const together = suite('PostgreSQL: updates sent together');
const it = POSTGRES_SKIP ? together.skip : together;
noteSkip();

const player = playerApi.type('player');
let pool: pg.Pool;
let schema: string;

together.before(async () => {
  if (POSTGRES_SKIP) return;
  pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 6 });
  schema = `updates_together_${process.pid}`;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await new PostgresPlayerStore({ pool, schema }).migrate();
});

together.after(async () => {
  if (POSTGRES_SKIP) return;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

/** A store on the suite's schema sending at most `inFlight` update statements at once, with players `ids` made anew. */
async function storeWith(inFlight: number, ids: string[]): Promise<{ store: PostgresPlayerStore; revisions: Map<string, string> }> {
  const store = new PostgresPlayerStore({ pool, schema, writesInFlight: inFlight });
  const revisions = new Map<string, string>();
  for (const id of ids) revisions.set(id, (await store.putPlayer({ playerId: id, alias: `${id}-0` })).player.revision);
  return { store, revisions };
}

/** The outcome of a promise: its value, or the code of the StoreError it failed with. */
function outcome<T>(promise: Promise<T>): Promise<T | string> {
  return promise.catch((error: unknown) => (error instanceof StoreError ? error.code : `not a StoreError: ${String(error)}`));
}

/** How many updates the counted statements carried: `updateItem` one, `updateItems<n>` n. */
function updatesIn(statements: string[]): { statements: number; updates: number } {
  let updates = 0;
  let count = 0;
  for (const name of statements) {
    const n = name === 'updateItem' ? 1 : /^updateItems(\d+)$/.exec(name)?.[1];
    if (n === undefined) continue;
    count++;
    updates += Number(n);
  }
  return { statements: count, updates };
}

it('should send the updates that wait as one statement, each with its own new revision', async () => {
  const ids = Array.from({ length: 10 }, (_, i) => `p${i}`);
  const { store, revisions } = await storeWith(2, ids);
  const counting = countStatements(schema);
  try {
    const written = await Promise.all(ids.map((id) => store.put(player, { playerId: id, alias: `${id}-1` }, { expect: { revision: revisions.get(id)! } })));
    const { statements, updates } = updatesIn(counting.statements);
    assert.is(updates, 10, 'every update was sent once');
    assert.ok(statements < 10, `fewer statements than updates: ${counting.statements.join(', ')}`);
    assert.is(new Set(written.map((w) => w.item.revision)).size, 10, 'a revision of its own each');
    for (const [i, id] of ids.entries()) {
      const stored = await store.getPlayer(id);
      assert.is(stored?.alias, `${id}-1`);
      assert.is(stored?.revision, written[i]!.item.revision, `${id}: the revision returned is the one stored`);
      assert.is.not(stored?.revision, revisions.get(id));
    }
  } finally {
    counting.restore();
  }
});

it('should fail only the update whose revision changed, in a statement with others', async () => {
  const ids = ['a', 'b', 'c', 'd'];
  const { store, revisions } = await storeWith(1, ids);
  const counting = countStatements(schema);
  try {
    // The first goes alone; the three that arrive while it is in flight go together.
    const results = await Promise.all([
      outcome(store.put(player, { playerId: 'a', alias: 'a-1' }, { expect: { revision: revisions.get('a')! } })),
      outcome(store.put(player, { playerId: 'b', alias: 'b-1' }, { expect: { revision: revisions.get('b')! } })),
      outcome(store.put(player, { playerId: 'c', alias: 'c-1' }, { expect: { revision: '1' } })),
      outcome(store.put(player, { playerId: 'd', alias: 'd-1' }, { expect: { revision: revisions.get('d')! } })),
    ]);
    assert.equal(counting.statements.filter((s) => s.startsWith('updateItem')), ['updateItem', 'updateItems3']);
    assert.is(results[2], 'revision-mismatch');
    for (const i of [0, 1, 3]) assert.type(results[i], 'object', `${ids[i]} was written`);
    assert.equal((await Promise.all(ids.map((id) => store.getPlayer(id)))).map((p) => p?.alias), ['a-1', 'b-1', 'c-0', 'd-1']);
  } finally {
    counting.restore();
  }
});

it('should send two updates of one item in turn, never in one statement', async () => {
  const { store, revisions } = await storeWith(1, ['x', 'y', 'z']);
  const counting = countStatements(schema);
  try {
    const same = { expect: { revision: revisions.get('y')! } };
    const results = await Promise.all([
      outcome(store.put(player, { playerId: 'x', alias: 'x-1' }, { expect: { revision: revisions.get('x')! } })),
      // Both expect the same revision of y: the first written makes the second's expectation fail.
      outcome(store.put(player, { playerId: 'y', alias: 'y-1' }, same)),
      outcome(store.put(player, { playerId: 'y', alias: 'y-2' }, same)),
      // Whatever y's revision is: written after the others, in a statement of its own.
      outcome(store.put(player, { playerId: 'y', alias: 'y-3' }, { expect: { exists: true } })),
      outcome(store.put(player, { playerId: 'z', alias: 'z-1' }, { expect: { revision: revisions.get('z')! } })),
    ]);
    assert.equal(counting.statements.filter((s) => s.startsWith('updateItem')), ['updateItem', 'updateItems2', 'updateItem', 'updateItem']);
    assert.type(results[1], 'object');
    assert.is(results[2], 'revision-mismatch');
    assert.type(results[3], 'object');
    assert.is((await store.getPlayer('y'))?.alias, 'y-3', 'the updates of one item were written in the order they came');
    assert.equal([(await store.getPlayer('x'))?.alias, (await store.getPlayer('z'))?.alias], ['x-1', 'z-1']);
  } finally {
    counting.restore();
  }
});

it('should fail only the update whose data the database refuses, and write the others of its statement', async () => {
  const { store, revisions } = await storeWith(1, ['m', 'n', 'o', 'q']);
  const counting = countStatements(schema);
  try {
    const put = (id: string, alias: string) => outcome(store.put(player, { playerId: id, alias }, { expect: { revision: revisions.get(id)! } }));
    // jsonb refuses the escape \u0000 (SQLSTATE 22P05) whatever the rest of the statement holds.
    const results = await Promise.all([put('m', 'm-1'), put('n', 'n-1'), put('o', 'o\u0000'), put('q', 'q-1')]);
    const sent = counting.statements.filter((s) => s.startsWith('updateItem'));
    assert.equal(sent.slice(0, 2), ['updateItem', 'updateItems3'], 'the three went together first');
    assert.is(updatesIn(sent.slice(2)).updates, 3, 'then each alone');
    assert.type(results[0], 'object');
    assert.type(results[1], 'object');
    assert.type(results[3], 'object');
    assert.ok(results[2] instanceof Error || typeof results[2] === 'string', 'the refused update failed');
    assert.equal((await Promise.all(['m', 'n', 'o', 'q'].map((id) => store.getPlayer(id)))).map((p) => p?.alias), ['m-1', 'n-1', 'o-0', 'q-1']);
  } finally {
    counting.restore();
  }
});

it('should run a statement of several updates again when PostgreSQL aborts it as a deadlock', async () => {
  const { store } = await storeWith(1, ['da', 'db', 'dc']);
  const counting = countStatements(schema);
  const other = await pool.connect();
  try {
    // Another transaction holds db's row; the statement of da and db locks da, then waits for db.
    await other.query('BEGIN');
    await other.query(`UPDATE "${schema}".items SET data = '{"alias":"other"}' WHERE type = 'player' AND id = 'db'`);
    const exists = { expect: { exists: true } };
    const first = store.put(player, { playerId: 'dc', alias: 'dc-1' }, exists); // alone, so the next two go together
    const writes = Promise.all([store.put(player, { playerId: 'da', alias: 'da-1' }, exists), store.put(player, { playerId: 'db', alias: 'db-1' }, exists)]);
    await first;
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Now the other transaction waits for da: a cycle, which PostgreSQL breaks after deadlock_timeout
    // (1 s) by aborting the statement that waited longest.
    await other.query(`UPDATE "${schema}".items SET data = '{"alias":"other"}' WHERE type = 'player' AND id = 'da'`);
    await other.query('COMMIT');
    const [a, b] = await writes;
    assert.equal([a, b].map((w) => (w.item as unknown as { alias: string }).alias), ['da-1', 'db-1']);
    // Sent again whole, never split: once, or more when a retry takes da's lock before the other
    // transaction does and deadlocks with it again (seen on a loaded machine).
    const sent = counting.statements.filter((s) => s.startsWith('updateItem'));
    assert.is(sent[0], 'updateItem');
    assert.ok(sent.length >= 3, `sent again: ${sent.join(', ')}`);
    assert.equal(sent.slice(1), sent.slice(1).map(() => 'updateItems2'), `sent again whole: ${sent.join(', ')}`);
    assert.equal([(await store.getPlayer('da'))?.alias, (await store.getPlayer('db'))?.alias], ['da-1', 'db-1'], 'written after the other transaction');
  } finally {
    counting.restore();
    other.release();
  }
});

it('should write every update of two instances racing over the same few items, none lost, none failed', async () => {
  const ids = ['s1', 's2', 's3', 's4', 's5', 's6'];
  const { store: one } = await storeWith(1, ids);
  const two = new PostgresPlayerStore({ pool, schema, writesInFlight: 1 });
  const before = await Promise.all(ids.map((id) => one.getPlayer(id)));
  const exists = { expect: { exists: true } };
  let n = 0;
  // Each instance's statements lock rows shared with the other's: in one order, so no deadlock.
  const writes = Array.from({ length: 120 }, (_, i) => (i % 2 ? one : two).put(player, { playerId: ids[(i * 7) % ids.length]!, alias: `w${n++}` }, exists));
  const written = await Promise.all(writes);
  assert.is(new Set(written.map((w) => w.item.revision)).size, 120, 'every update made a revision of its own');
  const after = await Promise.all(ids.map((id) => one.getPlayer(id)));
  for (const [i, id] of ids.entries()) {
    const last = written.filter((w) => (w.item as unknown as { playerId: string }).playerId === id).map((w) => BigInt(w.item.revision));
    assert.is(BigInt(after[i]!.revision), last.reduce((a, b) => (a > b ? a : b)), `${id}: the latest update is the one stored`);
    assert.ok(BigInt(after[i]!.revision) > BigInt(before[i]!.revision));
  }
});

/** Begins a transaction on `client` that holds an item's row: a statement writing it waits until COMMIT. */
async function lockRow(client: pg.PoolClient, id: string): Promise<void> {
  await client.query('BEGIN');
  await client.query(`SELECT 1 FROM "${schema}".items WHERE type = 'player' AND id = $1 FOR UPDATE`, [id]);
}

/**
 * Writes the players `ids`, then has `other` hold the first one's row (BEGIN ... FOR UPDATE), as a long
 * transaction or another instance's delete would. Returns `put`: an update of one at its revision, its
 * outcome; and `race`: the outcomes of some puts, or 'hung' for each after 3 s.
 */
async function behindRowLock(store: PostgresPlayerStore, ids: string[], other: pg.PoolClient) {
  const revisions = new Map<string, string>();
  for (const id of ids) revisions.set(id, (await store.putPlayer({ playerId: id, alias: `${id}-0` })).player.revision);
  await lockRow(other, ids[0]!);
  const put = (id: string) => outcome(store.put(player, { playerId: id, alias: `${id}-1` }, { expect: { revision: revisions.get(id)! } }));
  const race = (puts: Promise<unknown>[]) => Promise.race([Promise.all(puts), new Promise<string[]>((resolve) => setTimeout(() => resolve(puts.map(() => 'hung')), 3000))]);
  return { put, race };
}

it("should fail as busy the writes that wait past the pool's connection wait behind a statement that does not return", async () => {
  const waitPool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4, connectionTimeoutMillis: 300 });
  const store = new PostgresPlayerStore({ pool: waitPool, schema, writesInFlight: 1 });
  const ids = ['h1', 'h2', 'h3'];
  const other = await pool.connect();
  try {
    // Another transaction holds h1's row: the statement updating it waits, as one would for a database gone silent.
    const { put, race } = await behindRowLock(store, ids, other);
    const stuck = put('h1');
    const started = performance.now();
    const waiting = await race([put('h2'), put('h3')]);
    const waited = performance.now() - started;
    assert.equal(waiting, ['busy', 'busy'], 'the writes behind it failed as busy');
    assert.ok(waited >= 250 && waited < 2000, `after about the pool's 300 ms (${waited.toFixed(0)} ms)`);
    await other.query('COMMIT');
    assert.type(await stuck, 'object', 'the statement in flight ended when the row was let go');
    assert.equal((await Promise.all(ids.map((id) => store.getPlayer(id)))).map((p) => p?.alias), ['h1-1', 'h2-0', 'h3-0'], 'the writes that failed wrote nothing');
    // Nothing waits now: the next writes go at once.
    assert.type(await put('h2'), 'object');
  } finally {
    other.release();
    await waitPool.end();
  }
});

it('should send the writes waiting behind a stalled statement beside it, so that a row lock held elsewhere does not stop them', async () => {
  const store = new PostgresPlayerStore({ pool, schema }); // writesInFlight: the default, 2
  const ids = ['s1', 's2', 's3'];
  const other = await pool.connect();
  try {
    const { put, race } = await behindRowLock(store, ids, other);
    const stuck = put('s1');
    const started = performance.now();
    const written = await race([put('s2'), put('s3')]);
    const waited = performance.now() - started;
    assert.ok(written.every((w) => typeof w === 'object'), `the others were written while s1's statement waited (${JSON.stringify(written)})`);
    assert.ok(waited >= STALLED_MS * 0.9 && waited < 1000, `after the stall time, not the wait limit (${waited.toFixed(0)} ms)`);
    await other.query('COMMIT');
    assert.type(await stuck, 'object');
    assert.equal((await Promise.all(ids.map((id) => store.getPlayer(id)))).map((p) => p?.alias), ['s1-1', 's2-1', 's3-1']);
  } finally {
    // Let s1 go however the test ended (after the COMMIT above, PostgreSQL only warns).
    await other.query('COMMIT');
    other.release();
  }
});

const friends = player.relation('friends')!;

/** The ids of a player's friends, in list order. */
async function friendsOf(store: PostgresPlayerStore, id: string): Promise<string[]> {
  const page = await store.listFriends(id, { offset: 0, limit: 50 });
  return (page?.items ?? []).map((p) => p.playerId);
}

/** Holds an item's row in another transaction until the function returned lets it go: a statement writing it waits. */
async function holdRow(id: string): Promise<() => Promise<void>> {
  const other = await pool.connect();
  await lockRow(other, id);
  return async () => {
    await other.query('COMMIT');
    other.release();
  };
}

/**
 * Sends `first` and, once its statement waits on a row held elsewhere (one lane: nothing goes beside
 * it), `rest`; then lets the row go. So the rest wait for the first's statement however slow the
 * machine, and go together when it returns.
 */
async function behindFirst<T>(held: string, first: () => Promise<T>, rest: (() => Promise<T>)[]): Promise<T[]> {
  const release = await holdRow(held);
  try {
    const sent = [first()];
    // Its statement is in flight once a session waits on a lock in a statement on the suite's schema.
    for (let tries = 0; ; tries++) {
      const { rows } = await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position($1 in query) > 0`, [`"${schema}"`]);
      if (rows[0].n > 0) break;
      if (tries === 500) throw new Error('the first write never waited on the held row');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    sent.push(...rest.map((write) => write()));
    // The rest reach the store's queue within a turn or two; their statements cannot go beside the first.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await release();
    return await Promise.all(sent);
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
}

it('should append to several lists in one statement, each member at the end of its own list', async () => {
  const owners = ['o1', 'o2', 'o3', 'o4'];
  const { store, revisions } = await storeWith(1, [...owners, 'old', 'e1', 'e2', 'e3']);
  for (const owner of owners) await store.addFriend(owner, 'old');
  const counting = countStatements(schema);
  try {
    // A first append alone; the three that arrive while it is in flight go together.
    const create = owners.map((owner, i) => () => store.createMember(friends, owner, { playerId: `new-${owner}`, alias: `n${i}` }, i === 2 ? { idempotencyKey: 'k-o3', fingerprint: 'f' } : {}));
    const made = await behindFirst('o1', create[0]!, create.slice(1));
    const link = ['o1', 'o2', 'o3'].map((owner, i) => () => store.addMember(friends, owner, `e${i + 1}`));
    const linked = await behindFirst('o1', link[0]!, link.slice(1));
    const sent = counting.statements.filter((s) => s.startsWith('createAndLink') || s.startsWith('linkExisting'));
    assert.equal(sent, ['createAndLink', 'createAndLink3', 'linkExisting', 'linkExisting2']);
    for (const [i, owner] of owners.entries()) {
      assert.equal(await friendsOf(store, owner), ['old', `new-${owner}`, ...(i < 3 ? [`e${i + 1}`] : [])], owner);
      assert.is((await store.getPlayer(`new-${owner}`))?.alias, `n${i}`);
      assert.is.not(made[i]!.owner.revision, revisions.get(owner), `${owner}: a new revision`);
    }
    assert.equal(linked.map((w) => w.member.revision), ['e1', 'e2', 'e3'].map((id) => revisions.get(id)), 'a member linked is not changed');
    // The key saved in the statement of several: the same request again is its replay.
    const again = await store.createMember(friends, 'o3', { playerId: 'new-o3', alias: 'n2' }, { idempotencyKey: 'k-o3', fingerprint: 'f' });
    assert.ok(again.replayed);
    assert.is(again.member.revision, made[2]!.member.revision);
  } finally {
    counting.restore();
  }
});

it('should fail only the appends whose step or owner fails, in a statement with others', async () => {
  const owners = ['q1', 'q2', 'q3', 'q4'];
  const { store, revisions } = await storeWith(1, [...owners, 'taken']);
  const counting = countStatements(schema);
  try {
    const results = await Promise.all([
      outcome(store.createMember(friends, 'q1', { playerId: 'fresh-1', alias: 'f1' })),
      outcome(store.createMember(friends, 'q2', { playerId: 'taken', alias: 'f2' })), // the id is taken: aborts its statement
      outcome(store.createMember(friends, 'q3', { playerId: 'fresh-3', alias: 'f3' }, { expect: { revision: '1' } })), // the owner changed since
      outcome(store.createMember(friends, 'q4', { playerId: 'fresh-4', alias: 'f4' }, { expect: { revision: revisions.get('q4')! } })),
    ]);
    const sent = counting.statements.filter((s) => s.startsWith('createAndLink'));
    assert.equal(sent.slice(0, 2), ['createAndLink', 'createAndLink3'], 'three went together');
    assert.is(updatesIn(sent.slice(2).map((s) => s.replace('createAndLink', 'updateItem'))).updates, 3, 'then, aborted, each alone');
    assert.type(results[0], 'object');
    assert.is(results[1], 'conflict');
    assert.is(results[2], 'revision-mismatch');
    assert.type(results[3], 'object');
    assert.equal(await Promise.all(owners.map((o) => friendsOf(store, o))), [['fresh-1'], [], [], ['fresh-4']]);
    assert.is(await store.getPlayer('fresh-3'), undefined, 'nothing made for the owner that changed');
  } finally {
    counting.restore();
  }
});

it('should send two appends to one list in turn, the second after the first', async () => {
  const { store } = await storeWith(1, ['r1', 'r2']);
  const counting = countStatements(schema);
  try {
    await Promise.all([
      store.createMember(friends, 'r2', { playerId: 'r2-a', alias: 'a' }),
      store.createMember(friends, 'r1', { playerId: 'r1-a', alias: 'a' }),
      store.createMember(friends, 'r1', { playerId: 'r1-b', alias: 'b' }),
      store.createMember(friends, 'r1', { playerId: 'r1-c', alias: 'c' }),
    ]);
    assert.equal(counting.statements.filter((s) => s.startsWith('createAndLink')), ['createAndLink', 'createAndLink', 'createAndLink', 'createAndLink']);
    assert.equal(await friendsOf(store, 'r1'), ['r1-a', 'r1-b', 'r1-c']);
    assert.is((await store.listFriends('r1', { offset: 0, limit: 1 }))?.total, 3);
  } finally {
    counting.restore();
  }
});

it('should refuse an writesInFlight that is not a positive integer', () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) assert.throws(() => new PostgresPlayerStore({ pool, schema, writesInFlight: bad }), /writesInFlight/);
});

together.run();
