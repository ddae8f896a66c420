import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { playerApi } from '../src/index.js';
import { toNodeListener } from '../src/adapters/node.js';
import { countStatements, noteSkip, POSTGRES_SKIP } from './support/postgres.js';
import { twoInstances } from './support/postgres-instances.js';

// On PostgreSQL, a page of a list read again in another format costs no statement while its owner and
// members are unchanged; a change made by another instance, heard through LISTEN/NOTIFY, makes the next
// read ask the database again. Statements counted at node-postgres. docs/decisions.md, "Kept answers and records".
const pages = suite('PostgreSQL: a page read again needs no statement until another instance changes it');
const it = POSTGRES_SKIP ? pages.skip : pages;
noteSkip();

const BASE = 'https://api.example.com';
const PLAYER = playerApi.type('player');
const FRIENDS = PLAYER.relation('friends')!;
type Body = { _embedded?: { player: { alternateName: string }[] }; data?: { attributes: { alternateName: string } }[]; entities?: { properties: { alternateName: string } }[] };

it('should read a page once for every format, and again after another instance changed its owner or a member', async () => {
  const { schema, other, heard, service, dispose } = await twoInstances('kept_pages', BASE);
  const { statements, restore } = countStatements(schema);
  const page = async (accept: string): Promise<[string[], string[]]> => {
    statements.length = 0;
    const res = await service.fetch(new Request(`${BASE}/player/alice/friends`, { headers: { Accept: accept } }));
    assert.is(res.status, 200);
    const body = (await res.json()) as Body;
    const names = body._embedded ? body._embedded.player.map((p) => p.alternateName) : body.entities ? body.entities.map((p) => p.properties.alternateName) : body.data!.map((p) => p.attributes.alternateName);
    return [names, [...statements]];
  };
  try {
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
    restore();
    await dispose();
  }
});

it('should show every page as the database has it once another instance stops writing (adds, removals, renames)', async () => {
  const { store, other, heard, service, dispose } = await twoInstances('kept_pages_race', BASE);
  const names = async (page: number, accept: string, n: number): Promise<string[]> => {
    const res = await service.fetch(new Request(`${BASE}/player/owner/friends?page=${page}&cacheBuster=${n}`, { headers: { Accept: accept } }));
    assert.is(res.status, 200, `page ${page} in ${accept}`);
    const body = (await res.json()) as unknown;
    if (Array.isArray(body)) return (body as { alias: string }[]).map((p) => p.alias);
    const { _embedded, data } = body as Body;
    return _embedded ? _embedded.player.map((p) => p.alternateName) : data!.map((p) => p.attributes.alternateName);
  };
  try {
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
    // And this instance writes the same players and list: its own writes hand their records on.
    const mine = (async () => {
      for (let i = 0; writing; i++) {
        const pick = `f${Math.floor(Math.random() * next)}`;
        if (i % 2 === 0 && (await store.get(PLAYER, pick))) await store.put(PLAYER, { playerId: pick, alias: `${pick}-mine-${i}` });
        else await store.createMember(FRIENDS, 'owner', { playerId: `m${i}`, alias: `m${i}` });
      }
    })();
    let n = 0;
    const until = Date.now() + 400;
    while (Date.now() < until) await names(1 + (n % 3), n % 2 ? 'application/json' : 'application/hal+json', ++n);
    writing = false;
    await writer;
    await mine;
    // Every notice of the writes reaches this instance before the sentinel's (commit order).
    await other.putPlayer({ playerId: 'sentinel', alias: 's' });
    await heard('sentinel', 1);
    for (let page = 1; page <= 3; page++) {
      const truth = (await other.listFriends('owner', { offset: (page - 1) * 10, limit: 10 }))!.items.map((p) => p.alias);
      for (const accept of ['application/json', 'application/hal+json', 'application/vnd.api+json']) assert.equal(await names(page, accept, ++n), truth, `page ${page} in ${accept}`);
    }
  } finally {
    await dispose();
  }
});

it("should keep the pages this instance's own writes leave as they were (over HTTP)", async () => {
  const { schema, store, other, heard, service, dispose } = await twoInstances('kept_pages_own', BASE);
  const { statements, restore } = countStatements(schema);
  // Over a real node:http server and keep-alive sockets, as an application serves it.
  const server = createServer(toNodeListener(service));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const page = async (n: number): Promise<[string[], number, string[]]> => {
    statements.length = 0;
    const res = await fetch(`${origin}/player/owner/friends?page=${n}`, { headers: { Accept: 'application/hal+json' } });
    assert.is(res.status, 200);
    const body = (await res.json()) as Body & { count?: number; totalItems?: number; total?: number };
    return [body._embedded!.player.map((p) => p.alternateName), (body as { total?: number }).total ?? -1, [...statements]];
  };
  try {
    await other.putPlayer({ playerId: 'owner', alias: 'owner' });
    for (let i = 0; i < 25; i++) await other.createFriend('owner', { playerId: `f${i}`, alias: `f${i}` });
    await heard('f24', 1);
    for (const n of [1, 2, 3]) assert.equal((await page(n))[2], ['listMembers']);
    // This instance renames a friend shown on page 1 and adds a 26th: pages 1 and 2 are as they were but
    // for the name and the total, page 3 reached the old end.
    await store.put(PLAYER, { playerId: 'f3', alias: 'renamed' });
    await store.createMember(FRIENDS, 'owner', { playerId: 'f25', alias: 'f25' });
    // Every notice committed so far, echoes included, has reached this instance (commit order).
    await other.putPlayer({ playerId: 'sentinel', alias: 's' });
    await heard('sentinel', 1);
    const [first, , firstStatements] = await page(1);
    assert.is(first[3], 'renamed');
    assert.equal(firstStatements, [], 'page 1: made from the kept records, the renamed friend handed on by the write');
    assert.equal((await page(2))[2], [], 'page 2: carried past the append');
    const [third, , thirdStatements] = await page(3);
    assert.equal(third, ['f20', 'f21', 'f22', 'f23', 'f24', 'f25']);
    assert.equal(thirdStatements, ['listMembers'], 'page 3 reached the end: read again');
    // A write of another instance after them is still heard.
    await other.putPlayer({ playerId: 'f3', alias: 'elsewhere' });
    await heard('f3', 3); // made by the other instance, renamed here (told once), renamed there
    assert.equal((await page(1))[0][3], 'elsewhere');
  } finally {
    restore();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await dispose();
  }
});

pages.run();
