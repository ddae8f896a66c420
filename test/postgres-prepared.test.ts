import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { statementNames } from '../src/stores/postgres/statements.js';
import { noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// The store's reads and writes are named prepared statements: an unnamed one sends its whole text and
// is parsed and planned again on every call (a friend append is a CTE of four statements).
const prepared = suite('PostgreSQL store: prepared statements');
const it = POSTGRES_SKIP ? prepared.skip : prepared;
noteSkip();

prepared('should name each statement per schema, within the 63 bytes PostgreSQL keeps', () => {
  assert.equal(statementNames(['getPlayer', 'createAndLink'], 'public'), { getPlayer: 'ph_getPlayer_public', createAndLink: 'ph_createAndLink_public' });
  const long = `s_${'x'.repeat(60)}`;
  const names = statementNames(['createAndLink', 'linkExisting'], long);
  assert.ok(Object.values(names).every((name) => Buffer.byteLength(name) <= 63), 'short enough');
  assert.is.not(names.createAndLink, statementNames(['createAndLink'], `${long}y`).createAndLink, 'another long schema, another name');
});

it('should prepare the reads and writes of a request once per connection', async () => {
  // One connection: the statements the store prepared are that connection's.
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1 });
  const schema = `prepared_${process.pid}`;
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: false });
  try {
    await store.migrate();
    await store.putPlayer({ playerId: 'alice', alias: 'a' });
    const alice = (await store.getPlayer('alice'))!;
    await store.putPlayer({ playerId: 'alice', alias: 'b' }, { expect: { revision: alice.revision } });
    await store.createFriend('alice', { playerId: 'bob', alias: 'b' });
    await store.createFriend('alice', { playerId: 'carol', alias: 'c' });
    await store.listFriends('alice', { offset: 0, limit: 10 });
    const { rows } = await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name');
    const names = rows.map((r) => r.name);
    for (const key of ['getItem', 'upsertItem', 'updateItem', 'createAndLink', 'listMembers']) assert.ok(names.includes(`ph_${key}_${schema}`), `${key} in ${names.join(', ')}`);
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await store.close();
    await pool.end();
  }
});

prepared.run();
