// The route table of the Player API: every path the service answers.
import type { Route } from '../../core/service/router.js';
import { avatarRoute } from '../avatar/route.js';
import { friendRoute, friendsRoute, searchRoute } from './friends.js';
import { playerRoute } from './player.js';
import { swaggerRoute } from '../swagger/route.js';
import { friendsLinkageRoute } from './relationships.js';
import { apiDocumentationRoute, entryPointRoute } from '../hydra/route.js';

/**
 * Every route of the service. Later capabilities add their methods and paths here.
 *
 * @example
 * apiRoutes.map((r) => r.path); // ['/player/{id}', '/player/{id}/friends', ...]
 */
export const apiRoutes: readonly Route[] = [playerRoute, friendsRoute, searchRoute, friendRoute, avatarRoute, friendsLinkageRoute, swaggerRoute, apiDocumentationRoute, entryPointRoute];
