// What an item's representation depends on: its validators and its document, for GET and writes.
import type { Validators } from '../http/conditional.js';
import type { RequestContext } from '../service/context.js';
import type { ResourceType } from '../model/api.js';
import { itemDocument, linkagePageDocument, pageDocument, paging, type StoredItem } from '../model/documents.js';
import { TagInput } from '../respond/etag.js';
import type { RenderPlan, Representation } from '../model/representation.js';
import type { Item, Page } from '../model/resource.js';
import { itemKey, type Slice } from '../../stores/contract.js';
import { embeddedSlice } from './page-load.js';
import type { Awaitable } from '../service/awaitable.js';

/** An item ready to be answered: validators computed, the items it shows, the document built only on demand. */
export interface ItemView {
  validators: Validators;
  dependsOn: readonly string[];
  build: () => Item;
}

/** The first page of each to-many relation a plan embeds, by relation name. */
export type EmbeddedSlices = ReadonlyMap<string, Slice>;

/**
 * The embedded slices a plan asks for (`plan.embed`): the first page of each of those relations;
 * undefined for a plan that embeds no list, null when the owner does not exist. At once when every
 * slice is (a store that reads without I/O).
 *
 * @example
 * const slices = await embeddedSlices(ctx, type, 'alice', plan);
 */
export function embeddedSlices(ctx: RequestContext, type: ResourceType, id: string, plan: RenderPlan): Awaitable<Map<string, Slice> | null | undefined> {
  const embed = plan.embed;
  return embed?.length ? slicesFrom(ctx, type, id, embed, 0, undefined) : undefined;
}

/** The slices of `embed[from..]` added to `slices`, waiting only on a slice that is a promise. */
function slicesFrom(ctx: RequestContext, type: ResourceType, id: string, embed: readonly string[], from: number, slices: Map<string, Slice> | undefined): Awaitable<Map<string, Slice> | null | undefined> {
  for (let i = from; i < embed.length; i++) {
    const relation = type.relation(embed[i]!);
    if (!relation || relation.kind !== 'to-many') continue;
    const slice = embeddedSlice(ctx, relation, id);
    const add = (found: Slice | undefined) => (found ? (slices ??= new Map()).set(embed[i]!, found) : null);
    if (slice instanceof Promise) return slice.then((found) => (add(found) === null ? null : slicesFrom(ctx, type, id, embed, i + 1, slices)));
    if (add(slice) === null) return null;
  }
  return slices;
}

/**
 * The view of a stored item in one format, from data already loaded: the ETag from its revision (and,
 * when the format embeds lists, the revisions of their first pages), Last-Modified, the items it shows,
 * and a builder of the document. GET and every write use it, so a write answers the ETag a following
 * GET would.
 *
 * @example
 * const view = itemView(ctx, type, stored, representation, plan, slices);
 * view.validators.etag; // '"17-..."'
 */
export function itemView(ctx: RequestContext, type: ResourceType, stored: StoredItem, representation: Representation, plan: RenderPlan, slices: EmbeddedSlices | undefined): ItemView {
  const id = (stored as unknown as Record<string, string>)[type.idField]!;
  const { pageSize } = ctx.config;
  // Everything the body depends on besides the item's own revision: format, variants, URL and, when
  // the format embeds lists, their first pages (ids and totals; the members' revisions too when it
  // shows the members, not only their ids).
  const tag = new TagInput().addRepresentation(representation.name, plan.variant, ctx.variant, type.itemUrl(ctx.baseUrl, id));
  let lastModified = stored.modifiedAt;
  const shown = [itemKey(type.name, id)];
  if (slices) {
    for (const [name, slice] of slices) {
      const target = type.relation(name)!.target;
      // Shown by ids only: the owner's revision (first in the tag) changes with the list, and a change
      // of a member changes nothing shown (RenderPlan.linkage).
      if (plan.linkage?.includes(name)) {
        tag.add('|').addSliceIds(slice, target.idField);
        continue;
      }
      tag.add('|').addSlice(slice, target.idField);
      for (const p of slice.items) {
        lastModified = Math.max(lastModified, p.modifiedAt);
        shown.push(itemKey(target.name, (p as unknown as Record<string, string>)[target.idField]!));
      }
    }
  }
  return {
    validators: { etag: tag.itemTag(stored.revision), lastModified },
    dependsOn: shown,
    build: () => {
      let relations: Record<string, Page> | undefined;
      if (slices) {
        relations = {};
        const shared = ctx.config.store.sharesRecords === true;
        for (const [name, slice] of slices) {
          const relation = type.relation(name)!;
          const info = paging(1, pageSize, slice.total, slice.items.length);
          // Shown by ids only: the page without the links and operations such a body does not render.
          relations[name] = plan.linkage?.includes(name) ? linkagePageDocument(relation, ctx.baseUrl, id, slice.items, info, shared) : pageDocument(relation, ctx.baseUrl, id, slice.items, info, undefined, 'list', undefined, shared);
        }
      }
      return itemDocument(type, ctx.baseUrl, stored, relations);
    },
  };
}
