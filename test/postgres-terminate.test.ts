// PostgreSQL ends its sessions under write load (fast shutdown, failover, pg_terminate_backend): the
// process keeps running, each write in flight is answered (503 or done), and the store recovers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { seedDemoData, StoreError } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { startInstance, type Instance } from './support/instances.js';
import { startPostgresProxy, type PostgresProxy } from './support/pg-proxy.js';
import { PG_BIN, startScratchPostgres, type ScratchPostgres } from './support/scratch-postgres.js';

const terminate = suite('PostgreSQL terminating sessions under writes');
const it = PG_BIN ? terminate : terminate.skip;
if (!PG_BIN) console.log('note: PostgreSQL termination test skipped: TEST_PG_BIN is not set. Run it with `.ci/with-postgres npm test`.');

const TOKEN = 'terminate-test-token';
let db: ScratchPostgres;
let proxy: PostgresProxy;

terminate.before(async () => {
  if (!PG_BIN) return;
  db = await startScratchPostgres();
  proxy = await startPostgresProxy(db.url);
});

terminate.after(async () => {
  if (!PG_BIN) return;
  await proxy?.close();
  db?.remove();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `work` in `count` loops until `running()` is false, counting outcomes by StoreError code. */
function loops(count: number, running: () => boolean, outcomes: Map<string, number>, work: (w: number, i: number) => Promise<unknown>) {
  return Array.from({ length: count }, async (_, w) => {
    for (let i = 0; running(); i++) {
      let outcome = 'ok';
      try {
        await work(w, i);
      } catch (error) {
        outcome = error instanceof StoreError ? error.code : `thrown: ${(error as Error).message}`;
        await sleep(5);
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
  });
}

it('should survive sessions ended by FATAL 57P01 right behind an answer while transactions wait for a connection', async () => {
  const store = new PostgresPlayerStore({ connectionString: proxy.url, schema: 'terminated', poolConfig: { max: 4, connectionTimeoutMillis: 2000 } });
  await store.migrate();
  await seedDemoData(store);
  const outcomes = new Map<string, number>();
  let running = true;
  // Single statements (released by the pool inside the query's callback) and transactions (waiting on
  // pool.connect()) share the pool: a released connection goes straight to a waiting transaction.
  const load = [
    ...loops(40, () => running, outcomes, (w, i) => store.putPlayer({ playerId: `p${w}`, alias: `a${i}` })),
    ...loops(40, () => running, outcomes, (w) => store.removeFriend('alice', `absent-${w}`)),
  ];
  try {
    for (let round = 0; round < 10; round++) {
      await sleep(100);
      await proxy.terminateAll();
    }
    await sleep(200);
  } finally {
    running = false;
    await Promise.all(load);
  }
  for (const outcome of outcomes.keys()) assert.ok(outcome === 'ok' || outcome === 'unavailable', `unexpected outcome: ${outcome}`);
  assert.ok((outcomes.get('unavailable') ?? 0) > 0, 'no write saw the sessions end');
  // Recovered: the pool opens new sessions.
  assert.is((await store.putPlayer({ playerId: 'after', alias: 'after' })).created, true);
  await store.close();
});

it('should keep the example server running through fast shutdowns of the database under 150 writers', async () => {
  const instance: Instance = await startInstance({ DATABASE_URL: db.url, BASE_URL: 'http://api.test', API_TOKEN: TOKEN, LOG_LEVEL: 'silent' });
  const auth = { Authorization: `Bearer ${TOKEN}` };
  const statuses = new Map<string, number>();
  let running = true;
  const alive = () => running && instance.child.exitCode === null;
  const write = (w: number, i: number) => {
    const id = `t${w}`;
    const json = { ...auth, 'Content-Type': 'application/json' };
    switch (i % 4) {
      case 0: return fetch(`${instance.origin}/player/${id}`, { method: 'PUT', headers: json, body: JSON.stringify({ playerId: id, alias: `w${w}-${i}` }) });
      case 1: return fetch(`${instance.origin}/player/${id}`, { method: 'PATCH', headers: { ...auth, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ displayName: `n${i}` }) });
      case 2: return fetch(`${instance.origin}/player/alice/friends`, { method: 'POST', headers: json, body: JSON.stringify({ alias: `f${w}-${i}` }) });
      default: return fetch(`${instance.origin}/player/alice/friends/absent-${w}`, { method: 'DELETE', headers: auth });
    }
  };
  const load = Array.from({ length: 150 }, async (_, w) => {
    for (let i = 0; alive(); i++) {
      const status = await write(w, i).then(
        async (res) => (await res.arrayBuffer(), String(res.status)),
        (error: Error) => `failed: ${error.message}`,
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status >= '500') await sleep(10);
    }
  });
  try {
    for (let round = 0; round < 4; round++) {
      await sleep(400);
      await db.stop();
      await sleep(150);
      assert.is(instance.child.exitCode, null, `the instance exited at fast stop ${round + 1}:\n${instance.output().slice(-2000)}`);
      await db.start();
    }
    await sleep(400);
  } finally {
    running = false;
    await Promise.all(load);
  }
  try {
    assert.is(instance.child.exitCode, null, `the instance exited:\n${instance.output().slice(-2000)}`);
    for (const status of statuses.keys()) assert.ok(['200', '201', '204', '404', '503'].includes(status), `unexpected outcome ${status}`);
    let up = await fetch(`${instance.origin}/player/alice`);
    for (let i = 0; i < 50 && up.status !== 200; i++) {
      await sleep(100);
      up = await fetch(`${instance.origin}/player/alice`);
    }
    assert.is(up.status, 200);
  } finally {
    await instance.stop();
  }
});

it('should keep running when every session is ended by pg_terminate_backend under writes', async () => {
  const admin = new pg.Client({ connectionString: db.url });
  admin.on('error', () => undefined);
  await admin.connect();
  const store = new PostgresPlayerStore({ connectionString: db.url, schema: 'terminated2', poolConfig: { max: 4 } });
  await store.migrate();
  await seedDemoData(store);
  const outcomes = new Map<string, number>();
  let running = true;
  const load = [
    ...loops(40, () => running, outcomes, (w, i) => store.putPlayer({ playerId: `p${w}`, alias: `a${i}` })),
    ...loops(40, () => running, outcomes, (w) => store.removeFriend('alice', `absent-${w}`)),
  ];
  try {
    for (let round = 0; round < 8; round++) {
      await sleep(100);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database() AND backend_type = 'client backend'");
    }
    await sleep(200);
  } finally {
    running = false;
    await Promise.all(load);
    await admin.end();
  }
  for (const outcome of outcomes.keys()) assert.ok(outcome === 'ok' || outcome === 'unavailable', `unexpected outcome: ${outcome}`);
  assert.is((await store.putPlayer({ playerId: 'after2', alias: 'after' })).created, true);
  await store.close();
});

terminate.run();
