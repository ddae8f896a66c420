import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { seedDemoData, StoreError } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { startInstance, type Instance } from './support/instances.js';
import { PG_BIN, startScratchPostgres, type ScratchPostgres } from './support/scratch-postgres.js';

const outage = suite('PostgreSQL outage');
const it = PG_BIN ? outage : outage.skip;
if (!PG_BIN) console.log('note: PostgreSQL outage test skipped: TEST_PG_BIN is not set. Run it with `.ci/with-postgres npm test`.');

let db: ScratchPostgres;
let store: PostgresPlayerStore;
let instance: Instance;

outage.before(async () => {
  if (!PG_BIN) return;
  db = await startScratchPostgres();
  store = new PostgresPlayerStore({ connectionString: db.url, poolConfig: { connectionTimeoutMillis: 1000 } });
  await store.migrate();
  await seedDemoData(store);
  instance = await startInstance({ DATABASE_URL: db.url, BASE_URL: 'http://api.test' });
});

outage.after(async () => {
  if (!PG_BIN) return;
  await instance?.stop();
  await store?.close();
  db?.remove();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('should answer 503 with Retry-After while the database is down and recover without a restart, losing no acknowledged write', async () => {
  const get = () => fetch(`${instance.origin}/player/alice`, { headers: { Accept: 'application/json' } });
  assert.is((await get()).status, 200);

  // A writer keeps writing through the outage; every write it saw succeed must survive.
  const acknowledged: string[] = [];
  const refused: string[] = [];
  let writing = true;
  const writer = (async () => {
    for (let i = 0; writing; i++) {
      try {
        await store.putPlayer({ playerId: `w${i}`, alias: `writer ${i}` });
        acknowledged.push(`w${i}`);
      } catch (error) {
        assert.instance(error, StoreError);
        assert.is((error as StoreError).code, 'unavailable');
        refused.push(`w${i}`);
        await sleep(20);
      }
    }
  })();
  await sleep(150);
  await db.stop();

  for (let i = 0; i < 3; i++) {
    const down = await get();
    assert.is(down.status, 503);
    assert.is(down.headers.get('content-type'), 'application/problem+json');
    assert.ok(Number(down.headers.get('retry-after')) > 0);
    assert.is(down.headers.get('cache-control'), 'no-store');
    assert.is((await down.json()).status, 503);
  }
  assert.is(instance.child.exitCode, null);
  // The readiness probe says so too (a load balancer takes the instance out), the liveness probe not.
  const notReady = await fetch(`${instance.origin}/readyz`);
  assert.is(notReady.status, 503);
  assert.is((await notReady.json()).status, 'fail');
  assert.is((await fetch(`${instance.origin}/healthz`)).status, 200);

  await db.start();
  let up = await get();
  for (let i = 0; i < 50 && up.status !== 200; i++) {
    await sleep(100);
    up = await get();
  }
  assert.is(up.status, 200);
  assert.is((await up.json()).playerId, 'alice');
  assert.is((await fetch(`${instance.origin}/readyz`)).status, 200);
  assert.is(instance.child.exitCode, null);

  await sleep(100);
  writing = false;
  await writer;
  assert.ok(refused.length > 0, 'the outage was not seen by the writer');
  assert.ok(acknowledged.length > 0);
  for (const id of acknowledged) assert.ok(await store.getPlayer(id), `acknowledged write ${id} lost`);
});

outage.run();
