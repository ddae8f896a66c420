// A relation's JSON:API relationship URL, `{item}/relationships/{name}`. To-many: GET a page of its
// linkage, POST and DELETE members, PATCH (full replacement) refused with 403. To-one: GET its linkage,
// PATCH to set or clear it.
import type { Answer } from '../respond/answer.js';
import type { Relation } from '../model/api.js';
import { itemDocument, pageDocument, storedValue } from '../model/documents.js';
import type { Representation } from '../model/representation.js';
import { requirePrincipal } from '../service/auth.js';
import { selectRepresentation, type RequestContext } from '../service/context.js';
import { HttpError } from '../http/problem.js';
import { parseContentType, readParsedBody } from '../http/request-body.js';
import { respond } from '../respond/conditional-get.js';
import { TagInput } from '../respond/etag.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions } from '../respond/write-preconditions.js';
import { StoreError, itemKey, type Expectation } from '../../stores/contract.js';
import { defaultAcceptable } from './body.js';
import { compareAndSet } from './compare-and-set.js';
import { notFound } from './item-routes.js';
import { loadPage } from './page-load.js';
import { addressedItem, requirePage } from './params.js';
import { currentItem } from './records.js';
import { isValidId } from './validation.js';
import { noContent } from './write-answer.js';

/**
 * GET/HEAD of one page (`?page=N`) of the linkage of a to-many relation: the identifiers of its
 * members, in the formats that implement `renderLinkage` (JSON:API among the built-ins); any other
 * Accept is 406 listing those formats. Of a to-one relation: the identifier of the item it names.
 *
 * @example
 * await getLinkage(friends)(ctx);
 */
export function getLinkage(relation: Relation): (ctx: RequestContext) => Promise<Answer> {
  const owner = relation.owner;
  return async (ctx) => {
    const id = addressedItem(ctx, owner);
    if (relation.kind === 'to-one') {
      const { representation, plan } = selectRepresentation(ctx, 'item', owner, 'renderLinkage');
      const stored = await currentItem(ctx, owner, id);
      if (!stored) throw notFound(owner, id);
      const tag = new TagInput().addRepresentation(representation.name, plan.variant, ctx.variant, owner.itemUrl(ctx.baseUrl, id)).add(`|linkage|${relation.name}`);
      return respond(ctx, {
        representation,
        plan,
        validators: { etag: tag.itemTag(stored.revision), lastModified: stored.modifiedAt },
        policy: ctx.config.cache.kinds[owner.name]!,
        dependsOn: [itemKey(owner.name, id)],
        build: () => itemDocument(owner, ctx.baseUrl, stored),
        render: (resource, r, p) => r.renderLinkage!(resource, p, relation),
      });
    }
    const page = requirePage(ctx.target);
    const { representation, plan } = selectRepresentation(ctx, 'page', relation.target, 'renderLinkage');
    const { pageSize } = ctx.config;
    const { owner: stored, slice, info, lastModified, shown, shared } = await loadPage(ctx, relation, id, page);
    const tag = new TagInput()
      .addRepresentation(representation.name, plan.variant, ctx.variant, owner.itemUrl(ctx.baseUrl, id))
      .add(`|${stored.revision}|linkage|${page}|${pageSize}|`)
      .addSlice(slice, relation.target.idField);
    return respond(ctx, {
      representation,
      plan,
      validators: { etag: tag.pageTag(), lastModified },
      policy: ctx.config.cache.kinds[relation.name]!,
      dependsOn: shown,
      build: () => pageDocument(relation, ctx.baseUrl, id, slice.items, info, undefined, 'linkage', undefined, shared),
      render: (resource, r, p) => r.renderLinkage!(resource, p),
    });
  };
}

/**
 * At most this many members in one relationship document: each is a store read and a write, and a
 * list grows by pages, not by thousands at once (docs/decisions.md, "Relationship writes").
 */
const MAX_MEMBERS = 100;

/** The formats that read relationship documents, and the media types they read them in. */
function linkageFormats(ctx: RequestContext): { representation: Representation; types: string[] }[] {
  return ctx.config.representations.filter((r) => r.readLinkage).map((r) => ({ representation: r, types: (r.bodyMediaTypes ?? []).map((t) => t.toLowerCase()) }));
}

/** The ids of the request's relationship document (null: a to-one relation cleared); 415 for a Content-Type no format reads so. */
async function readLinkageBody(ctx: RequestContext, relation: Relation): Promise<string[] | null> {
  const raw = ctx.head.headers.get('content-type');
  const contentType = parseContentType(raw);
  const formats = linkageFormats(ctx);
  const found = contentType && formats.find((f) => f.types.includes(contentType.mediaType));
  if (!contentType || !found || !(found.representation.acceptable ?? defaultAcceptable)(contentType.params)) {
    const accepted = [...new Set(formats.flatMap((f) => f.types))];
    const detail = raw === null ? 'The request has no Content-Type.' : `Content-Type "${raw}" is not a relationship document read here.`;
    throw new HttpError(415, `${detail} Accepted: ${accepted.join(', ')}.`, { extensions: { accepted } });
  }
  const { value } = await readParsedBody(ctx.bodySource, contentType, { maxBytes: ctx.config.maxBodyBytes, maxDepth: ctx.config.maxBodyDepth });
  const ids = found.representation.readLinkage!(value, relation);
  if (ids === null) return null;
  const target = relation.target;
  const t = target.title.toLowerCase();
  // RFC 9110 section 15.5.14: more content than the service is willing to process.
  if (ids.length > MAX_MEMBERS) throw new HttpError(413, `A relationship document names at most ${MAX_MEMBERS} ${target.plural}; this one names ${ids.length}.`, { errors: [{ pointer: '/data', detail: `more than ${MAX_MEMBERS} members` }] });
  const pointer = (i: number) => (relation.kind === 'to-one' ? '/data/id' : `/data/${i}/id`);
  ids.forEach((memberId, i) => {
    if (!isValidId(target, memberId)) throw new HttpError(400, `"${memberId}" is not a ${t} id.`, { errors: [{ pointer: pointer(i), detail: `invalid ${t} id` }] });
  });
  return [...new Set(ids)];
}

/**
 * Adds (POST) or removes (DELETE) the members named in a relationship document (JSON:API 1.1 "Updating
 * To-Many Relationships"): a member already there is not added again, one not there is not removed,
 * and the answer is 204. Every member must be an existing item (404), not the owner itself (422),
 * checked before anything is written; If-Match applies to the owner as it was before the change. With a
 * store that changes several members at once (`Store.changeMembers`: both built-in stores), it is one
 * atomic step; with one that does not, members are changed one at a time, and should a change fail
 * half-way (an item deleted meanwhile), the changes made are undone and the error stands.
 */
function changeMembers(relation: Relation, mode: 'add' | 'remove'): (ctx: RequestContext) => Promise<Answer> {
  const { owner, target } = relation;
  return async (ctx) => {
    const ownerId = addressedItem(ctx, owner);
    requirePrincipal(ctx);
    requireIfMatchWhenConfigured(ctx);
    const ids = (await readLinkageBody(ctx, relation)) ?? [];
    const { store } = ctx.config;
    const conditions = await writePreconditions(ctx, () => store.get(owner, ownerId), { list: true });
    if (conditions.failed) throw preconditionFailed();
    if (!(await store.get(owner, ownerId))) throw notFound(owner, ownerId);
    if (mode === 'add') {
      const self = owner === target ? ids.indexOf(ownerId) : -1;
      if (self >= 0) throw new HttpError(422, `A ${owner.title.toLowerCase()} cannot be its own ${relation.member}.`, { errors: [{ pointer: `/data/${self}/id`, detail: 'names the owner of the list' }] });
      const found = await Promise.all(ids.map((memberId) => store.get(target, memberId)));
      const missing = ids.filter((_, i) => !found[i]);
      // JSON:API "Updating To-Many Relationships": a related resource that does not exist is 404.
      if (missing.length) throw new HttpError(404, `There is no ${target.title.toLowerCase()} ${missing.map((m) => `"${m}"`).join(', ')} to add.`);
    }
    // One atomic step where the store offers it (both built-in stores do).
    if (store.changeMembers) {
      const { changed } = await store.changeMembers(relation, ownerId, mode === 'add' ? { add: ids } : { remove: ids }, { expect: conditions.expect });
      if (changed.length === 0) ctx.unchanged = true;
      return noContent(ctx);
    }
    let expect: Expectation | undefined = conditions.expect;
    const done: string[] = [];
    try {
      for (const memberId of ids) {
        if (mode === 'add') {
          try {
            await store.addMember(relation, ownerId, memberId, { expect });
          } catch (error) {
            // Already a member: not added again (and nothing written).
            if (error instanceof StoreError && error.code === 'conflict') continue;
            throw error;
          }
        } else if (!(await store.removeMember(relation, ownerId, memberId, { expect }))) continue;
        done.push(memberId);
        expect = undefined; // the owner's revision is now ours
      }
    } catch (error) {
      for (const memberId of done.reverse()) {
        await (mode === 'add' ? store.removeMember(relation, ownerId, memberId) : store.addMember(relation, ownerId, memberId)).catch(() => undefined);
      }
      throw error;
    }
    if (done.length === 0) ctx.unchanged = true;
    return noContent(ctx);
  };
}

/**
 * POST to a to-many relationship URL: adds the members named (JSON:API).
 *
 * @example
 * // body: {"data":[{"type":"players","id":"bob"}]}
 * await postLinkage(friends)(ctx); // 204
 */
export function postLinkage(relation: Relation): (ctx: RequestContext) => Promise<Answer> {
  return changeMembers(relation, 'add');
}

/**
 * DELETE at a to-many relationship URL: removes the members named (JSON:API).
 *
 * @example
 * await deleteLinkage(friends)(ctx); // 204
 */
export function deleteLinkage(relation: Relation): (ctx: RequestContext) => Promise<Answer> {
  return changeMembers(relation, 'remove');
}

/**
 * PATCH of a relationship URL. To-many: a full replacement of the list, which JSON:API lets a server
 * refuse with 403 Forbidden (section "Updating To-Many Relationships"); the body is read first, so a
 * malformed one is still 400 and another media type 415. To-one (section "Updating To-One
 * Relationships"): sets the item the relation names (`{"data": {"type", "id"}}`, an existing item, else
 * 404) or clears it (`{"data": null}`), as a compare-and-set on the owner; 204.
 *
 * @example
 * await patchLinkage(captain)(ctx); // 204
 */
export function patchLinkage(relation: Relation): (ctx: RequestContext) => Promise<Answer> {
  const { owner, target } = relation;
  return async (ctx) => {
    const ownerId = addressedItem(ctx, owner);
    requirePrincipal(ctx);
    if (relation.kind === 'to-many') {
      await readLinkageBody(ctx, relation);
      throw new HttpError(403, `A ${relation.member} list is not replaced in full; POST or DELETE the members to add or remove.`);
    }
    requireIfMatchWhenConfigured(ctx);
    const ids = await readLinkageBody(ctx, relation);
    const targetId = ids?.[0];
    const { store } = ctx.config;
    if (targetId !== undefined && !(await store.get(target, targetId))) throw new HttpError(404, `There is no ${target.title.toLowerCase()} "${targetId}".`);
    const conditions = await writePreconditions(ctx, () => store.get(owner, ownerId));
    if (conditions.failed) throw preconditionFailed();
    const field = relation.field!;
    await compareAndSet(ctx, owner, ownerId, conditions.expect, async (current, expect, verified) => {
      if (!current) throw notFound(owner, ownerId);
      if (storedValue(current, field) === targetId || (targetId === undefined && storedValue(current, field) === undefined)) {
        if (!verified) throw new StoreError('revision-mismatch', 'the kept record is checked against the store');
        ctx.unchanged = true;
        return current;
      }
      const data: Record<string, unknown> = { ...(current as unknown as Record<string, unknown>) };
      delete data.revision;
      delete data.modifiedAt;
      if (targetId === undefined) delete data[field];
      else data[field] = targetId;
      return (await store.put(owner, data, { expect })).item;
    });
    return noContent(ctx);
  };
}
