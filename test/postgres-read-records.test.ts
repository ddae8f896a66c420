import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { playerApi } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// A page read again hands out the records made before for the items unchanged since (ReadRecords: by
// item and revision, never parsed again), and new records for those that changed, whatever the order
// of the reads (docs/decisions.md, "PostgreSQL").
const records = suite('PostgreSQL store: records of pages read again');
const it = POSTGRES_SKIP ? records.skip : records;
noteSkip();

const player = playerApi.type('player')!;
/** A listed player's fields (a StoredItem of the player type). */
const fields = (p: unknown) => p as { playerId: string; alias: string; displayName?: string };
const friends = player.relation('friends')!;

it('should hand out the same record of an unchanged item, and a new one after it changed', async () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  const schema = `read_records_${process.pid}`;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: false });
  try {
    await store.migrate();
    await store.putPlayer({ playerId: 'alice', alias: 'a' });
    for (const id of ['bob', 'carol', 'dee']) await store.createFriend('alice', { playerId: id, alias: id });
    const first = (await store.list(friends, 'alice', { offset: 0, limit: 10 }))!;
    const again = (await store.list(friends, 'alice', { offset: 0, limit: 10 }))!;
    assert.equal(again.items.map((p) => fields(p).alias), ['bob', 'carol', 'dee']);
    assert.ok(again.items.every((p, i) => p === first.items[i]), 'unchanged: the records made before');
    assert.is(again.owner, first.owner, 'the owner too');
    // Carol changes (her revision with it): her record is new, the others are the same objects.
    await store.putPlayer({ playerId: 'carol', alias: 'caroline', displayName: 'Carol C' });
    const after = (await store.list(friends, 'alice', { offset: 0, limit: 10 }))!;
    assert.equal(after.items.map((p) => [fields(p).alias, fields(p).displayName]), [['bob', undefined], ['caroline', 'Carol C'], ['dee', undefined]]);
    assert.is(after.items[0], first.items[0]);
    assert.is.not(after.items[1], first.items[1], 'changed: a new record');
    assert.is(fields(first.items[1]).alias, 'carol', 'the record handed out before is unchanged');
    assert.is(after.items[2], first.items[2]);
    // A page starting elsewhere, and a search, hand out the same records as well.
    const second = (await store.list(friends, 'alice', { offset: 1, limit: 10 }))!;
    assert.is(second.items[0], after.items[1]);
    const found = (await store.search(friends, 'alice', 'dee', { offset: 0, limit: 10 }))!;
    assert.equal(found.items.map((p) => fields(p).playerId), ['dee']);
    assert.is(found.items[0], first.items[2]);
    // An empty page reads no data.
    const empty = (await store.list(friends, 'bob', { offset: 0, limit: 10 }))!;
    assert.equal([empty.items.length, empty.total], [0, 0]);
  } finally {
    await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
});

records.run();
