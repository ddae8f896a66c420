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
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

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

it('should stay awake under writes that start from a record it keeps (PATCH), and sleep under writes that ask it nothing', async () => {
  const schema = (await freshPostgresStore('awake')).schema;
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL!, max: 4 });
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true, changeFeed: { heartbeatMs: 100, maxStalenessMs: 600 } });
  closers.push(async () => {
    await store.close();
    await pool.end();
  });
  const service = createPlayerService({ baseUrl: BASE, store, authenticate: bearerTokens(['t']) });
  const headers = { Authorization: 'Bearer t', 'Content-Type': 'application/merge-patch+json' };
  await store.putPlayer({ playerId: 'pat', alias: 'pat' });
  for (let i = 0; i <= SLEEP_AFTER_NOTICES; i++) {
    const res = await service.fetch(new Request(`${BASE}/player/pat`, { method: 'PATCH', headers, body: JSON.stringify({ alias: `pat ${i}` }) }));
    assert.is(res.status, 200);
  }
  await pause(50);
  assert.is(service.config.memoWatch!.asleep, false, 'each PATCH asked the memo for the record to start from');
  // POSTs of new friends ask it nothing: it lets go.
  for (let i = 0; i <= SLEEP_AFTER_NOTICES; i++) {
    const res = await service.fetch(new Request(`${BASE}/player/pat/friends`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ alternateName: `f${i}` }) }));
    assert.is(res.status, 201);
  }
  await until('the memo lets go under POST alone', () => service.config.memoWatch!.asleep);
});

sleeping.run();
