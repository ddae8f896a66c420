import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, MemoryPlayerStore } from '../src/index.js';
import { BASE } from './support/service.js';

// A search stops counting at searchCountLimit (or one past the page asked for): past it, every format
// says the total is a lower bound and none shows a last page.
const totals = suite('search totals past the count limit');

async function service() {
  const store = new MemoryPlayerStore();
  await store.putPlayer({ playerId: 'o', alias: 'owner' });
  for (let i = 0; i < 12; i++) await store.createFriend('o', { playerId: `f${i}`, alias: `match${i}` });
  const s = createPlayerService({ baseUrl: BASE, store, pageSize: 2, searchCountLimit: 5 });
  return (path: string, accept: string) => s.fetch(new Request(BASE + path, { headers: { Accept: accept } }));
}

totals('should give a lower bound and no last page in every format while counting stopped', async () => {
  const get = await service();
  const hal = await get('/player/o/friends/search?search=match', 'application/hal+json');
  assert.is(hal.status, 200);
  assert.is(hal.headers.get('total-count'), null);
  const halBody = await hal.json();
  assert.is(halBody.totalAtLeast, 5);
  assert.is(halBody.total, undefined);
  assert.ok(halBody._links.next);
  assert.is(halBody._links.last, undefined);
  const api = await (await get('/player/o/friends/search?filter%5Bsearch%5D=match', 'application/vnd.api+json')).json();
  assert.equal([api.meta.totalAtLeast, api.meta.total, api.meta.lastPage, api.links.last], [5, undefined, undefined, undefined]);
  const ld = await (await get('/player/o/friends/search?search=match', 'application/ld+json')).json();
  assert.is(ld.totalItems, undefined);
  assert.is(ld.view.last, undefined);
  assert.ok(ld.view.next);
  const siren = await (await get('/player/o/friends/search?search=match', 'application/vnd.siren+json')).json();
  assert.equal([siren.properties.totalAtLeast, siren.properties.total, siren.properties.lastPage], [5, undefined, undefined]);
  const json = await get('/player/o/friends/search?search=match', 'application/json');
  assert.is(json.headers.get('total-count'), null);
  assert.not.match(json.headers.get('link') ?? '', 'rel="last"');
  const html = await (await get('/player/o/friends/search?search=match', 'text/html')).text();
  assert.match(html, 'more than 5 in all');
});

totals('should count one past the page asked for, and be exact once the matches end', async () => {
  const get = await service();
  // Page 5 (items 9-10) counts at least 11 matches: 12 exist, so still a lower bound, with a next page.
  const fifth = await (await get('/player/o/friends/search?search=match&page=5', 'application/hal+json')).json();
  assert.equal([fifth.totalAtLeast, fifth._embedded.player.length, Boolean(fifth._links.next)], [11, 2, true]);
  // Page 6 counts up to 13: all 12 are counted, so the total is exact and the last page known.
  const sixth = await get('/player/o/friends/search?search=match&page=6', 'application/hal+json');
  assert.is(sixth.headers.get('total-count'), '12');
  const body = await sixth.json();
  assert.equal([body.total, body._links.last?.href, body._links.next], [12, `${BASE}/player/o/friends/search?search=match&page=6`, undefined]);
  assert.is((await get('/player/o/friends/search?search=match&page=7', 'application/hal+json')).status, 404);
  // A search with fewer matches than the limit is exact from page 1.
  const few = await get('/player/o/friends/search?search=match1', 'application/hal+json');
  assert.is(few.headers.get('total-count'), '3');
});

totals.run();
