import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Changes } from '../src/stores/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { CHANGE_CHANNEL, listenedChannels, REVISION_CHANNEL, schemaChannel, statementChannel } from '../src/stores/postgres/channels.js';
import { MIGRATIONS, quoteIdentifier } from '../src/stores/postgres/migrations.js';
import { beforeListCascade, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// Each schema's changes on a channel of its own (migration 8), on it alone (migration 9), and once a
// statement on the schema's statement channel (migration 10): an instance on one schema is not woken
// by the writes of another schema on the same database, and an instance on a schema not yet migrated
// still hears every change, before and after the migration.
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

/**
 * A migrated schema taken back to `version` (7 to 9): migration 11's foreign keys again, migration 6's
 * row triggers in place of migration 10's statement triggers, with the functions of `version`, and the
 * later migrations forgotten.
 */
async function backTo(schema: string, version: number): Promise<void> {
  const s = quoteIdentifier(schema);
  const trgm = (await admin.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'")).rows[0]!.schema;
  await admin.query(beforeListCascade(s));
  await admin.query(`DROP TRIGGER items_inserted ON ${s}.items; DROP TRIGGER items_updated ON ${s}.items; DROP TRIGGER items_deleted ON ${s}.items;
    DROP TRIGGER media_inserted ON ${s}.media; DROP TRIGGER media_updated ON ${s}.media; DROP TRIGGER media_deleted ON ${s}.media;
    DROP FUNCTION ${s}.notify_item_rows(); DROP FUNCTION ${s}.notify_media_rows();
    CREATE FUNCTION ${s}.notify_item_change() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN NULL; END $f$;
    CREATE FUNCTION ${s}.notify_media_change() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN NULL; END $f$;
    CREATE TRIGGER items_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.items FOR EACH ROW EXECUTE FUNCTION ${s}.notify_item_change();
    CREATE TRIGGER media_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.media FOR EACH ROW EXECUTE FUNCTION ${s}.notify_media_change();`);
  await admin.query(MIGRATIONS.find((m) => m.version === version)!.sql(s, trgm, schema));
  await admin.query(`DELETE FROM ${s}.schema_migrations WHERE version > ${version}`);
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
    raw.on('notification', (n) => n.channel === statementChannel(tenantA) && onA.push(n.payload ?? ''));
    await raw.query(`LISTEN ${statementChannel(tenantA)}`);
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
    assert.ok(notices.some((n) => n.channel === statementChannel(tenantB) && n.payload.startsWith(`${tenantB}\nplayer/sentinel\n`)));
  } finally {
    await raw.end();
  }
});

it('should hear every change on a schema its migrations have not brought to the channel of its own yet', async () => {
  const schema = `chan_old_${process.pid}`;
  const writer = await migrated(schema);
  // The schema as the release before migration 8 left it.
  await backTo(schema, 7);
  const { store: reader, notices } = instance(schema);
  const heard = heardBy(reader);
  await until(() => heard.includes('all'));
  await writer.putPlayer({ playerId: 'before', alias: 'b' });
  await until(() => heard.flat().includes('player/before'));
  assert.ok(notices.some((n) => n.channel === REVISION_CHANNEL && n.payload.startsWith(`${schema}\nplayer/before\n`)), 'heard on the shared channel');
  // Migrated while it runs: from migration 10 on only the schema's statement channel is notified, which
  // the session listens to as well, so it goes on hearing.
  assert.equal(await writer.migrate(), [8, 9, 10, 11]);
  await writer.putPlayer({ playerId: 'after', alias: 'a' });
  await until(() => heard.flat().includes('player/after'));
  const after = notices.filter((n) => n.payload.startsWith(`${schema}\nplayer/after\n`));
  assert.equal(after.map((n) => n.channel), [statementChannel(schema)], 'heard on the statement channel only');
  // A new session (another instance) listens to the statement channel only.
  const { store: next, notices: nextNotices } = instance(schema);
  const nextHeard = heardBy(next);
  await until(() => nextHeard.includes('all'));
  await writer.putPlayer({ playerId: 'later', alias: 'l' });
  await until(() => nextHeard.flat().includes('player/later'));
  assert.ok(nextNotices.some((n) => n.channel === statementChannel(schema)));
  assert.not.ok(nextNotices.some((n) => n.channel === REVISION_CHANNEL || n.channel === schemaChannel(schema)), 'not woken by the earlier channels');
});

it('should hear every change on a schema of migration 9 migrated to 10 (and on) while it listens', async () => {
  const schema = `chan_nine_${process.pid}`;
  const writer = await migrated(schema);
  // The schema as the release of migration 9 left it.
  await backTo(schema, 9);
  const { store: reader, notices } = instance(schema);
  const heard = heardBy(reader);
  await until(() => heard.includes('all'));
  await writer.putPlayer({ playerId: 'before', alias: 'b' });
  await until(() => heard.flat().includes('player/before'));
  assert.equal(notices.filter((n) => n.payload.includes('\nplayer/before\n')).map((n) => n.channel), [schemaChannel(schema)], "migration 9: the schema's own channel");
  assert.equal(await writer.migrate(), [10, 11]);
  await writer.putPlayer({ playerId: 'after', alias: 'a' });
  await until(() => heard.flat().includes('player/after'));
  assert.equal(notices.filter((n) => n.payload.includes('\nplayer/after\n')).map((n) => n.channel), [statementChannel(schema)], 'migration 10: the statement channel');
});

it("should notify a statement once, on its schema's statement channel, every key it changed (migration 10)", async () => {
  const schema = `chan_once_${process.pid}`;
  const writer = await migrated(schema);
  const raw = new pg.Client({ connectionString: TEST_DATABASE_URL });
  const heard: { channel: string; payload: string }[] = [];
  const own = (n: { channel: string }) => n.channel === statementChannel(schema);
  await raw.connect();
  try {
    raw.on('notification', (n) => heard.push({ channel: n.channel, payload: n.payload ?? '' }));
    await raw.query(`LISTEN ${CHANGE_CHANNEL}; LISTEN ${REVISION_CHANNEL}; LISTEN ${schemaChannel(schema)}; LISTEN ${statementChannel(schema)}`);
    for (const id of ['a', 'b', 'gone']) await writer.putPlayer({ playerId: id, alias: id });
    await writer.addFriend('a', 'gone');
    await writer.addFriend('b', 'gone');
    await until(() => heard.filter(own).length === 5);
    heard.length = 0;
    // The deletion touches both owners in one UPDATE: one notice names them both.
    assert.ok(await writer.deletePlayer('gone'));
    await until(() => heard.filter(own).length === 2);
    assert.equal(heard.filter((n) => !own(n)), [], 'nothing on the earlier channels');
    const lines = heard.map((n) => n.payload.split('\n'));
    assert.equal(lines.map((l) => l.filter((_, i) => i % 2 === 1).sort()), [['player/gone'], ['player/a', 'player/b']].sort((x, y) => x.length - y.length));
    assert.is(lines[0]![2], '', 'a deletion names no revision');
  } finally {
    await raw.end();
  }
});

it('should split a statement of many changes into notices under 8,000 bytes, and escape what a key holds', async () => {
  const schema = `chan_many_${process.pid}`;
  const writer = await migrated(schema);
  const { store: reader, notices } = instance(schema);
  const heard = heardBy(reader);
  await until(() => heard.includes('all'));
  const s = quoteIdentifier(schema);
  // 300 items with ids of 100 characters, changed by one statement: some 33,000 bytes of keys.
  await admin.query(`INSERT INTO ${s}.items (type, id, data) SELECT 'player', lpad(i::text, 100, 'x'), '{"alias":"x"}' FROM generate_series(1, 300) i`);
  await until(() => heard.flat().filter((key) => typeof key === 'string' && key.length === 107).length === 300);
  const split = notices.filter((n) => n.channel === statementChannel(schema));
  assert.ok(split.length >= 5, `several notices (${split.length})`);
  assert.ok(split.every((n) => Buffer.byteLength(n.payload) < 8000));
  // A key holding a line feed and backslashes, written by hand, is heard as it is.
  const odd = 'odd\nid\\with\\nslashes';
  await admin.query(`INSERT INTO ${s}.items (type, id, data) VALUES ('player', $1, '{"alias":"o"}')`, [odd]);
  await until(() => heard.flat().includes(`player/${odd}`));
});

it('should choose every channel for a schema never migrated or not readable, and fail on an outage', async () => {
  const failing = (code: string) => ({ query: () => Promise.reject(Object.assign(new Error(code), { code })) });
  const both = [REVISION_CHANNEL, schemaChannel('nowhere'), statementChannel('nowhere')];
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
  assert.equal((await listenedChannels(admin, never)).names, [REVISION_CHANNEL, schemaChannel(never), statementChannel(never)], 'on a real database: no such schema');
});

channels.run();
