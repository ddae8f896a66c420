// Test helpers: a seeded service and a one-line request function.
import { createPlayerService, MemoryPlayerStore, seedDemoData, type PlayerServiceOptions } from '../../src/index.js';

export const BASE = 'https://api.example.test';

/** A service over a fresh memory store with the demo data. */
export async function demoService(options: Partial<PlayerServiceOptions> = {}) {
  const store = new MemoryPlayerStore();
  await seedDemoData(store);
  const service = createPlayerService({ baseUrl: BASE, store, ...options });
  const call = (path: string, init: RequestInit = {}) => service.fetch(new Request(BASE + path, init));
  return { service, store, call };
}
