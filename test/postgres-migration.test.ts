// A database made by the previous release (migrations 1 to 5: players, friendships with gaps, avatars,
// idempotency keys) migrated by this one (migration 6): every player, list, gap, avatar and key kept, the
// revisions kept (so the ETags clients hold still match), and the store works on the result.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import pg from 'pg';
import { MIGRATIONS, quoteIdentifier } from '../src/stores/postgres/migrations.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { createPlayerService } from '../src/index.js';
import { POSTGRES_SKIP, TEST_DATABASE_URL, noteSkip } from './support/postgres.js';

const migration = suite('PostgreSQL: a database of the previous release, migrated with its data');

if (POSTGRES_SKIP) {
  noteSkip();
  migration.skip('should move players, lists with their gaps, avatars and keys, keeping every revision', () => undefined);
  migration.run();
} else {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  const schema = `migrate_${process.pid}`;
  const s = quoteIdentifier(schema);

  /** The schema as release 0.1 left it: migrations 1 to 5 applied, and data written the way it wrote it. */
  async function previousRelease(): Promise<void> {
    await pool.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await pool.query(`CREATE SCHEMA ${s}`);
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const trgm = (await pool.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'")).rows[0]!.schema;
    await pool.query(`CREATE TABLE ${s}.schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const m of MIGRATIONS.filter((m) => m.version <= 5)) {
      await pool.query(m.sql(s, trgm, schema));
      await pool.query(`INSERT INTO ${s}.schema_migrations (version, description) VALUES ($1, $2)`, [m.version, m.description]);
    }
    await pool.query(`INSERT INTO ${s}.players (player_id, alias, display_name, image) VALUES
      ('alice', 'ali', 'Alice Liddell', NULL), ('bob', 'bobby', NULL, 'https://cdn.test/bob.png'), ('cy', 'cy', 'Cy Young', NULL), ('dee', 'dee', NULL, NULL)`);
    // alice's list: bob at 1, (removed at 2: a gap), cy at 3, dee at 4; bob's list: alice at 1.
    await pool.query(`INSERT INTO ${s}.friendships (owner, friend, position) VALUES ('alice', 'bob', 1), ('alice', 'cy', 3), ('alice', 'dee', 4), ('bob', 'alice', 1)`);
    await pool.query(`INSERT INTO ${s}.list_gaps (owner, position) VALUES ('alice', 2)`);
    await pool.query(`UPDATE ${s}.players SET friend_count = 3, list_end = 4 WHERE player_id = 'alice'`);
    await pool.query(`UPDATE ${s}.players SET friend_count = 1, list_end = 1 WHERE player_id = 'bob'`);
    await pool.query(`INSERT INTO ${s}.avatars (player_id, bytes, content_type) VALUES ('cy', '\\x89504e47'::bytea, 'image/png')`);
    await pool.query(`INSERT INTO ${s}.idempotency_keys (owner, key, fingerprint, friend) VALUES ('alice', 'k-1', 'fp', 'dee')`);
  }

  migration.after(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await pool.end();
  });

  migration('should move players, lists with their gaps, avatars and keys, keeping every revision', async () => {
    await previousRelease();
    const before = new Map((await pool.query<{ player_id: string; revision: string; ms: number }>(`SELECT player_id, revision::text AS revision, floor(extract(epoch FROM modified_at) * 1000)::float8 AS ms FROM ${s}.players`)).rows.map((r) => [r.player_id, r]));
    const avatarRevision = (await pool.query<{ revision: string }>(`SELECT revision::text AS revision FROM ${s}.avatars`)).rows[0]!.revision;
    const store = new PostgresPlayerStore({ pool, schema, watchChanges: false });
    try {
      assert.equal(await store.migrate(), [6, 7, 8, 9, 10, 11]);
      assert.equal(await store.migrate(), [], 'once');
      const tables = (await pool.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, [schema])).rows.map((r) => r.name);
      assert.equal(tables, ['items', 'lists', 'media', 'member_gaps', 'member_keys', 'members', 'rate_limit_counts', 'schema_migrations']);

      const alice = (await store.getPlayer('alice'))!;
      assert.equal(alice, { playerId: 'alice', alias: 'ali', displayName: 'Alice Liddell', revision: before.get('alice')!.revision, modifiedAt: before.get('alice')!.ms });
      assert.equal(await store.getPlayer('bob'), { playerId: 'bob', alias: 'bobby', image: 'https://cdn.test/bob.png', revision: before.get('bob')!.revision, modifiedAt: before.get('bob')!.ms });
      const page = (await store.listFriends('alice', { offset: 1, limit: 10 }))!;
      assert.is(page.total, 3);
      assert.equal(page.items.map((p) => p.playerId), ['cy', 'dee'], 'the gap is still skipped');
      assert.equal((await store.listFriends('bob', { offset: 0, limit: 10 }))!.items.map((p) => p.playerId), ['alice']);
      assert.equal((await store.searchFriends('alice', 'young', { offset: 0, limit: 10 }))!.items.map((p) => p.playerId), ['cy']);
      const avatar = (await store.getAvatar('cy'))!;
      assert.equal([...avatar.bytes], [0x89, 0x50, 0x4e, 0x47]);
      assert.is(avatar.revision, avatarRevision);
      // The idempotency key replays the first request's answer.
      const replay = await store.addFriend('alice', 'dee', { idempotencyKey: 'k-1', fingerprint: 'fp' });
      assert.ok(replay.replayed);
      assert.is(replay.friend.playerId, 'dee');

      // The ETag a client held before the migration still matches: a conditional write goes through.
      const service = createPlayerService({ baseUrl: 'https://x.test', store, authenticate: async () => ({ id: 't' }) });
      const etag = (await service.fetch(new Request('https://x.test/player/alice', { headers: { accept: 'application/json' } }))).headers.get('etag')!;
      assert.match(etag, new RegExp(`^"${before.get('alice')!.revision}-`));
      const patched = await service.fetch(
        new Request('https://x.test/player/alice', {
          method: 'PATCH',
          headers: { authorization: 'Bearer t', 'content-type': 'application/merge-patch+json', 'if-match': etag },
          body: JSON.stringify({ alias: 'alice2' }),
        }),
      );
      assert.is(patched.status, 200);
      // Appends continue after the list's end, past the gap.
      await store.createFriend('alice', { playerId: 'eve', alias: 'eve' });
      assert.equal((await store.listFriends('alice', { offset: 0, limit: 10 }))!.items.map((p) => p.playerId), ['bob', 'cy', 'dee', 'eve']);
      await store.deletePlayer('bob');
      assert.equal((await store.listFriends('alice', { offset: 0, limit: 10 }))!.items.map((p) => p.playerId), ['cy', 'dee', 'eve']);
    } finally {
      await store.close();
    }
  });

  migration.run();
}
