// /player/{id}: GET a player; PUT and DELETE come from player-writes.ts, PATCH from player-patch.ts.
import { PLAYER } from '../documents.js';
import type { Answer } from '../../core/respond/answer.js';
import { acceptedPatchTypes } from '../body.js';
import { selectRepresentation, type RequestContext } from '../../core/service/context.js';
import { requirePlayerId } from '../params.js';
import { viewOf } from '../view.js';
import { currentPlayer } from '../current-player.js';
import { HttpError } from '../../core/http/problem.js';
import { respond } from '../../core/respond/conditional-get.js';
import type { Route } from '../../core/service/router.js';
import { patchPlayer } from './player-patch.js';
import { deletePlayer, putPlayer } from './player-writes.js';

/**
 * Serves GET/HEAD of a player. The ETag comes from the store revision (and, when the format embeds
 * them, the revisions of the first page of friends), so a 304 costs one store read and no rendering.
 *
 * @example
 * await getPlayer(ctx); // Response 200, 304 or an HttpError
 */
export async function getPlayer(ctx: RequestContext): Promise<Answer> {
  const id = requirePlayerId(ctx.params.id);
  const { representation, plan } = selectRepresentation(ctx, 'item', PLAYER);
  const { store, pageSize } = ctx.config;
  // With its friends embedded, the player comes with the slice where the store gives it (one read).
  const embed = plan.embed?.includes('friends') === true;
  const slice = embed ? await store.listFriends(id, { offset: 0, limit: pageSize }) : undefined;
  const stored = slice?.owner ?? (embed && !slice ? undefined : await currentPlayer(ctx, id));
  if (!stored) throw new HttpError(404, `There is no player "${id}".`);
  const view = viewOf(ctx, stored, representation, plan, slice);
  return respond(ctx, { representation, plan, validators: view.validators, policy: ctx.config.cache.player, dependsOn: view.dependsOn, build: view.build });
}

/** The route of a player resource; OPTIONS advertises the patch formats when PATCH is served (RFC 5789 section 3.1). */
export const playerRoute: Route = {
  path: '/player/{id}',
  methods: { GET: getPlayer, PUT: putPlayer, PATCH: patchPlayer, DELETE: deletePlayer },
  optionsFields: (config, route) => new Map(route.methods.PATCH ? [['accept-patch', acceptedPatchTypes(config.representations).join(', ')]] : []),
};
