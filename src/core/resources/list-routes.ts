// A to-many relation's URLs: `{item}/{path}` (GET pages, POST a member), `{item}/{path}/search` (GET),
// `{item}/{path}/{memberId}` (DELETE).
import type { Answer } from '../respond/answer.js';
import type { Relation } from '../model/api.js';
import { pageDocument, storedValue } from '../model/documents.js';
import { requirePrincipal } from '../service/auth.js';
import { selectRepresentation, type RequestContext, type RouteHandler } from '../service/context.js';
import { andThen, type Awaitable } from '../service/awaitable.js';
import { idempotencyKeyOf, requestFingerprint } from '../http/idempotency-key.js';
import { HttpError } from '../http/problem.js';
import { respond } from '../respond/conditional-get.js';
import { TagInput } from '../respond/etag.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions } from '../respond/write-preconditions.js';
import { StoreError, type Expectation, type MemberWrite, type WriteOptions } from '../../stores/contract.js';
import { readItemBody } from './body.js';
import { itemDataFromDocument, referencedId } from './input.js';
import { notFound } from './item-routes.js';
import { loadPage } from './page-load.js';
import { addressedItem, requireId, requirePage, requireSearch } from './params.js';
import { noContent, respondToWrite } from './write-answer.js';
import { storeCreateMember } from './store-writes.js';

/**
 * A new server-chosen id: a random UUID (122 random bits, Web Crypto), URL-safe as it stands.
 *
 * @example
 * newItemId(); // '3b241101-e2bb-4255-8caf-4136c566a962'
 */
export function newItemId(): string {
  return crypto.randomUUID();
}

/**
 * GET/HEAD of a page of a list (`?page=N`, 1-based), or, with `searching`, of the members matching
 * `?search=TEXT` (the relation's search fields, case-insensitive). A format may name the search text
 * its own way (JSON:API: `filter[search]`), also on the list itself.
 *
 * @example
 * await getPage(friends, false)(ctx);
 */
export function getPage(relation: Relation, searching: boolean): RouteHandler {
  const owner = relation.owner;
  return (ctx) => {
    const id = addressedItem(ctx, owner);
    const params = ctx.target;
    const { representation, plan } = selectRepresentation(ctx, 'page', relation.target);
    const parameter = representation.searchParameter ?? 'search';
    const search = searching || (parameter !== 'search' && params.has(parameter)) ? requireSearch(params, parameter) : undefined;
    const page = requirePage(params);
    const { pageSize, cache } = ctx.config;
    return andThen(loadPage(ctx, relation, id, page, search), ({ owner: stored, slice, info, lastModified, shown, shared }) => {
      // Everything the body depends on: format, variants, the owner's URL (base URL, prefix, proxy host) and
      // revision (it changes with the list), the list, the search text, page and page size, the total, and
      // each member on the page by id and revision. Nothing here needs the body to be built.
      // (The list's name and 'search' tell a list from its search; two relations are two URLs, and an
      // ETag is unique among the representations of one URL, RFC 9110 section 8.8.3.)
      const kind = search === undefined ? relation.name : 'search';
      const tag = new TagInput()
        .addRepresentation(representation.name, plan.variant, ctx.variant, owner.itemUrl(ctx.baseUrl, id))
        .add(`|${stored.revision}|${kind}|${search === undefined ? '' : encodeURIComponent(search)}|${page}|${pageSize}|`)
        .addSlice(slice, relation.target.idField);
      return respond(ctx, {
        representation,
        plan,
        validators: { etag: tag.pageTag(stored.revision), lastModified },
        policy: search === undefined ? cache.kinds[relation.name]! : cache.kinds.search!,
        // A search page may change with any member of the list (one may start or stop matching).
        dependsOn: search === undefined ? shown : 'all',
        ...(search === undefined ? {} : { tags: { items: shown, search: true } }),
        build: () => pageDocument(relation, ctx.baseUrl, id, slice.items, info, search, 'list', parameter, shared),
      });
    });
  };
}

/**
 * POST to a list: the body (any registered format) describes a new member, created with a
 * server-chosen id (or the client's, JSON:API "Client-Generated IDs") and added to the list, or names
 * an existing one (its id, @id or URL) to add, as the relation's `add` allows. 201 Created with
 * Location of the member and its representation in the negotiated format. `Idempotency-Key` makes a
 * retry answer the first result without adding anything again; the same key with another body is 422.
 * Preconditions compare against the owner (its ETag or a page ETag of the list).
 *
 * @example
 * await service.fetch(new Request(`${base}/player/alice/friends`, { method: 'POST', headers: {
 *   Authorization: 'Bearer t', 'Content-Type': 'application/json', 'Idempotency-Key': 'k-1' },
 *   body: JSON.stringify({ name: 'Zoe Zed', alternateName: 'zoe' }) })); // 201
 */
export function postMember(relation: Relation): (ctx: RequestContext) => Awaitable<Answer> {
  const { owner, target } = relation;
  const add = relation.add!;
  return (ctx) => {
    const ownerId = addressedItem(ctx, owner);
    requirePrincipal(ctx);
    const { representation, plan } = selectRepresentation(ctx, 'item', target);
    const idempotencyKey = idempotencyKeyOf(ctx.head);
    requireIfMatchWhenConfigured(ctx);
    // Once the body is here, nothing below waits on I/O with a store that reads and writes without it
    // (but for an Idempotency-Key's fingerprint, a digest).
    return andThen(readItemBody(ctx, target, 'Accept-Post'), ({ input, body }) => {
      const baseUrls = [ctx.baseUrl, ctx.config.baseUrl];
      // A new member's id is the server's choice, or the client's (JSON:API "Client-Generated IDs").
      const memberId = input.newId === undefined ? referencedId(target, input, baseUrls) : undefined;
      const refPointer = input.pointers?.ref ?? `/${target.idField}`;
      if (memberId !== undefined && add.reference === false) {
        throw new HttpError(422, `Only new ${target.plural} are added here; leave ${target.idField} and @id out.`, { errors: [{ pointer: refPointer, detail: 'not allowed here' }] });
      }
      if (memberId === undefined && add.create === false) {
        throw new HttpError(422, `Only existing ${target.plural} are added here: name one by ${target.idField} or @id.`, { errors: [{ pointer: refPointer, detail: 'is required' }] });
      }
      if (owner === target && memberId === ownerId) {
        throw new HttpError(422, `A ${owner.title.toLowerCase()} cannot be its own ${relation.member}.`, { errors: [{ pointer: refPointer, detail: 'names the owner of the list' }] });
      }
      const data = memberId === undefined ? itemDataFromDocument(target, input.fields, { id: input.newId ?? newItemId(), baseUrl: ctx.baseUrl, pointers: input.pointers }) : undefined;
      const member: MemberToAdd = { relation, ownerId, data, memberId, refPointer };
      const written = andThen(writePreconditions(ctx, () => ctx.config.store.get(owner, ownerId), { list: true }), (conditions) => {
        let expect: Expectation | undefined = conditions.expect;
        if (conditions.failed) {
          if (idempotencyKey === undefined) throw preconditionFailed();
          // A retry of a request that succeeded must replay it even though its preconditions no longer hold:
          // stores replay before checking, and an existing owner never satisfies `exists: false` (412 otherwise).
          expect = { exists: false };
        }
        const options: WriteOptions = { expect };
        if (idempotencyKey === undefined) return addMember(ctx, member, options);
        options.idempotencyKey = idempotencyKey;
        return requestFingerprint(body.contentType.mediaType, body.text).then((fingerprint) => addMember(ctx, member, { ...options, fingerprint }));
      });
      return andThen(written, ({ member: added, replayed }) => {
        if (replayed) ctx.unchanged = true;
        const location = target.itemUrl(ctx.baseUrl, storedValue(added, target.idField) as string);
        const fields = replayed ? new Map([['idempotent-replayed', 'true']]) : undefined;
        return respondToWrite(ctx, { status: 201, type: target, stored: added, representation, plan, location, fields });
      });
    });
  };
}

/** The member a POST adds: a new item (`data`) or an existing one (`memberId`, named at `refPointer` in the body). */
interface MemberToAdd {
  relation: Relation;
  ownerId: string;
  data: Record<string, unknown> | undefined;
  memberId: string | undefined;
  refPointer: string;
}

/** Writes the member (at once with a store that writes without I/O); 422 when the existing item it names is not there. */
function addMember(ctx: RequestContext, m: MemberToAdd, options: WriteOptions): Awaitable<MemberWrite> {
  const { store } = ctx.config;
  const { relation, ownerId, memberId } = m;
  const failed = (error: unknown): Awaitable<MemberWrite> => {
    // The store says not-found for the owner and for the referenced member alike.
    if (!(error instanceof StoreError) || error.code !== 'not-found' || memberId === undefined) throw error;
    return store.get(relation.owner, ownerId).then((found) => {
      const target = relation.target.title.toLowerCase();
      if (found) throw new HttpError(422, `There is no ${target} "${memberId}" to add.`, { errors: [{ pointer: m.refPointer, detail: `names no existing ${target}` }] });
      throw error;
    });
  };
  let written: Awaitable<MemberWrite>;
  try {
    written = m.data ? storeCreateMember(ctx, relation, ownerId, m.data, options) : store.addMember(relation, ownerId, memberId!, options);
  } catch (error) {
    return failed(error);
  }
  return written instanceof Promise ? written.catch(failed) : written;
}

/**
 * DELETE of a list's member: takes it off the list (the item itself stays). 204; 404 when the owner
 * is unknown or the item is not on the list.
 *
 * @example
 * await service.fetch(new Request(`${base}/player/alice/friends/bob`, { method: 'DELETE', headers: { Authorization: 'Bearer t' } })); // 204
 */
export function deleteMember(relation: Relation, parameter: string): (ctx: RequestContext) => Promise<Answer> {
  const { owner, target } = relation;
  return async (ctx) => {
    const ownerId = addressedItem(ctx, owner);
    const memberId = requireId(target, ctx.params[parameter], parameter);
    requirePrincipal(ctx);
    const { store } = ctx.config;
    const conditions = await writePreconditions(ctx, () => store.get(owner, ownerId), { list: true });
    if (conditions.failed) throw preconditionFailed();
    let removed;
    try {
      removed = await store.removeMember(relation, ownerId, memberId, { expect: conditions.expect });
    } catch (error) {
      if (error instanceof StoreError && error.code === 'not-found') throw notFound(owner, ownerId);
      throw error;
    }
    if (!removed) throw new HttpError(404, `"${memberId}" is not a ${relation.member} of "${ownerId}".`);
    return noContent(ctx);
  };
}
