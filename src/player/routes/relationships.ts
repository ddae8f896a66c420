// /player/{id}/relationships/friends: the linkage of a player's friends (JSON:API relationship URL): GET a
// page of it, POST and DELETE members, PATCH (full replacement) refused with 403.
import type { Answer } from '../../core/respond/answer.js';
import { requirePrincipal } from '../../core/service/auth.js';
import { HttpError } from '../../core/http/problem.js';
import { parseContentType, readParsedBody } from '../../core/http/request-body.js';
import { defaultAcceptable } from '../body.js';
import type { Representation } from '../../core/model/representation.js';
import { StoreError, type Expectation } from '../../stores/contract.js';
import { noContent } from '../../core/respond/write-answer.js';
import { preconditionFailed, requireIfMatchWhenConfigured, writePreconditions } from '../../core/respond/write-preconditions.js';
import { selectRepresentation, type RequestContext } from '../../core/service/context.js';
import { FRIENDS, friendsResource, PLAYER } from '../documents.js';
import { loadFriendsPage } from '../friends-page.js';
import { pageEtag, representationKey, sliceKey } from '../../core/respond/etag.js';
import { requirePage, requirePlayerId } from '../params.js';
import { isValidPlayerId } from '../player.js';
import { playerUrl } from '../urls.js';
import { respond } from '../../core/respond/conditional-get.js';
import type { Route } from '../../core/service/router.js';

/**
 * Serves GET/HEAD of one page (`?page=N`) of the linkage of a player's friends: the identifiers of the
 * friends, in the formats that implement `renderLinkage` (JSON:API among the built-ins); any other
 * Accept is 406 listing those formats.
 *
 * @example
 * await getFriendsLinkage(ctx);
 */
export async function getFriendsLinkage(ctx: RequestContext): Promise<Answer> {
  const id = requirePlayerId(ctx.params.id);
  const page = requirePage(ctx.url.searchParams);
  const { representation, plan } = selectRepresentation(ctx, 'page', PLAYER, 'renderLinkage');
  const { pageSize } = ctx.config;
  const { owner, slice, info, lastModified, shown } = await loadFriendsPage(ctx, id, page);
  const key = representationKey(representation.name, plan.variant, ctx.variant, playerUrl(ctx.baseUrl, id));
  const depends = `${key}|${owner.revision}|linkage|${page}|${pageSize}|${sliceKey(slice)}`;
  return respond(ctx, {
    representation,
    plan,
    validators: { etag: pageEtag(depends), lastModified },
    policy: ctx.config.cache.friends,
    dependsOn: shown,
    build: () => friendsResource(ctx.baseUrl, id, slice.items, info, undefined, 'linkage', undefined, ctx.config.store.sharesRecords === true),
    render: (resource, r, p) => (resource.kind === 'item' ? r.render(resource, p) : r.renderLinkage!(resource, p)),
  });
}

/**
 * At most this many members in one relationship document: each is a store read and a write, and a
 * list grows by pages, not by thousands at once (docs/decisions.md).
 */
const MAX_MEMBERS = 100;

/** The formats that read relationship documents, and the media types they read them in. */
function linkageFormats(ctx: RequestContext): { representation: Representation; types: string[] }[] {
  return ctx.config.representations.filter((r) => r.readLinkage).map((r) => ({ representation: r, types: (r.bodyMediaTypes ?? []).map((t) => t.toLowerCase()) }));
}

/** The player ids of the request's relationship document; 415 for a Content-Type no format reads so. */
async function readLinkageBody(ctx: RequestContext): Promise<string[]> {
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
  const ids = found.representation.readLinkage!(value, FRIENDS);
  // RFC 9110 section 15.5.14: more content than the service is willing to process.
  if (ids.length > MAX_MEMBERS) throw new HttpError(413, `A relationship document names at most ${MAX_MEMBERS} players; this one names ${ids.length}.`, { errors: [{ pointer: '/data', detail: `more than ${MAX_MEMBERS} members` }] });
  ids.forEach((friendId, i) => {
    if (!isValidPlayerId(friendId)) throw new HttpError(400, `"${friendId}" is not a player id.`, { errors: [{ pointer: `/data/${i}/id`, detail: 'invalid player id' }] });
  });
  return [...new Set(ids)];
}

/**
 * Adds (POST) or removes (DELETE) the members named in a relationship document (JSON:API 1.1 "Updating
 * To-Many Relationships"): a member already there is not added again, one not there is not removed,
 * and the answer is 204. Every member must be an existing player other than the owner (404, 422), checked
 * before anything is written; If-Match applies to the owner as it was before the change. With a store
 * that changes several members at once (`PlayerStore.changeFriends`: both built-in stores), it is one
 * atomic step; with one that does not, members are changed one at a time, and should a change fail
 * half-way (a player deleted meanwhile), the changes made are undone and the error stands.
 */
async function changeFriends(ctx: RequestContext, mode: 'add' | 'remove'): Promise<Answer> {
  const ownerId = requirePlayerId(ctx.params.id);
  requirePrincipal(ctx);
  requireIfMatchWhenConfigured(ctx);
  const ids = await readLinkageBody(ctx);
  const { store } = ctx.config;
  const conditions = await writePreconditions(ctx, () => store.getPlayer(ownerId), { list: true });
  if (conditions.failed) throw preconditionFailed();
  if (!(await store.getPlayer(ownerId))) throw new HttpError(404, `There is no player "${ownerId}".`);
  if (mode === 'add') {
    const self = ids.indexOf(ownerId);
    if (self >= 0) throw new HttpError(422, 'A player cannot be its own friend.', { errors: [{ pointer: `/data/${self}/id`, detail: 'names the owner of the list' }] });
    const found = await Promise.all(ids.map((friendId) => store.getPlayer(friendId)));
    const missing = ids.filter((_, i) => !found[i]);
    // JSON:API "Updating To-Many Relationships": a related resource that does not exist is 404.
    if (missing.length) throw new HttpError(404, `There is no player ${missing.map((m) => `"${m}"`).join(', ')} to add.`);
  }
  // One atomic step where the store offers it (both built-in stores do).
  if (store.changeFriends) {
    const { changed } = await store.changeFriends(ownerId, mode === 'add' ? { add: ids } : { remove: ids }, { expect: conditions.expect });
    if (changed.length === 0) ctx.unchanged = true;
    return noContent(ctx);
  }
  let expect: Expectation | undefined = conditions.expect;
  const done: string[] = [];
  try {
    for (const friendId of ids) {
      if (mode === 'add') {
        try {
          await store.addFriend(ownerId, friendId, { expect });
        } catch (error) {
          // Already a friend: not added again (and nothing written).
          if (error instanceof StoreError && error.code === 'conflict') continue;
          throw error;
        }
      } else if (!(await store.removeFriend(ownerId, friendId, { expect }))) continue;
      done.push(friendId);
      expect = undefined; // the owner's revision is now ours
    }
  } catch (error) {
    for (const friendId of done.reverse()) {
      await (mode === 'add' ? store.removeFriend(ownerId, friendId) : store.addFriend(ownerId, friendId)).catch(() => undefined);
    }
    throw error;
  }
  return noContent(ctx);
}

/**
 * POST /player/{id}/relationships/friends: adds the players named to the list (JSON:API).
 *
 * @example
 * // body: {"data":[{"type":"players","id":"bob"}]}
 * await postFriendsLinkage(ctx); // 204
 */
export function postFriendsLinkage(ctx: RequestContext): Promise<Answer> {
  return changeFriends(ctx, 'add');
}

/**
 * DELETE /player/{id}/relationships/friends: removes the players named from the list (JSON:API).
 *
 * @example
 * await deleteFriendsLinkage(ctx); // 204
 */
export function deleteFriendsLinkage(ctx: RequestContext): Promise<Answer> {
  return changeFriends(ctx, 'remove');
}

/**
 * PATCH /player/{id}/relationships/friends: a full replacement of the list, which JSON:API lets a server
 * refuse with 403 Forbidden (section "Updating To-Many Relationships"); the body is read first, so a
 * malformed one is still 400 and another media type 415.
 *
 * @example
 * await patchFriendsLinkage(ctx); // throws HttpError 403
 */
export async function patchFriendsLinkage(ctx: RequestContext): Promise<Answer> {
  requirePlayerId(ctx.params.id);
  requirePrincipal(ctx);
  await readLinkageBody(ctx);
  throw new HttpError(403, 'A friends list is not replaced in full; POST or DELETE the members to add or remove.');
}

/** The route of the friends relationship (JSON:API "relationship URL"). */
export const friendsLinkageRoute: Route = {
  path: '/player/{id}/relationships/friends',
  methods: { GET: getFriendsLinkage, POST: postFriendsLinkage, DELETE: deleteFriendsLinkage, PATCH: patchFriendsLinkage },
};
