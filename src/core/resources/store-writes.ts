// A store's writes as the routes make them: at once with a store that writes without I/O, else awaited.
import type { RequestContext } from '../service/context.js';
import type { Relation, ResourceType } from '../model/api.js';
import type { StoredItem } from '../model/documents.js';
import type { Awaitable } from '../service/awaitable.js';
import type { MemberWrite, WriteOptions } from '../../stores/contract.js';

/**
 * The store's `put`, done at once when the store gives its writes synchronously (`Store.writesNow`):
 * its result, or what it throws, without a promise.
 *
 * @example
 * const { item, created } = await storePut(ctx, type, data, { expect });
 */
export function storePut(ctx: RequestContext, type: ResourceType, data: Readonly<Record<string, unknown>>, options: WriteOptions): Awaitable<{ item: StoredItem; created: boolean }> {
  const now = ctx.config.writesNow;
  return now !== undefined ? now.put(type, data, options) : ctx.config.store.put(type, data, options);
}

/**
 * The store's `createMember`, done at once when the store gives its writes synchronously (`Store.writesNow`).
 *
 * @example
 * const { member } = await storeCreateMember(ctx, friends, 'alice', data, { expect });
 */
export function storeCreateMember(ctx: RequestContext, relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options: WriteOptions): Awaitable<MemberWrite> {
  const now = ctx.config.writesNow;
  return now !== undefined ? now.createMember(relation, ownerId, data, options) : ctx.config.store.createMember(relation, ownerId, data, options);
}
