// createPlayerService with the built-in formats: the package's main entry point.
import { createPlayerServiceCore, type PlayerService } from './core/service/service.js';
import type { PlayerServiceOptions } from './core/service/options.js';
import { defaultRepresentations } from './representations/index.js';
import { apiRoutes } from './player/routes/index.js';

/**
 * Creates the Player API service, serving the six built-in formats unless `representations` says
 * otherwise. The result's `fetch(request)` is the whole API.
 *
 * @example
 * import { createPlayerService, MemoryPlayerStore } from 'player-hypermedia';
 * const service = createPlayerService({ baseUrl: 'https://api.example.com', store: new MemoryPlayerStore() });
 * const res = await service.fetch(new Request('https://api.example.com/player/alice'));
 * console.log(res.status, await res.json());
 */
export function createPlayerService(options: PlayerServiceOptions): PlayerService {
  return createPlayerServiceCore({ ...options, representations: options.representations ?? defaultRepresentations }, apiRoutes);
}
