// The route table of the Player API service, as createPlayerService builds it.
import { serviceRoutes } from '../../src/core/service/service.js';
import type { Route } from '../../src/core/service/router.js';
import { playerApi } from '../../src/player/api.js';
import { playerExtension } from '../../src/player/service.js';

/** Every route the Player API service answers: its declarations', the avatar's, the descriptions'. */
export function playerRoutes(): Route[] {
  return serviceRoutes({ api: playerApi, extensions: [playerExtension()] });
}
