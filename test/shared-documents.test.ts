import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { demoService } from './support/service.js';
import { friendsResource, paging } from '../src/player/documents.js';
import type { StoredPlayer } from '../src/player/player.js';
import { hasUriSafeLinks, markUriSafe } from '../src/core/model/resource.js';
import { playerResource } from '../src/player/documents.js';

const shared = suite('listed players: documents and texts kept while their records are unchanged');

const HAL = 'application/hal+json';

shared('should render a page the same from kept texts, and show a change at once, in HAL and JSON', async () => {
  // Both caches off: every answer is rendered, the second and later ones from the kept item texts.
  const { call, store } = await demoService({ memoizeAnswers: false, bodyCacheBytes: 0 });
  for (const accept of [HAL, 'application/json']) {
    const read = async (path: string) => (await call(path, { headers: { Accept: accept } })).text();
    const first = await read('/player/alice/friends?page=1');
    // Page 2 lists other players; page 1 again lists its players a second time (now shared).
    await read('/player/alice/friends?page=2');
    assert.is(await read('/player/alice/friends?page=1'), first);
    assert.is(await read('/player/alice/friends?page=1'), first);
    const listed = JSON.parse(first) as { _embedded?: { player: { playerId: string; alternateName: string }[] } } | { playerId: string; alias: string }[];
    const [id, alias] = Array.isArray(listed) ? [listed[0]!.playerId, listed[0]!.alias] : [listed._embedded!.player[0]!.playerId, listed._embedded!.player[0]!.alternateName];
    const renamed = `renamed-${accept.length}`;
    const current = (await store.getPlayer(id))!;
    await store.putPlayer({ playerId: id, alias: renamed, ...(current.displayName === undefined ? {} : { displayName: current.displayName }) });
    assert.is(await read('/player/alice/friends?page=1'), first.replace(`:"${alias}"`, `:"${renamed}"`), 'the renamed player shows, nothing else changes');
  }
});

const EVERY_FORMAT = [
  'application/json',
  'application/ld+json',
  HAL,
  'application/prs.hal-forms+json',
  'application/vnd.collection+json',
  'application/vnd.siren+json',
  'application/vnd.api+json',
  'text/html',
];

shared('should render a page of shared documents exactly as at first, and show a change at once, in every format', async () => {
  const { call, store } = await demoService({ memoizeAnswers: false, bodyCacheBytes: 0 });
  const first = (await store.listFriends('alice', { offset: 0, limit: 1 }))!.items[0]!;
  for (const [n, accept] of EVERY_FORMAT.entries()) {
    const read = async (path: string) => (await call(path, { headers: { Accept: accept } })).text();
    const before = await read('/player/alice/friends?page=1');
    // Listed again while unchanged: its documents are shared now (HAL and JSON keep their texts).
    assert.is(await read('/player/alice/friends?page=1'), before, accept);
    assert.is(await read('/player/alice/friends?page=1'), before, accept);
    const renamed = `renamed-${n}`;
    const current = (await store.getPlayer(first.playerId))!;
    await store.putPlayer({ ...current, alias: renamed });
    const after = await read('/player/alice/friends?page=1');
    assert.ok(after.includes(renamed) && !after.includes(`${current.alias}<`) && !after.includes(`"${current.alias}"`), `${accept}: the renamed player shows`);
    assert.is(after, await read('/player/alice/friends?page=1'), `${accept}: and goes on showing from its new texts`);
  }
});

shared('should write a JSON:API sparse fieldset of shared documents with only its fields, and the full page whole again', async () => {
  const { call } = await demoService({ memoizeAnswers: false, bodyCacheBytes: 0 });
  const read = async (path: string) => JSON.parse(await (await call(path, { headers: { Accept: 'application/vnd.api+json' } })).text());
  for (let i = 0; i < 3; i++) await read('/player/alice/friends?page=1');
  const sparse = await read('/player/alice/friends?page=1&fields[players]=alternateName');
  for (const item of sparse.data) assert.equal(Object.keys(item.attributes ?? {}), ['alternateName']);
  const full = await read('/player/alice/friends?page=1');
  assert.ok(full.data.some((item: { attributes: Record<string, unknown> }) => Object.keys(item.attributes).length > 1), 'the full items are whole again');
});

shared('should keep a listed player\'s document only for a store that shares its records, leaving the record as it was', async () => {
  const record: StoredPlayer = Object.freeze({ playerId: 'bob', alias: 'bobby', revision: '3', modifiedAt: 0 });
  const listed = (shares: boolean, base = 'https://x.test') => friendsResource(base, 'alice', [record], paging(1, 10, 1, 1), undefined, 'list', undefined, shares).items[0]!;
  const first = listed(true);
  assert.is(listed(true), first, 'listed again: the kept document');
  assert.is.not(listed(true, 'https://y.test'), first, 'another base URL: another document');
  assert.is.not(listed(false), listed(false), 'records made for each read: a document each time, nothing kept');
  assert.equal(first, listed(false), 'the kept document (a copy of its own, docs/scaling.md) is the one a read builds');
  const full: StoredPlayer = Object.freeze({ playerId: 'cy', alias: 'cy', displayName: 'Cy Young', image: 'https://cdn.test/cy.png', revision: '4', modifiedAt: 5 });
  const page = (shares: boolean) => friendsResource('https://x.test', 'alice', [full], paging(1, 10, 1, 1), undefined, 'list', undefined, shares).items[0]!;
  assert.equal(page(true), page(false), 'every field and link kept');
  assert.equal({ ...record }, { playerId: 'bob', alias: 'bobby', revision: '3', modifiedAt: 0 }, 'the record carries nothing more');
  // The service asks the store: the memory store shares its records, so a page's players are built once.
  const { store } = await demoService();
  assert.is(store.sharesRecords, true);
});

shared('should mark a built resource\'s URIs as safe invisibly: not in its keys, JSON or copies', () => {
  const doc = playerResource('https://x.test', { playerId: 'bob', alias: 'b', revision: '1', modifiedAt: 0 });
  assert.ok(hasUriSafeLinks(doc));
  assert.equal(Object.keys(doc), ['kind', 'type', 'id', 'url', 'fields', 'links', 'operations']);
  assert.equal(Object.getOwnPropertySymbols(doc), []);
  assert.not.ok(hasUriSafeLinks({ ...doc }), 'a copy is built by hand: its URIs are checked');
  assert.ok(markUriSafe(doc, 'https://x.test'), 'marking twice is harmless');
  assert.not.ok(markUriSafe({ ...doc }, 'https://x.test/"'), 'a base URL JSON escapes is never safe');
  assert.not.ok(markUriSafe(Object.freeze({ ...doc }), 'https://x.test'), 'a frozen resource is not marked');
});

shared.run();
