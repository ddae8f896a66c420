// Writes without I/O: the memory store's synchronous writes (Store.writesNow), and the service finishing a
// write without a further turn of the event loop once its body has arrived, with the answers the
// asynchronous path gives.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { promiseHooks } from 'node:v8';
import { bearerTokens, createPlayerService, MemoryPlayerStore, seedDemoData } from '../src/index.js';
import { MemoryStore } from '../src/stores/memory.js';
import { StoreError } from '../src/stores/contract.js';
import { answererOf } from '../src/core/service/answerer.js';
import { headerPairs, type RequestHead } from '../src/core/http/request-head.js';
import type { Answer } from '../src/core/respond/answer.js';

const writesNow = suite('writes without I/O: Store.writesNow and writes answered at once after their body');
const BASE = 'http://writes-now.test';
const TOKEN = 'writes-now-token';
const NO_REQUEST = () => {
  throw new Error('the body is given as bytes');
};

/** The memory store with its own writes (async, through super): the service must take the promise path. */
class AsyncWrites extends MemoryPlayerStore {
  override async put(...args: Parameters<MemoryStore['put']>) {
    return super.put(...args);
  }
  override async createMember(...args: Parameters<MemoryStore['createMember']>) {
    return super.createMember(...args);
  }
}

/** A demo service on `store` at a fixed clock, so that two stores fed the same writes answer the same bytes. */
async function serviceOn(store: MemoryPlayerStore) {
  await seedDemoData(store);
  return createPlayerService({ baseUrl: BASE, store, authenticate: bearerTokens([TOKEN]), now: () => Date.UTC(2026, 10, 27) });
}

const encoder = new TextEncoder();
function write(method: string, path: string, type: string, body: string, fields: string[] = []): RequestHead {
  const bytes = encoder.encode(body);
  return {
    method,
    url: BASE + path,
    headers: headerPairs(['Host', 'writes-now.test', 'Authorization', `Bearer ${TOKEN}`, 'Content-Type', type, 'Content-Length', String(bytes.length), 'Accept', 'application/json', ...fields]),
    bodyBytes: () => Promise.resolve(bytes),
    bodyStream: () => null,
  };
}

function text(answer: Answer): string {
  const body = answer.body;
  return body === null ? '' : typeof body === 'string' ? body : new TextDecoder().decode(body);
}

/** What a client sees of an answer, but the Date field (the wall clock). */
function seen(answer: Answer) {
  const flat = answer.flatFields();
  const fields: string[] = [];
  for (let i = 0; i < flat.length; i += 2) if (flat[i] !== 'date') fields.push(`${flat[i]}: ${flat[i + 1]}`);
  // A new member's id is the server's random choice: named alike on both sides.
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const named = (f: string) => f.replace(uuid, '<new id>');
  const made = fields.some((f) => f.startsWith('location: ') && /[0-9a-f]{8}-/.test(f));
  // Its ETag hashes its URL: only the revision is compared.
  const tagged = (f: string) => (made && f.startsWith('etag: ') ? f.replace(/-[0-9a-z]+"$/, '-<hash>"') : f);
  return { status: answer.status, fields: fields.map((f) => tagged(named(f))), body: named(text(answer)) };
}

writesNow('should do what put and createMember do, and be undefined for a subclass with writes of its own', async () => {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const player = (await serviceOn(new MemoryPlayerStore())).config.api.type('player');
  const friends = player.relation('friends')!;
  const now = store.writesNow()!;
  assert.ok(now);
  const before = (await store.get(player, 'bob'))!;
  const { item, created } = now.put(player, { playerId: 'bob', alias: 'bobby2' }, { expect: { revision: before.revision } });
  assert.is(created, false);
  assert.is(item, await store.get(player, 'bob'));
  assert.is.not(item.revision, before.revision);
  // What the async method rejects with, thrown: the same StoreError.
  assert.throws(() => now.put(player, { playerId: 'bob', alias: 'x' }, { expect: { revision: before.revision } }), (e: unknown) => e instanceof StoreError && e.code === 'revision-mismatch');
  const added = now.createMember(friends, 'bob', { playerId: 'zed', alias: 'zed' });
  assert.is(added.member, await store.get(player, 'zed'));
  assert.is(added.owner, await store.get(player, 'bob'));
  assert.ok((await store.list(friends, 'bob', { offset: 0, limit: 100 }))!.items.some((p) => (p as unknown as { playerId: string }).playerId === 'zed'));
  assert.throws(() => now.createMember(friends, 'bob', { playerId: 'zed', alias: 'again' }), (e: unknown) => e instanceof StoreError && e.code === 'conflict');
  assert.is(new AsyncWrites().writesNow(), undefined);
  class OwnGet extends MemoryStore {
    override async get(...args: Parameters<MemoryStore['get']>) {
      return super.get(...args);
    }
  }
  assert.is(new OwnGet().writesNow(), undefined);
});

// Every kind of write the routes make at once, with its failures: each answered alike on both paths.
const script: RequestHead[] = [
  write('PATCH', '/player/bob', 'application/merge-patch+json', '{"alias":"bob-m","displayName":"Bob Merged"}'),
  write('PATCH', '/player/bob', 'application/json-patch+json', '[{"op":"replace","path":"/alias","value":"bob-j"}]'),
  write('PATCH', '/player/bob', 'application/json-patch+json', '[{"op":"test","path":"/alias","value":"nope"}]'),
  write('PATCH', '/player/bob', 'application/merge-patch+json', '{"alias":"bob-j"}'),
  write('PATCH', '/player/nobody', 'application/merge-patch+json', '{"alias":"x"}'),
  write('PATCH', '/player/bob', 'application/merge-patch+json', '{"alias":"stale"}', ['If-Match', '"1-abc"']),
  write('PUT', '/player/carol', 'application/json', '{"playerId":"carol","alias":"carol-p","displayName":"Carol Put"}'),
  write('PUT', '/player/newbie', 'application/json', '{"playerId":"newbie","alias":"newbie"}'),
  write('PUT', '/player/newbie', 'application/json', '{"playerId":"newbie","alias":"again"}', ['If-None-Match', '*']),
  write('PUT', '/player/carol', 'application/json', '{"playerId":"carol","alias":""}'),
  write('POST', '/player/alice/friends', 'application/json', '{"alternateName":"made","name":"Made Here"}'),
  write('POST', '/player/alice/friends', 'application/json', '{"playerId":"bob"}'),
  write('POST', '/player/alice/friends', 'application/json', '{"playerId":"ghost"}'),
  write('POST', '/player/nobody/friends', 'application/json', '{"alternateName":"orphan"}'),
];

writesNow('should answer every kind of write, and its failures, as the asynchronous path does', async () => {
  // One clock for both stores, so that a record made in one second and its twin in the next answer alike.
  const clock = { now: () => Date.UTC(2026, 10, 27) };
  const direct = answererOf(await serviceOn(new MemoryPlayerStore(clock)))!;
  const awaited = answererOf(await serviceOn(new AsyncWrites(clock)))!;
  const statuses: number[] = [];
  for (const head of script) {
    const a = seen(await direct(head, NO_REQUEST));
    const b = seen(await awaited(head, NO_REQUEST));
    assert.equal(a, b, `${head.method} ${head.url}`);
    statuses.push(a.status);
  }
  // The script reaches what it means to: writes, a failed test, a no-op, 404, 412, two PUTs that
  // create, 412 on If-None-Match, 422, a new member, an existing one added, 422 for a missing one,
  // 404 for no owner.
  assert.equal(statuses, [200, 200, 409, 200, 404, 412, 201, 201, 412, 422, 201, 201, 422, 404]);
});

writesNow('should finish a write with no further promise of the store once its body has arrived', async () => {
  const count = async (store: MemoryPlayerStore) => {
    const answer = answererOf(await serviceOn(store))!;
    await answer(script[0]!, NO_REQUEST); // warm: the kept records of bob
    let promises = 0;
    const stop = promiseHooks.createHook({ init: () => void promises++ });
    const a = await answer(write('PATCH', '/player/bob', 'application/merge-patch+json', '{"alias":"counted"}'), NO_REQUEST);
    stop();
    assert.is(a.status, 200);
    return promises;
  };
  const direct = await count(new MemoryPlayerStore());
  const awaited = await count(new AsyncWrites());
  // The body's promise and its reading and parsing, the route's one continuation after it, the
  // service's answer step: the store's writes and the rest at once (13 when the store's writes are awaited).
  assert.ok(direct <= 6, `${direct} promises`);
  assert.ok(awaited >= direct + 5, `${awaited} against ${direct}`);
});

writesNow.run();
