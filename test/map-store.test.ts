// examples/map-store.ts, written from docs/stores.md alone, passes the store kit; and so the service runs on it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPlayerService, seedDemoData } from '../src/index.js';
import { withPlayerMethods } from '../src/player/player-store.js';
import { MapStore } from '../examples/map-store.js';
import { storeKitSuite } from './support/store-kit.js';

storeKitSuite('examples/map-store.ts passes the store kit', { make: () => new MapStore() }).run();

const served = suite('the Player API on the example store');

served('should serve the demo data and take a write', async () => {
  class MapPlayerStore extends withPlayerMethods(MapStore) {}
  const store = new MapPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: 'https://api.example.com', store, authenticate: async () => ({ id: 'admin' }) });
  const page = await service.fetch(new Request('https://api.example.com/player/alice/friends?page=2', { headers: { Accept: 'application/hal+json' } }));
  assert.is(page.status, 200);
  assert.ok(((await page.json()) as { _embedded: { player: unknown[] } })._embedded.player.length === 10);
  const added = await service.fetch(new Request('https://api.example.com/player/alice/friends', { method: 'POST', headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'New Bie', alternateName: 'nb' }) }));
  assert.is(added.status, 201);
});

served.run();
