import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Changes } from '../src/stores/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { CHANGE_CHANNEL, listenedChannels, REVISION_CHANNEL, schemaChannel } from '../src/stores/postgres/channels.js';
import { MIGRATIONS, quoteIdentifier } from '../src/stores/postgres/migrations.js';
import { noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// Each schema's changes on a channel of its own (migration 8), and on it alone (migration 9): an
// instance on one schema is not woken by the writes of another schema on the same database, and an
// instance on a schema not yet migrated still hears every change, before and after the migration.
// docs/decisions.md, "PostgreSQL: change feed".
const channels = suite('PostgreSQL: a NOTIFY channel per schema');
const it = POSTGRES_SKIP ? channels.skip : channels;
noteSkip();

const pools: pg.Pool[] = [];
const stores: PostgresPlayerStore[] = [];
const schemas: string[] = [];
let admin: pg.Client;

/** A store on `schema` over a pool of its own; `notices` collects every notification its sessions receive. */
function instance(schema: string, watchChanges = true): { store: PostgresPlayerStore; notices: { channel: string; payload: string }[] } {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  const notices: { channel: string; payload: string }[] = [];
  pool.on('connect', (client) => client.on('notification', (n) => notices.push({ channel: n.channel, payload: n.payload ?? '' })));
  pools.push(pool);
  const store = new PostgresPlayerStore({ pool, schema, watchChanges });
  stores.push(store);
  return { store, notices };
}

async function migrated(schema: string): Promise<PostgresPlayerStore> {
  schemas.push(schema);
  await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  const { store } = instance(schema, false);
  await store.migrate();
  return store;
}

async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

function heardBy(store: PostgresPlayerStore): Changes[] {
  const heard: Changes[] = [];
  store.watch((changed) => heard.push(changed));
  return heard;
}

channels.before(async () => {
  if (POSTGRES_SKIP) return;
  admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
});

channels.after(async () => {
  if (POSTGRES_SKIP) return;
  for (const store of stores) await store.close();
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
  await admin.end();
  for (const pool of pools) await pool.end();
});

it('should name the channel as PostgreSQL does, for any schema name', async () => {
  for (const name of ['public', `Tenant "ü" ${'x'.repeat(40)}`]) {
    const { rows } = await admin.query<{ channel: string }>("SELECT 'player_hypermedia_schema_' || left(encode(sha256(convert_to($1, 'UTF8')), 'hex'), 32) AS channel", [name]);
    assert.is(schemaChannel(name), rows[0]!.channel);
    assert.ok(schemaChannel(name).length <= 63, 'within an identifier');
  }
});

it("should wake an instance for its own schema's changes only", async () => {
  const tenantA = `chan "ü" ${process.pid}`;
  const tenantB = `chan_b_${process.pid}`;
  const writerA = await migrated(tenantA);
  const writerB = await migrated(tenantB);
  const { store: readerB, notices } = instance(tenantB);
  const heard = heardBy(readerB);
  await until(() => heard.includes('all'));
  const raw = new pg.Client({ connectionString: TEST_DATABASE_URL });
  const onA: string[] = [];
  await raw.connect();
  try {
    raw.on('notification', (n) => n.channel === schemaChannel(tenantA) && onA.push(n.payload ?? ''));
    await raw.query(`LISTEN ${schemaChannel(tenantA)}`);
    for (let i = 0; i < 20; i++) await writerA.putPlayer({ playerId: `a${i}`, alias: `a${i}` });
    await writerB.putPlayer({ playerId: 'sentinel', alias: 's' });
    await until(() => heard.flat().includes('player/sentinel'));
    await until(() => onA.length === 20);
    assert.ok(onA.every((payload) => payload.startsWith(`${tenantA}\n`)), "the schema's channel carries its changes, named as before");
    assert.equal(
      notices.filter((n) => n.payload.startsWith(`${tenantA}\n`)),
      [],
      "B's sessions received none of A's notices (each would wake this process)",
    );
    assert.ok(notices.some((n) => n.channel === schemaChannel(tenantB) && n.payload.startsWith(`${tenantB}\nplayer/sentinel\n`)));
  } finally {
    await raw.end();
  }
});

it('should hear every change on a schema its migrations have not brought to the channel of its own yet', async () => {
  const schema = `chan_old_${process.pid}`;
  const writer = await migrated(schema);
  // The schema as the release before migration 8 left it.
  const trgm = (await admin.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'")).rows[0]!.schema;
  await admin.query(MIGRATIONS.find((m) => m.version === 7)!.sql(quoteIdentifier(schema), trgm, schema));
  await admin.query(`DELETE FROM ${quoteIdentifier(schema)}.schema_migrations WHERE version >= 8`);
  const { store: reader, notices } = instance(schema);
  const heard = heardBy(reader);
  await until(() => heard.includes('all'));
  await writer.putPlayer({ playerId: 'before', alias: 'b' });
  await until(() => heard.flat().includes('player/before'));
  assert.ok(notices.some((n) => n.channel === REVISION_CHANNEL && n.payload.startsWith(`${schema}\nplayer/before\n`)), 'heard on the shared channel');
  // Migrated while it runs: from migration 9 on only the schema's own channel is notified, which the
  // session listens to as well, so it goes on hearing.
  assert.equal(await writer.migrate(), [8, 9]);
  await writer.putPlayer({ playerId: 'after', alias: 'a' });
  await until(() => heard.flat().includes('player/after'));
  const after = notices.filter((n) => n.payload.startsWith(`${schema}\nplayer/after\n`));
  assert.equal(after.map((n) => n.channel), [schemaChannel(schema)], 'heard on its own channel only');
  // A new session (another instance) listens to the schema's own channel only.
  const { store: next, notices: nextNotices } = instance(schema);
  const nextHeard = heardBy(next);
  await until(() => nextHeard.includes('all'));
  await writer.putPlayer({ playerId: 'later', alias: 'l' });
  await until(() => nextHeard.flat().includes('player/later'));
  assert.ok(nextNotices.some((n) => n.channel === schemaChannel(schema)));
  assert.not.ok(nextNotices.some((n) => n.channel === REVISION_CHANNEL), 'not woken by the shared channel');
});

it("should notify a changed row once, on its schema's channel (migration 9)", async () => {
  const schema = `chan_once_${process.pid}`;
  const writer = await migrated(schema);
  const raw = new pg.Client({ connectionString: TEST_DATABASE_URL });
  const heard: { channel: string; payload: string }[] = [];
  await raw.connect();
  try {
    raw.on('notification', (n) => heard.push({ channel: n.channel, payload: n.payload ?? '' }));
    await raw.query(`LISTEN ${CHANGE_CHANNEL}; LISTEN ${REVISION_CHANNEL}; LISTEN ${schemaChannel(schema)}`);
    await writer.putPlayer({ playerId: 'owner', alias: 'o' });
    await writer.putPlayer({ playerId: 'friend', alias: 'f' });
    await writer.addFriend('owner', 'friend');
    // A transaction's notices arrive together and in order, the shared channels' first (migration 8).
    await until(() => heard.filter((n) => n.channel === schemaChannel(schema)).length === 3);
    assert.equal(
      heard.map((n) => `${n.channel === schemaChannel(schema) ? 'own' : n.channel} ${n.payload.split('\n')[1]}`),
      ['own player/owner', 'own player/friend', 'own player/owner'],
    );
  } finally {
    await raw.end();
  }
});

it('should choose the shared channel for a schema never migrated or not readable, and fail on an outage', async () => {
  const failing = (code: string) => ({ query: () => Promise.reject(Object.assign(new Error(code), { code })) });
  const both = [REVISION_CHANNEL, schemaChannel('nowhere')];
  assert.equal((await listenedChannels(failing('42P01') as never, 'nowhere')).names, both);
  assert.equal((await listenedChannels(failing('3F000') as never, 'nowhere')).names, both);
  assert.equal((await listenedChannels(failing('42501') as never, 'nowhere')).names, both, 'a role that may not read the migrations');
  try {
    await listenedChannels(failing('57P01') as never, 'nowhere');
    assert.unreachable('an outage is not a missing table');
  } catch (error) {
    assert.is((error as { code?: string }).code, '57P01');
  }
  const never = `never_migrated_${process.pid}`;
  assert.equal((await listenedChannels(admin, never)).names, [REVISION_CHANNEL, schemaChannel(never)], 'on a real database: no such schema');
});

channels.run();
