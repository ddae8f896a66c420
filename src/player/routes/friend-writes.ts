// POST /player/{id}/friends (a new or an existing player becomes a friend) and DELETE /player/{id}/friends/{friendId}.
import { PLAYER } from '../documents.js';
import type { Answer } from '../../core/respond/answer.js';
import { requirePrincipal } from '../../core/service/auth.js';
import { readPlayerBody } from '../body.js';
import { selectRepresentation, type RequestContext } from '../../core/service/context.js';
import { idempotencyKeyOf, requestFingerprint } from '../../core/http/idempotency-key.js';
import { requirePlayerId } from '../params.js';
import { playerUrl } from '../urls.js';
import { playerDataFromDocument, referencedPlayerId } from '../input.js';
import { HttpError } from '../../core/http/problem.js';
import { StoreError, type Expectation, type FriendWrite, type WriteOptions } from '../../stores/contract.js';
import { noContent, respondToWrite } from '../../core/respond/write-answer.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions } from '../../core/respond/write-preconditions.js';

/**
 * A new server-chosen player id: a random UUID (122 random bits, Web Crypto), URL-safe as it stands.
 *
 * @example
 * newPlayerId(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 */
export function newPlayerId(): string {
  return crypto.randomUUID();
}

/**
 * POST /player/{id}/friends: the body (any registered format) describes a new player, created with a
 * server-chosen id and added to the list, or names an existing player (playerId, @id or its URL) to
 * add. 201 Created with Location of the friend and its representation in the negotiated format.
 * `Idempotency-Key` makes a retry answer the first result without adding anything again; the same key
 * with another body is 422. Preconditions compare against the owner (its ETag or a page ETag of the list).
 *
 * @example
 * await service.fetch(new Request(`${base}/player/alice/friends`, { method: 'POST', headers: {
 *   Authorization: 'Bearer t', 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
 *   body: JSON.stringify({ name: 'Zoe Zed', alternateName: 'zoe' }) })); // 201
 */
export async function postFriend(ctx: RequestContext): Promise<Answer> {
  const ownerId = requirePlayerId(ctx.params.id);
  requirePrincipal(ctx);
  const { representation, plan } = selectRepresentation(ctx, 'item', PLAYER);
  const idempotencyKey = idempotencyKeyOf(ctx.head);
  requireIfMatchWhenConfigured(ctx);
  const { input, body } = await readPlayerBody(ctx, 'Accept-Post');
  const { store } = ctx.config;
  const baseUrls = [ctx.baseUrl, ctx.config.baseUrl];
  // A new player's id is the server's choice, or the client's (JSON:API "Client-Generated IDs").
  const friendId = input.newId === undefined ? referencedPlayerId(input, baseUrls) : undefined;
  if (friendId === ownerId) throw new HttpError(422, 'A player cannot be its own friend.', { errors: [{ pointer: input.pointers?.ref ?? '/playerId', detail: 'names the owner of the list' }] });
  const data =
    friendId === undefined ? playerDataFromDocument(input.fields, { playerId: input.newId ?? newPlayerId(), baseUrl: ctx.baseUrl, pointers: input.pointers }) : undefined;

  const conditions = await writePreconditions(ctx, () => store.getPlayer(ownerId), { list: true });
  let expect: Expectation | undefined = conditions.expect;
  if (conditions.failed) {
    if (idempotencyKey === undefined) throw preconditionFailed();
    // A retry of a request that succeeded must replay it even though its preconditions no longer hold:
    // stores replay before checking, and an existing owner never satisfies `exists: false` (412 otherwise).
    expect = { exists: false };
  }
  const options: WriteOptions = { expect };
  if (idempotencyKey !== undefined) {
    options.idempotencyKey = idempotencyKey;
    options.fingerprint = await requestFingerprint(body.contentType.mediaType, body.text);
  }
  let result: FriendWrite;
  try {
    result = data ? await store.createFriend(ownerId, data, options) : await store.addFriend(ownerId, friendId!, options);
  } catch (error) {
    // The store says not-found for the owner and for the referenced player alike.
    if (error instanceof StoreError && error.code === 'not-found' && friendId !== undefined && (await store.getPlayer(ownerId))) {
      throw new HttpError(422, `There is no player "${friendId}" to add.`, { errors: [{ pointer: input.pointers?.ref ?? '/playerId', detail: 'names no existing player' }] });
    }
    throw error;
  }
  const { friend, replayed } = result;
  if (replayed) ctx.unchanged = true;
  const location = playerUrl(ctx.baseUrl, friend.playerId);
  const fields = replayed ? new Map([['idempotent-replayed', 'true']]) : undefined;
  return respondToWrite(ctx, { status: 201, stored: friend, representation, plan, location, fields });
}

/**
 * DELETE /player/{id}/friends/{friendId}: takes a player off the list (the player itself stays).
 * 204; 404 when the owner is unknown or the player is not on the list.
 *
 * @example
 * await service.fetch(new Request(`${base}/player/alice/friends/bob`, { method: 'DELETE', headers: { Authorization: 'Bearer t' } })); // 204
 */
export async function deleteFriend(ctx: RequestContext): Promise<Answer> {
  const ownerId = requirePlayerId(ctx.params.id);
  const friendId = requirePlayerId(ctx.params.friendId, 'friendId');
  requirePrincipal(ctx);
  const { store } = ctx.config;
  const conditions = await writePreconditions(ctx, () => store.getPlayer(ownerId), { list: true });
  if (conditions.failed) throw preconditionFailed();
  const owner = await store.removeFriend(ownerId, friendId, { expect: conditions.expect });
  if (!owner) throw new HttpError(404, `"${friendId}" is not a friend of "${ownerId}".`);
  return noContent(ctx);
}
