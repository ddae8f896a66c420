import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { demoService } from './support/service.js';
import { friendsResource, paging } from '../src/player/documents.js';
import type { StoredPlayer } from '../src/player/player.js';

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

shared('should keep a listed player\'s document on its record without showing in it, and build one for a frozen record', () => {
  const record: StoredPlayer = { playerId: 'bob', alias: 'bobby', revision: '3', modifiedAt: 0 };
  const page = () => friendsResource('https://x.test', 'alice', [record], paging(1, 10, 1, 1)).items[0]!;
  const first = page();
  assert.is(page(), first, 'listed again: the kept document');
  assert.equal(Object.keys(record), ['playerId', 'alias', 'revision', 'modifiedAt']);
  assert.equal({ ...record }, { playerId: 'bob', alias: 'bobby', revision: '3', modifiedAt: 0 }, 'a copy of the record carries nothing more');
  assert.is(JSON.stringify(record), '{"playerId":"bob","alias":"bobby","revision":"3","modifiedAt":0}');
  assert.is.not(friendsResource('https://y.test', 'alice', [record], paging(1, 10, 1, 1)).items[0], first, 'another base URL: another document');
  // A custom store may hand out frozen records: they get a new document each time.
  const frozen: StoredPlayer = Object.freeze({ playerId: 'carol', alias: 'c', revision: '1', modifiedAt: 0 });
  const once = friendsResource('https://x.test', 'alice', [frozen], paging(1, 10, 1, 1)).items[0]!;
  assert.is(once.player.alias, 'c');
  assert.is.not(friendsResource('https://x.test', 'alice', [frozen], paging(1, 10, 1, 1)).items[0], once);
});

shared.run();
