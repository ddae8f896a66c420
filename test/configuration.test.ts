// Misconfiguration fails when the service is created, with a TypeError naming the option (docs/errors.md).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, createService, MemoryPlayerStore, playerApi, StoreError } from '../src/index.js';

const BASE = 'https://api.example.com';

/** Asserts that `create` throws a TypeError whose message matches `message`. */
function refuses(create: () => unknown, message: RegExp): void {
  try {
    create();
  } catch (error) {
    assert.instance(error, TypeError);
    assert.match((error as Error).message, message);
    return;
  }
  assert.unreachable(`expected a TypeError matching ${message}`);
}

const creation = suite('configuration checked when the service is created');

creation('should name an unknown option and the known one it most likely meant', () => {
  refuses(() => createPlayerService({ baseUrl: BASE, pagesize: 20 } as never), /unknown option "pagesize"; did you mean "pageSize"\?/);
  refuses(() => createPlayerService({ baseUrl: BASE, maxAvatarByte: 5 } as never), /did you mean "maxAvatarBytes"/);
  refuses(() => createService({ api: playerApi, baseUrl: BASE, memoiseAnswers: false } as never), /^createService: unknown option "memoiseAnswers"; did you mean "memoizeAnswers"\?/);
  refuses(() => createPlayerService({ baseUrl: BASE, colour: 'red' } as never), /unknown option "colour" \(the options/);
  // The Player API's own options belong to createPlayerService only.
  refuses(() => createService({ api: playerApi, baseUrl: BASE, maxAvatarBytes: 5 } as never), /unknown option "maxAvatarBytes"/);
});

creation('should refuse a store that is not one, naming what it lacks', () => {
  refuses(() => createPlayerService({ baseUrl: BASE, store: {} as never }), /options\.store is missing get\(\), put\(\), delete\(\), list\(\), search\(\), createMember\(\), addMember\(\), removeMember\(\)/);
  refuses(() => createPlayerService({ baseUrl: BASE, store: 'postgres://x' as never }), /options\.store must be a store object .*not the string "postgres:\/\/x"/);
  const halfStore = { ...Object.fromEntries(['get', 'put', 'delete', 'list', 'search', 'createMember', 'addMember'].map((m) => [m, () => undefined])) };
  refuses(() => createPlayerService({ baseUrl: BASE, store: halfStore as never }), /missing removeMember\(\)/);
  const store = new MemoryPlayerStore();
  refuses(() => createPlayerService({ baseUrl: BASE, store: Object.assign(Object.create(store), { watch: true }) }), /options\.store has watch that is not a function/);
});

creation('should refuse hooks and flags of the wrong kind', () => {
  refuses(() => createPlayerService({ baseUrl: BASE, authenticate: 'secret' as never }), /options\.authenticate must be a function, not the string "secret"/);
  refuses(() => createPlayerService({ baseUrl: BASE, now: 5 as never }), /options\.now must be a function, not a number/);
  refuses(() => createPlayerService({ baseUrl: BASE, requireIfMatch: 'yes' as never }), /options\.requireIfMatch must be true or false/);
  refuses(() => createPlayerService({ baseUrl: BASE, metrics: 'on' as never }), /options\.metrics must be true, false or 'authenticated'/);
  refuses(() => createPlayerService({ baseUrl: BASE, representations: {} as never }), /options\.representations must be an array/);
});

creation('should refuse a base URL with parts a link cannot carry, instead of dropping them', () => {
  refuses(() => createPlayerService({ baseUrl: 'https://user:pw@api.example.com' }), /must not carry credentials/);
  refuses(() => createPlayerService({ baseUrl: 'https://api.example.com/api?v=1' }), /must not have a query/);
  refuses(() => createPlayerService({ baseUrl: 'https://api.example.com/api#top' }), /must not have a fragment/);
  refuses(() => createPlayerService({ baseUrl: 'api.example.com' }), /is not an absolute URL/);
  refuses(() => (createPlayerService as (o?: unknown) => unknown)(), /^createPlayerService: options \(an object with baseUrl\) are required/);
});

creation('should accept every documented option, and undefined for any of them', () => {
  const service = createPlayerService({ baseUrl: `${BASE}/api/`, pageSize: 20, maxAvatarBytes: 1000, requireIfMatch: true, metrics: 'authenticated', authenticate: async () => null, now: Date.now });
  assert.is(service.config.basePath, '/api');
  assert.ok(createPlayerService({ baseUrl: BASE, store: undefined, authenticate: undefined } as never));
});

creation.run();

const messages = suite("a store's messages reach clients only when it marks them for clients");

messages('should answer a store error without expose in a generic sentence, and an exposed one in its words', async () => {
  class FailingStore extends MemoryPlayerStore {
    override async get(...args: Parameters<MemoryPlayerStore['get']>): ReturnType<MemoryPlayerStore['get']> {
      if (args[1] === 'secret') throw new StoreError('not-found', 'row missing in table items (host db-7.internal)');
      if (args[1] === 'told') throw new StoreError('not-found', 'no player "told"', { expose: true });
      return super.get(...args);
    }
  }
  const failing = new FailingStore();
  const service = createPlayerService({ baseUrl: BASE, store: failing });
  const hidden = await service.fetch(new Request(`${BASE}/player/secret`));
  assert.is(hidden.status, 404);
  const body = await hidden.text();
  assert.not.match(body, /db-7|table items/);
  assert.match(body, /does not exist/);
  const told = await service.fetch(new Request(`${BASE}/player/told`));
  assert.is(told.status, 404);
  assert.match(await told.text(), /no player \\"told\\"/);
  assert.ok(StoreError.exposed('conflict', 'x').expose);
  assert.not.ok(new StoreError('conflict', 'x').expose);
});

messages.run();
