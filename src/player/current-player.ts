// A player's current record for a request: kept by the answer memo while unchanged, else read from the store.
import type { RequestContext } from '../core/service/context.js';
import type { StoredPlayer } from './player.js';
import type { AnswerMemo } from '../core/respond/answer-memo.js';

/** The memo that keeps records read for this request: none with the memo off, or for a store that shares its records. */
function recordKeeper(ctx: RequestContext): AnswerMemo | undefined {
  const { store, answerMemo } = ctx.config;
  return store.sharesRecords === true ? undefined : answerMemo;
}

/**
 * A player's record kept by the answer memo (`AnswerMemo.player`), while the store has told no change of
 * that player since it was read; undefined when none is kept, or when records are not kept: the memo
 * off, or a store that hands out the same record until a change (`sharesRecords`), whose reads cost
 * nothing. A kept record is as current as the answers the memo keeps: a change made on another
 * instance is heard a moment after it commits. Shared: never changed.
 *
 * @example
 * const kept = keptPlayer(ctx, 'alice');
 */
export function keptPlayer(ctx: RequestContext, playerId: string): StoredPlayer | undefined {
  return recordKeeper(ctx)?.player(playerId);
}

/**
 * The player's record read from the store, kept for the next request (see `keptPlayer`); undefined
 * for a player that does not exist.
 *
 * @example
 * const stored = await readPlayer(ctx, 'alice');
 */
export function readPlayer(ctx: RequestContext, playerId: string): Promise<StoredPlayer | undefined> {
  const memo = recordKeeper(ctx);
  if (memo === undefined) return ctx.config.store.getPlayer(playerId);
  const since = memo.epoch;
  return ctx.config.store.getPlayer(playerId).then((read) => {
    if (read !== undefined) memo.keepPlayer(read, since);
    return read;
  });
}

/**
 * The change notice count to read records after, when records read for this request may be kept (see
 * `keptPlayer`); undefined when they are not.
 *
 * @example
 * const since = keepingSince(ctx);
 */
export function keepingSince(ctx: RequestContext): number | undefined {
  return recordKeeper(ctx)?.epoch;
}

/**
 * Keeps the records a read made after the change notice count `since` (`keepingSince`) returned, such
 * as a page's players and its owner: a later read of one of them is answered from it (`keptPlayer`).
 *
 * @example
 * keepRecords(ctx, [slice.owner, ...slice.items], since);
 */
export function keepRecords(ctx: RequestContext, records: readonly (StoredPlayer | undefined)[], since: number): void {
  const memo = recordKeeper(ctx);
  if (memo === undefined) return;
  for (const record of records) if (record !== undefined) memo.keepPlayer(record, since);
}

/**
 * The player's current record: the kept one (`keptPlayer`), else read from the store (`readPlayer`).
 *
 * @example
 * const stored = await currentPlayer(ctx, 'alice');
 */
export function currentPlayer(ctx: RequestContext, playerId: string): Promise<StoredPlayer | undefined> {
  const kept = keptPlayer(ctx, playerId);
  return kept !== undefined ? Promise.resolve(kept) : readPlayer(ctx, playerId);
}
