// The demo player and three of its friends pages as resource documents, for snapshots and generated docs.
import { friendsResource, paging, playerResource } from '../documents.js';
import { MemoryPlayerStore } from '../player-store.js';
import type { Item, Page } from '../../core/model/resource.js';
import { DEMO_PLAYER_ID, seedDemoData } from './demo-data.js';

/**
 * The demo resources: the player (with its first page of friends) and its first, a middle and the last page.
 *
 * @example
 * const demo: DemoResources = await demoResources('https://api.example.com');
 */
export interface DemoResources {
  player: Item;
  firstPage: Page;
  middlePage: Page;
  lastPage: Page;
}

/**
 * Builds the demo resources from the demo data at `baseUrl`, `pageSize` friends per page (default 10:
 * pages 1, 2 and 4 of alice's 32 friends). Deterministic, so snapshots and docs never change by accident.
 *
 * @example
 * const { player, lastPage } = await demoResources('https://api.example.com');
 * render(lastPage, 'siren').body;
 */
export async function demoResources(baseUrl: string, pageSize = 10): Promise<DemoResources> {
  const store = new MemoryPlayerStore({ now: () => Date.UTC(2026, 0, 1) });
  await seedDemoData(store);
  const owner = (await store.getPlayer(DEMO_PLAYER_ID))!;
  const page = async (n: number) => {
    const slice = (await store.listFriends(DEMO_PLAYER_ID, { offset: (n - 1) * pageSize, limit: pageSize }))!;
    return friendsResource(baseUrl, DEMO_PLAYER_ID, slice.items, paging(n, pageSize, slice.total, slice.items.length));
  };
  const firstPage = await page(1);
  const lastPage = await page(firstPage.paging.lastPage);
  const middlePage = await page(Math.max(1, Math.floor((firstPage.paging.lastPage + 1) / 2)));
  return { player: playerResource(baseUrl, owner, firstPage), firstPage, middlePage, lastPage };
}
