import pg from 'pg';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService } from '../src/index.js';
import { PostgresPlayerStore } from '../src/stores/postgres/index.js';
import { noteSkip, POSTGRES_SKIP, TEST_DATABASE_URL } from './support/postgres.js';

// On PostgreSQL, a page of a list read again in another format costs no statement while its owner and
// members are unchanged; a change made by another instance, heard through LISTEN/NOTIFY, makes the next
// read ask the database again. Statements counted at node-postgres. docs/decisions.md, "Kept answers and records".
const pages = suite('PostgreSQL: a page read again needs no statement until another instance changes it');
const it = POSTGRES_SKIP ? pages.skip : pages;
noteSkip();

const BASE = 'https://api.example.com';
type Body = { _embedded?: { player: { alternateName: string }[] }; data?: { attributes: { alternateName: string } }[]; entities?: { properties: { alternateName: string } }[] };

it('should read a page once for every format, and again after another instance changed its owner or a member', async () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  const schema = `kept_pages_${process.pid}`;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true });
  await store.migrate();
  // Another instance: its own pool, no change feed of its own; its writes reach this one by NOTIFY.
  const other = new PostgresPlayerStore({ connectionString: TEST_DATABASE_URL, schema, watchChanges: false });
  const statements: string[] = [];
  const query = pg.Client.prototype.query;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as { name?: string } | string;
    if (typeof q === 'object' && q?.name?.startsWith('ph_')) statements.push(q.name.slice(3, q.name.length - schema.length - 1));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  };
  const notices = new Map<string, number>();
  let listening = false;
  const unwatch = store.watch((changed) => {
    if (changed === 'all') listening = true;
    if (Array.isArray(changed)) for (const key of changed) notices.set(key, (notices.get(key) ?? 0) + 1);
  });
  const heard = async (id: string, count: number) => {
    const told = () => notices.get(`player/${id}`) ?? 0;
    for (let waited = 0; told() < count && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.is(told(), count, `the change feed told the changes of ${id}`);
  };
  const service = createPlayerService({ baseUrl: BASE, store });
  const page = async (accept: string): Promise<[string[], string[]]> => {
    statements.length = 0;
    const res = await service.fetch(new Request(`${BASE}/player/alice/friends`, { headers: { Accept: accept } }));
    assert.is(res.status, 200);
    const body = (await res.json()) as Body;
    const names = body._embedded ? body._embedded.player.map((p) => p.alternateName) : body.entities ? body.entities.map((p) => p.properties.alternateName) : body.data!.map((p) => p.attributes.alternateName);
    return [names, [...statements]];
  };
  try {
    for (let waited = 0; !listening && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(listening, 'the change feed listens');
    await other.putPlayer({ playerId: 'alice', alias: 'ali' });
    await other.createFriend('alice', { playerId: 'bob', alias: 'bobby' });
    await other.createFriend('alice', { playerId: 'carol', alias: 'c' });
    await heard('alice', 3);
    await heard('carol', 1);
    assert.equal(await page('application/hal+json'), [['bobby', 'c'], ['listMembers']]);
    assert.equal(await page('application/vnd.api+json'), [['bobby', 'c'], []], 'another format: no statement');
    assert.equal(await page('application/vnd.siren+json'), [['bobby', 'c'], []]);
    await other.createFriend('alice', { playerId: 'dave', alias: 'd' });
    await heard('alice', 4);
    assert.equal(await page('application/prs.hal-forms+json'), [['bobby', 'c', 'd'], ['listMembers']], 'a friend added elsewhere');
    assert.equal(await page('application/hal+json'), [['bobby', 'c', 'd'], []]);
    await other.putPlayer({ playerId: 'carol', alias: 'caroline' });
    await heard('carol', 2);
    assert.equal(await page('application/vnd.api+json'), [['bobby', 'caroline', 'd'], ['listMembers']], 'a friend changed elsewhere');
  } finally {
    pg.Client.prototype.query = query;
    unwatch?.();
    await other.close();
    await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
});

it('should show every page as the database has it once another instance stops writing (adds, removals, renames)', async () => {
  const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 4 });
  const schema = `kept_pages_race_${process.pid}`;
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  const store = new PostgresPlayerStore({ pool, schema, watchChanges: true });
  await store.migrate();
  const other = new PostgresPlayerStore({ connectionString: TEST_DATABASE_URL, schema, watchChanges: false });
  let listening = false;
  let sentinel = 0;
  const unwatch = store.watch((changed) => {
    if (changed === 'all') listening = true;
    if (Array.isArray(changed) && changed.includes('player/sentinel')) sentinel++;
  });
  const service = createPlayerService({ baseUrl: BASE, store });
  const names = async (page: number, accept: string, n: number): Promise<string[]> => {
    const res = await service.fetch(new Request(`${BASE}/player/owner/friends?page=${page}&cacheBuster=${n}`, { headers: { Accept: accept } }));
    assert.is(res.status, 200, `page ${page} in ${accept}`);
    const body = (await res.json()) as unknown;
    return Array.isArray(body) ? (body as { alias: string }[]).map((p) => p.alias) : ((body as Body)._embedded?.player.map((p) => p.alternateName) ?? []);
  };
  try {
    for (let waited = 0; !listening && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    await other.putPlayer({ playerId: 'owner', alias: 'owner' });
    for (let i = 0; i < 25; i++) await other.createFriend('owner', { playerId: `f${i}`, alias: `f${i}` });
    // Another instance adds, removes and renames friends while this one reads pages in two formats.
    let writing = true;
    let next = 25;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const pick = `f${Math.floor(Math.random() * next)}`;
        if (i % 3 === 0) await other.createFriend('owner', { playerId: `f${next}`, alias: `f${next++}` });
        else if (i % 3 === 1) await other.removeFriend('owner', pick).catch(() => undefined);
        else if (await other.getPlayer(pick)) await other.putPlayer({ playerId: pick, alias: `${pick}-${i}` });
      }
    })();
    let n = 0;
    const until = Date.now() + 400;
    while (Date.now() < until) await names(1 + (n % 3), n % 2 ? 'application/json' : 'application/hal+json', ++n);
    writing = false;
    await writer;
    // Every notice of the writes reaches this instance before the sentinel's (commit order).
    await other.putPlayer({ playerId: 'sentinel', alias: 's' });
    for (let waited = 0; sentinel === 0 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(sentinel > 0, 'the sentinel was heard');
    for (let page = 1; page <= 3; page++) {
      const truth = (await other.listFriends('owner', { offset: (page - 1) * 10, limit: 10 }))!.items.map((p) => p.alias);
      for (const accept of ['application/json', 'application/hal+json', 'application/vnd.api+json']) {
        if (accept === 'application/vnd.api+json') {
          const res = await service.fetch(new Request(`${BASE}/player/owner/friends?page=${page}`, { headers: { Accept: accept } }));
          const data = ((await res.json()) as Body).data!.map((p) => p.attributes.alternateName);
          assert.equal(data, truth, `page ${page} in JSON:API`);
        } else assert.equal(await names(page, accept, ++n), truth, `page ${page} in ${accept}`);
      }
    }
  } finally {
    unwatch?.();
    await other.close();
    await store.close();
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
});

pages.run();
