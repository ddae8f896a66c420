import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens, createPlayerService, type PlayerService } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { countStatements, noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';
import { twoInstances } from './support/postgres-instances.js';

// A write of this instance waiting for a row lock that another session holds, on a real PostgreSQL:
// the other session's change of the same player, committed while the write waits, is neither lost nor
// taken for the write's own echo; a write that waits long holds back no news of other items and no
// lease; and once the lock is let go without a change, the write hands its record on as usual.
// docs/decisions.md, "PostgreSQL: change feed" and "Kept answers and records".
const locked = suite('PostgreSQL: a write waiting for a row lock');
const it = POSTGRES_SKIP ? locked.skip : locked;
noteSkip();

const BASE = 'https://api.example.com';
const JSON_TYPE = 'application/json';
const TOKEN = 'locked-write-token';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const WRITER = { authenticate: bearerTokens([TOKEN]) };
type Player = { alias: string; displayName?: string };

/** A session of its own that takes `id`'s row lock by changing its alias (or only locking it), in a transaction left open. */
async function lockPlayer(schema: string, id: string, alias?: string): Promise<pg.Client> {
  const session = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await session.connect();
  await session.query('BEGIN');
  if (alias === undefined) await session.query(`SELECT 1 FROM "${schema}".items WHERE type = 'player' AND id = $1 FOR UPDATE`, [id]);
  else {
    await session.query(
      `UPDATE "${schema}".items SET data = data || jsonb_build_object('alias', $2::text, 'displayName', 'Changed elsewhere'),
         revision = nextval('"${schema}".revision_seq'), modified_at = clock_timestamp() WHERE type = 'player' AND id = $1`,
      [id, alias],
    );
  }
  return session;
}

/**
 * `service` behind a real node:http server, asked over keep-alive sockets (Node, the runtime the README
 * names): `call(path, init)` fetches a path of it; `close` ends the server.
 */
async function served(service: PlayerService) {
  const server = createServer(toNodeListener(service));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    call: (path: string, init?: RequestInit) => fetch(`${origin}${path}`, init),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Whether `promise` is still pending after `ms`. */
async function stillPending(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, ms));
  return !settled;
}

it("should apply the write to the other session's change and show the database's state once it commits", async () => {
  const { schema, other, heard, notices, service, dispose } = await twoInstances('locked_change', BASE, WRITER);
  const { call, close } = await served(service);
  // What a fresh instance answers: the store of the other instance keeps nothing (no change feed).
  const fresh = createPlayerService({ baseUrl: BASE, store: other });
  let session: pg.Client | undefined;
  try {
    await other.putPlayer({ playerId: 'alice', alias: 'ali', displayName: 'Alice' });
    await other.putPlayer({ playerId: 'owner', alias: 'owner' });
    await other.addFriend('owner', 'alice');
    await heard('owner', 2);
    // This instance keeps alice and the page that lists her.
    assert.is((await call(`/player/alice`, { headers: { Accept: JSON_TYPE } })).status, 200);
    assert.is((await call(`/player/owner/friends`, { headers: { Accept: JSON_TYPE } })).status, 200);
    const toldBefore = notices.get('player/alice') ?? 0;

    session = await lockPlayer(schema, 'alice', 'from-elsewhere');
    const write = call(`/player/alice`, { method: 'PATCH', headers: { ...AUTH, 'Content-Type': 'application/merge-patch+json', Accept: JSON_TYPE }, body: JSON.stringify({ alias: 'from-here' }) });
    assert.ok(await stillPending(write, 300), 'the write waits for the lock');
    await session.query('COMMIT');
    const answer = await write;
    assert.is(answer.status, 200);
    // Merged into the committed change (the compare-and-set saw the kept record was stale), not into the kept one.
    const written = (await answer.json()) as Player;
    assert.equal([written.alias, written.displayName], ['from-here', 'Changed elsewhere']);

    // Every notice of both changes has reached this instance once a later one's has (commit order).
    await other.putPlayer({ playerId: 'sentinel', alias: 's' });
    await heard('sentinel', 1);
    assert.ok((notices.get('player/alice') ?? 0) > toldBefore, 'the change made elsewhere was told');
    const truth = (await other.getPlayer('alice'))!;
    assert.is(truth.alias, 'from-here');
    const mine = await call(`/player/alice`, { headers: { Accept: JSON_TYPE } });
    const theirs = await fresh.fetch(new Request(`${BASE}/player/alice`, { headers: { Accept: JSON_TYPE } }));
    assert.is(mine.headers.get('etag'), theirs.headers.get('etag'), 'the ETag of the revision in the database');
    assert.equal(await mine.json(), await theirs.json());
    const page = (await (await call(`/player/owner/friends`, { headers: { Accept: JSON_TYPE } })).json()) as Player[];
    assert.equal(page.map((p) => [p.alias, p.displayName]), [['from-here', 'Changed elsewhere']]);
  } finally {
    await session?.end();
    await close();
    await dispose();
  }
});

it('should hold back no news of other items and no lease while a write waits longer than the staleness bound', async () => {
  const { schema, other, heard, service, dispose } = await twoInstances('locked_long', BASE, WRITER);
  const { call, close } = await served(service);
  let session: pg.Client | undefined;
  const ready = async () => ((await (await call(`/readyz`)).json()) as { status: string }).status;
  const alias = async (id: string) => ((await (await call(`/player/${id}`, { headers: { Accept: JSON_TYPE } })).json()) as Player).alias;
  try {
    await other.putPlayer({ playerId: 'alice', alias: 'ali' });
    await other.putPlayer({ playerId: 'bob', alias: 'bob' });
    await heard('bob', 1);
    assert.is(await alias('bob'), 'bob');
    assert.is(await ready(), 'pass');

    session = await lockPlayer(schema, 'alice');
    const write = call(`/player/alice`, { method: 'PUT', headers: { ...AUTH, 'Content-Type': JSON_TYPE }, body: JSON.stringify({ playerId: 'alice', alias: 'waited' }) });
    // Longer than the default bound (2 s): the feed's lease must not wait for the write.
    assert.ok(await stillPending(write, 2500), 'the write waits for the lock');
    assert.is(await ready(), 'pass', 'the change feed is still live while a write waits');
    await other.putPlayer({ playerId: 'bob', alias: 'bob-renamed' });
    await heard('bob', 2);
    assert.is(await alias('bob'), 'bob-renamed', 'a change of another item is heard while the write waits');
    await session.query('ROLLBACK');
    assert.is((await write).status, 200);
    assert.is(await alias('alice'), 'waited');
  } finally {
    await session?.end();
    await close();
    await dispose();
  }
});

it('should hand its record on after waiting for a lock let go without a change', async () => {
  const { schema, other, heard, service, dispose } = await twoInstances('locked_none', BASE, WRITER);
  const { call, close } = await served(service);
  const { statements, restore } = countStatements(schema);
  let session: pg.Client | undefined;
  const read = async (path: string) => {
    statements.length = 0;
    const res = await call(path, { headers: { Accept: JSON_TYPE } });
    assert.is(res.status, 200);
    return [await res.json(), [...statements]];
  };
  try {
    await other.putPlayer({ playerId: 'alice', alias: 'ali' });
    await other.putPlayer({ playerId: 'owner', alias: 'owner' });
    await other.addFriend('owner', 'alice');
    await heard('owner', 2);
    await read('/player/alice');
    await read('/player/owner/friends');

    session = await lockPlayer(schema, 'alice');
    const write = call(`/player/alice`, { method: 'PATCH', headers: { ...AUTH, 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ alias: 'after-wait' }) });
    assert.ok(await stillPending(write, 300), 'the write waits for the lock');
    await session.query('ROLLBACK');
    assert.is((await write).status, 200);
    // Its echo, heard before a later change's notice (commit order), is not told as news.
    await other.putPlayer({ playerId: 'sentinel', alias: 's' });
    await heard('sentinel', 1);
    const [player, playerStatements] = await read('/player/alice');
    assert.is((player as Player).alias, 'after-wait');
    assert.equal(playerStatements, [], 'the record the write left, handed on');
    const [page, pageStatements] = await read('/player/owner/friends');
    assert.equal((page as Player[]).map((p) => p.alias), ['after-wait']);
    assert.equal(pageStatements, [], 'the page kept past a change of fields');
  } finally {
    restore();
    await session?.end();
    await close();
    await dispose();
  }
});

locked.run();
