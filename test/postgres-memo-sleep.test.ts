// Across instances: an instance whose answer memo nobody asks (it hears only other instances' writes)
// lets go of its change feed, so PostgreSQL no longer wakes it at every commit; its next read is fresh,
// and it listens and keeps again.
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService } from '../src/index.js';
import { SLEEP_AFTER_NOTICES } from '../src/core/caches/memo-watch.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { startPostgresProxy, type PostgresProxy } from './support/pg-proxy.js';
import { countStatements, dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

const sleeping = suite('PostgreSQL: the memo lets go of the change feed nobody uses');
const it = POSTGRES_SKIP ? sleeping.skip : sleeping;
noteSkip();

const BASE = 'http://api.test';
const closers: (() => Promise<void>)[] = [];
let proxy: PostgresProxy;

sleeping.before(async () => {
  if (POSTGRES_SKIP) return;
  proxy = await startPostgresProxy(TEST_DATABASE_URL!);
});

sleeping.after(async () => {
  for (const close of closers.reverse()) await close();
  await proxy?.close();
  await dropTestSchemas();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!(await ok())) {
    assert.ok(Date.now() - start < ms, `${what}: not within ${ms} ms`);
    await pause(20);
  }
}

it('should stop listening while only other instances write, read fresh at the next request, then listen and keep again', async () => {
  const schema = (await freshPostgresStore('sleep')).schema;
  const store = (url: string) => {
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    const made = new PostgresPlayerStore({ pool, schema, watchChanges: true, changeFeed: { heartbeatMs: 100, maxStalenessMs: 600 } });
    closers.push(async () => {
      await made.close();
      await pool.end();
    });
    return made;
  };
  const writer = store(TEST_DATABASE_URL!);
  // The reader's sessions go through the proxy, which counts those that LISTEN.
  const reader = createPlayerService({ baseUrl: BASE, store: store(proxy.url) });
  const read = async (id: string) => {
    await new Promise((r) => setImmediate(r));
    const res = await reader.fetch(new Request(`${BASE}/player/${id}`));
    return ((await res.json()) as { alias: string }).alias;
  };
  const ready = async () => (await (await reader.fetch(new Request(`${BASE}/readyz`))).json()) as { status: string; checks: Record<string, unknown> };
  await writer.putPlayer({ playerId: 'kim', alias: 'kim one' });
  await until('the reader listens', async () => proxy.listening === 1 && (await ready()).status === 'pass');
  const memo = reader.config.answerMemo!;
  await until('the reader keeps kim', async () => {
    const hits = memo.stats.hits;
    return (await read('kim')) === 'kim one' && (await read('kim')) === 'kim one' && memo.stats.hits > hits;
  });

  // Only the other instance writes: its notices come, nobody asks the reader's memo anything.
  for (let i = 0; i <= SLEEP_AFTER_NOTICES; i++) await writer.putPlayer({ playerId: 'zed', alias: `zed ${i}` });
  await until('the reader lets go of its feed', () => reader.config.memoWatch!.asleep && proxy.listening === 0);
  assert.is(memo.stats.size, 0);
  const report = await ready();
  assert.is(report.status, 'pass');
  assert.is(report.checks['changes:live'], undefined);

  // Changed while nobody told the reader: its next read is fresh all the same.
  await writer.putPlayer({ playerId: 'kim', alias: 'kim two' });
  assert.is(await read('kim'), 'kim two');
  assert.is(reader.config.memoWatch!.asleep, false);
  await until('the reader listens again', async () => proxy.listening === 1 && (await ready()).status === 'pass');
  await until('the reader keeps again', async () => {
    const hits = memo.stats.hits;
    return (await read('kim')) === 'kim two' && (await read('kim')) === 'kim two' && memo.stats.hits > hits;
  });
  // And hears the other instance's writes again.
  await writer.putPlayer({ playerId: 'kim', alias: 'kim three' });
  await until('the reader sees the next change', async () => (await read('kim')) === 'kim three', 2_000);
});

it('should sleep under writes alone, PATCH and POST, and start each PATCH from the record its last write left all the same', async () => {
  // Another instance on the schema (no feed), and this one's sessions through a proxy of its own, which counts those that LISTEN.
  const other = await freshPostgresStore('awake');
  const schema = other.schema;
  const own = await startPostgresProxy(TEST_DATABASE_URL!);
  closers.push(() => own.close());
  const pool = new pg.Pool({ connectionString: own.url, max: 4 });
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true, changeFeed: { heartbeatMs: 100, maxStalenessMs: 600 } });
  closers.push(async () => {
    await store.close();
    await pool.end();
  });
  const service = createPlayerService({ baseUrl: BASE, store, authenticate: bearerTokens(['t']) });
  const headers = { Authorization: 'Bearer t', 'Content-Type': 'application/merge-patch+json' };
  const patch = async (alias: string) => {
    const res = await service.fetch(new Request(`${BASE}/player/pat`, { method: 'PATCH', headers, body: JSON.stringify({ alias }) }));
    assert.is(res.status, 200);
  };
  await store.putPlayer({ playerId: 'pat', alias: 'pat' });
  await patch('pat 0');
  await until('the feed listens', () => own.listening === 1);
  for (let i = 1; i <= SLEEP_AFTER_NOTICES + 1; i++) await patch(`pat ${i}`);
  // A PATCH's guess is checked by the store's compare-and-set: it asks the memo nothing that needs the feed.
  await until('the memo lets go under PATCH alone', () => service.config.memoWatch!.asleep && own.listening === 0);
  // Asleep, a PATCH still starts from the record the last one left: one statement, no read first.
  const { statements, restore } = countStatements(schema);
  try {
    await patch('pat asleep');
    assert.equal([...statements], ['updateItem'], 'a PATCH after a write of this instance, the memo asleep: one statement');
  } finally {
    restore();
  }
  assert.is(service.config.memoWatch!.asleep, true, 'the PATCH did not wake the memo');
  assert.is((await store.getPlayer('pat'))!.alias, 'pat asleep');
  // Another instance changes pat meanwhile: the guess is stale, the store's compare-and-set says so, and
  // the PATCH reads and writes again (nothing of the other write is lost).
  await other.putPlayer({ playerId: 'pat', alias: 'other', displayName: 'Pat' });
  await patch('pat after');
  const after = (await store.getPlayer('pat'))!;
  assert.is(after.alias, 'pat after');
  assert.is(after.displayName, 'Pat');
  // POSTs of new friends ask it nothing either: it stays asleep.
  for (let i = 0; i < 20; i++) {
    const res = await service.fetch(new Request(`${BASE}/player/pat/friends`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ alternateName: `f${i}` }) }));
    assert.is(res.status, 201);
  }
  assert.is(service.config.memoWatch!.asleep, true);
  // A read wakes it: it listens again.
  assert.is((await service.fetch(new Request(`${BASE}/player/pat`))).status, 200);
  assert.is(service.config.memoWatch!.asleep, false);
  await until('the feed listens again', () => own.listening === 1);
});

sleeping.run();
