// PUT /player/{id} (replace or create) and DELETE /player/{id}.
import { PLAYER } from '../documents.js';
import type { Answer } from '../../core/respond/answer.js';
import { requirePrincipal } from '../../core/service/auth.js';
import { readPlayerBody } from '../body.js';
import { selectRepresentation, type RequestContext } from '../../core/service/context.js';
import { requirePlayerId } from '../params.js';
import { type StoredPlayer } from '../player.js';
import { playerUrl } from '../urls.js';
import { keptPlayer, readPlayer } from '../current-player.js';
import { playerDataFromDocument, playerIdOfReference } from '../input.js';
import { HttpError } from '../../core/http/problem.js';
import { StoreError, type Expectation } from '../../stores/contract.js';
import { noContent, respondToWrite } from '../../core/respond/write-answer.js';
import { WRITE_CONTENTION } from '../../core/service/errors.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions } from '../../core/respond/write-preconditions.js';

/**
 * How long a read-modify-write keeps trying while other writers keep changing the player between its
 * read and its write; past it the answer is 503 (write contention) with Retry-After.
 */
export const CONTENTION_DEADLINE_MS = 5000;

/**
 * Whether the client's own expectation still holds for the current state.
 *
 * @example
 * expectationHolds({ exists: true }, stored); // true
 */
export function expectationHolds(expect: Expectation | undefined, current: StoredPlayer | undefined): boolean {
  if (!expect) return true;
  if (expect.exists !== undefined && expect.exists !== (current !== undefined)) return false;
  return expect.revision === undefined || current?.revision === expect.revision;
}

/**
 * Runs a read-modify-write of one player as a compare-and-set: `write` gets the current state and the
 * expectation to pass to the store (the client's preconditions, narrowed to the revision just read).
 * When another writer got in between, it reads again: a client precondition that no longer holds is
 * 412, and otherwise (a write without preconditions, or one whose preconditions still hold) it tries
 * again after a short random wait, so an unconditional write is never 412. Past
 * CONTENTION_DEADLINE_MS of lost races the answer is 503 with Retry-After. Nothing is written by a
 * failed attempt. The first attempt may start from a record the answer memo kept (`keptPlayer`), which
 * may be older than the store when another instance has just changed the player: `verified` is then
 * false, and a `write` that would write nothing (so no compare-and-set would check it) throws
 * StoreError 'revision-mismatch' to have the store read first.
 *
 * @example
 * const { player } = await compareAndSet(ctx, id, expect, (current, cas) => store.putPlayer(data(current), { expect: cas }));
 */
export async function compareAndSet<T>(
  ctx: RequestContext,
  playerId: string,
  clientExpect: Expectation | undefined,
  write: (current: StoredPlayer | undefined, expect: Expectation, verified: boolean) => Promise<T>,
): Promise<T> {
  const { store } = ctx.config;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    // The first attempt may start from a kept record (keptPlayer) the client's precondition holds for:
    // the store's compare-and-set still checks its revision. A kept record the precondition fails for
    // may be older than the client's ETag: the store decides.
    const kept = attempt === 1 ? keptPlayer(ctx, playerId) : undefined;
    const fromKept = kept !== undefined && expectationHolds(clientExpect, kept);
    const current = fromKept ? kept : await readPlayer(ctx, playerId);
    if (!expectationHolds(clientExpect, current)) throw preconditionFailed();
    const expect: Expectation = current ? { revision: current.revision } : { exists: false };
    try {
      return await write(current, expect, !fromKept);
    } catch (error) {
      if (!(error instanceof StoreError) || error.code !== 'revision-mismatch') throw error;
    }
    // The kept record was older than the store: read it now (no other writer has been raced yet).
    if (fromKept) continue;
    if (Date.now() - started > CONTENTION_DEADLINE_MS) {
      throw new HttpError(503, `Other writers kept changing player "${playerId}"; nothing was written. Try again.`, {
        headers: { 'Retry-After': '1' },
        type: WRITE_CONTENTION,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
  }
}

/**
 * PUT /player/{id}: replaces the player with the body (any registered format, validated against the
 * player schema), or creates it there (201 with Location). Needs a principal; honours If-Match,
 * If-Unmodified-Since and If-None-Match as one compare-and-set.
 *
 * @example
 * await service.fetch(new Request(`${base}/player/zoe`, { method: 'PUT', headers: { Authorization: 'Bearer t',
 *   'Content-Type': 'application/json' }, body: JSON.stringify({ alias: 'zoe' }) })); // 201
 */
export async function putPlayer(ctx: RequestContext): Promise<Answer> {
  const id = requirePlayerId(ctx.params.id);
  requirePrincipal(ctx);
  const { representation, plan } = selectRepresentation(ctx, 'item', PLAYER);
  const { store } = ctx.config;
  requireIfMatchWhenConfigured(ctx, { mayCreate: true });
  const { input } = await readPlayerBody(ctx);
  if (input.ref !== undefined && playerIdOfReference(input.ref, [ctx.baseUrl, ctx.config.baseUrl], input.pointers?.ref) !== id) {
    throw new HttpError(422, 'The @id of the body names another player than the URL.', { errors: [{ pointer: input.pointers?.ref ?? '/@id', detail: 'must be the URL of this player' }] });
  }
  const conditions = await writePreconditions(ctx, () => store.getPlayer(id), { mayCreate: true });
  if (conditions.failed) throw preconditionFailed();
  const { player, created } = await compareAndSet(ctx, id, conditions.expect, (current, expect) => {
    const data = playerDataFromDocument(input.fields, { playerId: id, baseUrl: ctx.baseUrl, current, pointers: input.pointers });
    return store.putPlayer(data, { expect });
  });
  const location = created ? playerUrl(ctx.baseUrl, id) : undefined;
  return respondToWrite(ctx, { status: created ? 201 : 200, stored: player, representation, plan, location });
}

/**
 * DELETE /player/{id}: removes the player and takes it off every friend list (204; 404 when unknown).
 *
 * @example
 * await service.fetch(new Request(`${base}/player/zoe`, { method: 'DELETE', headers: { Authorization: 'Bearer t' } })); // 204
 */
export async function deletePlayer(ctx: RequestContext): Promise<Answer> {
  const id = requirePlayerId(ctx.params.id);
  requirePrincipal(ctx);
  const { store } = ctx.config;
  const conditions = await writePreconditions(ctx, () => store.getPlayer(id));
  if (conditions.failed) throw preconditionFailed();
  const deleted = await store.deletePlayer(id, { expect: conditions.expect });
  if (!deleted) throw new HttpError(404, `There is no player "${id}".`);
  return noContent(ctx);
}
