// An item's URL, `{prefix}/{id}`: GET (and HEAD), PUT (replace or create), DELETE; PATCH in item-patch.ts.
import type { Answer } from '../respond/answer.js';
import type { ResourceType } from '../model/api.js';
import { requirePrincipal } from '../service/auth.js';
import { selectRepresentation, type RequestContext, type RouteHandler } from '../service/context.js';
import { andThen, type Awaitable } from '../service/awaitable.js';
import type { StoredItem } from '../model/documents.js';
import { HttpError } from '../http/problem.js';
import { respond } from '../respond/conditional-get.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions } from '../respond/write-preconditions.js';
import { readItemBody } from './body.js';
import { compareAndSet } from './compare-and-set.js';
import { idOfReference, itemDataFromDocument } from './input.js';
import { embeddedSlices, itemView, type EmbeddedSlices } from './item-view.js';
import { addressedItem } from './params.js';
import { currentItem } from './records.js';
import { noContent, respondToWrite } from './write-answer.js';
import { storePut } from './store-writes.js';

/**
 * 404 for an item that does not exist.
 *
 * @example
 * throw notFound(type, 'zed'); // There is no player "zed".
 */
export function notFound(type: ResourceType, id: string): HttpError {
  return new HttpError(404, `There is no ${type.title.toLowerCase()} "${id}".`);
}

/**
 * GET/HEAD of an item. The ETag comes from the store revision (and, when the format embeds lists, the
 * revisions of their first pages), so a 304 costs one store read and no rendering.
 *
 * @example
 * await getItem(type)(ctx); // Answer 200, 304, or an HttpError
 */
export function getItem(type: ResourceType): RouteHandler {
  return (ctx) => {
    const id = addressedItem(ctx, type);
    const { representation, plan } = selectRepresentation(ctx, 'item', type);
    const answer = (stored: StoredItem | undefined, slices: EmbeddedSlices | undefined): Answer => {
      if (!stored) throw notFound(type, id);
      const view = itemView(ctx, type, stored, representation, plan, slices);
      return respond(ctx, { representation, plan, validators: view.validators, policy: ctx.config.cache.kinds[type.name]!, dependsOn: view.dependsOn, build: view.build });
    };
    // With lists embedded, the item comes with their first pages where the store gives it (one read each).
    return andThen(embeddedSlices(ctx, type, id, plan), (slices) => {
      const fromSlice = slices?.values().next().value?.owner;
      if (fromSlice !== undefined || slices === null) return answer(fromSlice, slices ?? undefined);
      return andThen(currentItem(ctx, type, id), (stored) => answer(stored, slices));
    });
  };
}

/**
 * PUT of an item: replaces it with the body (any registered format, validated against the type's
 * schema), or creates it there (201 with Location). Needs a principal; If-Match, If-Unmodified-Since
 * and If-None-Match are one compare-and-set.
 *
 * @example
 * await service.fetch(new Request(`${base}/player/zoe`, { method: 'PUT', headers: { Authorization: 'Bearer t',
 *   'Content-Type': 'application/json' }, body: JSON.stringify({ alias: 'zoe' }) })); // 201
 */
export function putItem(type: ResourceType): (ctx: RequestContext) => Awaitable<Answer> {
  return (ctx) => {
    const id = addressedItem(ctx, type);
    requirePrincipal(ctx);
    const { representation, plan } = selectRepresentation(ctx, 'item', type);
    const { store } = ctx.config;
    requireIfMatchWhenConfigured(ctx, { mayCreate: true });
    // Once the body is here, nothing below waits on I/O with a store that reads and writes without it.
    return andThen(readItemBody(ctx, type), ({ input }) => {
      if (input.ref !== undefined && idOfReference(type, input.ref, [ctx.baseUrl, ctx.config.baseUrl], input.pointers?.ref) !== id) {
        const t = type.title.toLowerCase();
        throw new HttpError(422, `The @id of the body names another ${t} than the URL.`, { errors: [{ pointer: input.pointers?.ref ?? '/@id', detail: `must be the URL of this ${t}` }] });
      }
      const written = andThen(writePreconditions(ctx, () => store.get(type, id), { mayCreate: true }), (conditions) => {
        if (conditions.failed) throw preconditionFailed();
        return compareAndSet(ctx, type, id, conditions.expect, (current, expect) => {
          const data = itemDataFromDocument(type, input.fields, { id, baseUrl: ctx.baseUrl, current, pointers: input.pointers });
          return storePut(ctx, type, data, { expect });
        });
      });
      return andThen(written, ({ item, created }) => {
        const location = created ? type.itemUrl(ctx.baseUrl, id) : undefined;
        return respondToWrite(ctx, { status: created ? 201 : 200, type, stored: item, representation, plan, location });
      });
    });
  };
}

/**
 * DELETE of an item: removes it, takes it off every list and deletes its own lists (204; 404 when
 * unknown).
 *
 * @example
 * await service.fetch(new Request(`${base}/player/zoe`, { method: 'DELETE', headers: { Authorization: 'Bearer t' } })); // 204
 */
export function deleteItem(type: ResourceType): (ctx: RequestContext) => Promise<Answer> {
  return async (ctx) => {
    const id = addressedItem(ctx, type);
    requirePrincipal(ctx);
    const { store } = ctx.config;
    const conditions = await writePreconditions(ctx, () => store.get(type, id));
    if (conditions.failed) throw preconditionFailed();
    if (!(await store.delete(type, id, { expect: conditions.expect }))) throw notFound(type, id);
    return noContent(ctx);
  };
}
