// GET/HEAD and PUT /player/{id}/avatar.png: the uploaded PNG, else a redirect to the image URL, else an identicon.
import { Answer, type Fields } from '../../core/respond/answer.js';
import { requirePrincipal } from '../../core/service/auth.js';
import { cachingFields } from '../../core/respond/caching-fields.js';
import { httpDate } from '../../core/http/date.js';
import { evaluatePreconditions, type Validators } from '../../core/http/conditional.js';
import type { RequestContext } from '../../core/service/context.js';
import { identiconEtag, identiconPng } from './identicon.js';
import { addressedItem } from '../../core/resources/params.js';
import type { ResourceType } from '../../core/model/api.js';
import { readPngHeader } from './png.js';
import { HttpError } from '../../core/http/problem.js';
import { parseContentType, readBodyBytes } from '../../core/http/request-body.js';
import { renderedBody } from '../../core/caches/body-cache.js';
import { respondConditionally } from '../../core/respond/conditional-get.js';
import type { Route } from '../../core/service/router.js';
import type { Expectation, StoredMedia } from '../../stores/contract.js';

/** The name an uploaded avatar is kept under beside its player (`Store.putMedia`). */
export const AVATAR_MEDIA = 'avatar';

/**
 * The media type of avatars: the only one served and accepted.
 *
 * @example
 * fetch(avatarUrl, { method: 'PUT', body: png, headers: { 'Content-Type': AVATAR_MEDIA_TYPE } });
 */
export const AVATAR_MEDIA_TYPE = 'image/png';

/**
 * Images are served as what their Content-Type says, never sniffed as something else (an upload is
 * checked for the PNG signature, not decoded whole): WHATWG Fetch, `X-Content-Type-Options`.
 */
const NO_SNIFF: ReadonlyMap<string, string> = new Map([['x-content-type-options', 'nosniff']]);

/**
 * The strong ETag of an uploaded avatar: its store revision (bytes never change within a revision).
 *
 * @example
 * avatarEtag('42'); // '"avatar.42"'
 */
export function avatarEtag(revision: string): string {
  return `"avatar.${revision}"`;
}

/**
 * Serves GET/HEAD of a player's avatar: the uploaded PNG; else 302 to the `image` URL given at
 * creation; else the player's identicon. ETags are known without reading or drawing the image, so a
 * 304 costs two store reads and no PNG work.
 *
 * @example
 * await getAvatar(playerApi.type('player'))(ctx); // 200 image/png, 302, 304 or an HttpError
 */
export function getAvatar(PLAYER: ResourceType): (ctx: RequestContext) => Promise<Answer> {
  return async (ctx) => {
    const id = addressedItem(ctx, PLAYER);
    const { store } = ctx.config;
    const cache = ctx.config.cache.kinds;
    const [player, avatar] = await Promise.all([store.get(PLAYER, id), store.getMedia?.(PLAYER, id, AVATAR_MEDIA)]);
    if (!player) throw new HttpError(404, `There is no player "${id}".`);
    const dependsOn = [ctx.item!];
    const image = (player as { image?: string }).image;
    if (avatar) {
      return respondConditionally(ctx, {
        validators: { etag: avatarEtag(avatar.revision), lastModified: avatar.modifiedAt },
        policy: cache.avatar!,
        vary: [],
        dependsOn,
        render: () => renderedBody(avatar.bytes, avatar.contentType, NO_SNIFF),
      });
    }
    if (image) {
      // RFC 9110 section 15.4.3: a temporary redirect; it lasts as long as the player data (player policy).
      // Date, Expires and Vary (Authorization...) as on every cacheable answer; no validators (no body).
      const fields = cachingFields(ctx, {}, cache.player!, []);
      fields.set('location', image);
      return new Answer(302, fields, null);
    }
    const validators: Validators = { etag: identiconEtag(id), lastModified: player.modifiedAt };
    // Draw only when the answer is a 200: a 304 or 412 never costs the PNG.
    const png = evaluatePreconditions(ctx.head, validators) === 'proceed' ? await identiconPng(id) : new Uint8Array();
    return respondConditionally(ctx, { validators, policy: cache.avatar!, vary: [], dependsOn, render: () => renderedBody(png, AVATAR_MEDIA_TYPE, NO_SNIFF) });
  };
}

function expectation(ctx: RequestContext, current: StoredMedia | undefined, hasImage: boolean): Expectation | undefined {
  const h = ctx.head.headers;
  if (!h.has('if-match') && !h.has('if-none-match') && !h.has('if-unmodified-since')) return undefined;
  const id = ctx.params.id!;
  const validators: Validators = current
    ? { etag: avatarEtag(current.revision), lastModified: current.modifiedAt }
    : hasImage
      ? {}
      : { etag: identiconEtag(id) };
  // RFC 9110 section 13.2.2 on the state now, then a compare-and-set so that a racing upload fails (412).
  if (evaluatePreconditions(ctx.head, validators, current !== undefined) !== 'proceed') {
    throw new HttpError(412, 'A precondition of the request (If-Match, If-None-Match or If-Unmodified-Since) does not hold.');
  }
  return current ? { revision: current.revision } : { exists: false };
}

/**
 * Serves PUT of a player's avatar: an `image/png` body (415 otherwise) of at most `maxBytes` (the `maxAvatarBytes` option)
 * (413), starting with the PNG signature and a valid IHDR (400). Needs credentials (401). If-Match and
 * If-None-Match become a compare-and-set on the avatar revision (412). 201 for the first upload, 200
 * after, with the new ETag.
 *
 * @example
 * await putAvatar(playerApi.type('player'), 1024 * 1024)(ctx); // 201 Created, Location and ETag
 */
export function putAvatar(PLAYER: ResourceType, maxBytes: number): (ctx: RequestContext) => Promise<Answer> {
  return async (ctx) => {
    const id = addressedItem(ctx, PLAYER);
    requirePrincipal(ctx);
    if (parseContentType(ctx.head.headers.get('content-type'))?.mediaType !== AVATAR_MEDIA_TYPE) {
      // RFC 9110 section 12.5.1: Accept in a 415 names the media types the resource takes.
      throw new HttpError(415, `An avatar must be sent as ${AVATAR_MEDIA_TYPE}.`, { headers: { Accept: AVATAR_MEDIA_TYPE } });
    }
    const bytes = await readBodyBytes(ctx.bodySource, maxBytes);
    const header = readPngHeader(bytes);
    if ('error' in header) throw new HttpError(400, `The body is not a PNG image: ${header.error}.`);
    const { store } = ctx.config;
    if (!store.getMedia || !store.putMedia) throw new HttpError(405, 'This store keeps no avatars.', { headers: { Allow: 'GET, HEAD, OPTIONS' } });
    const [player, current] = await Promise.all([store.get(PLAYER, id), store.getMedia(PLAYER, id, AVATAR_MEDIA)]);
    if (!player) throw new HttpError(404, `There is no player "${id}".`);
    const expect = expectation(ctx, current, (player as { image?: string }).image !== undefined);
    const saved = await store.putMedia(PLAYER, id, AVATAR_MEDIA, bytes, AVATAR_MEDIA_TYPE, expect ? { expect } : {});
    const fields: Fields = new Map([
      ['etag', avatarEtag(saved.revision)],
      ['last-modified', httpDate(saved.modifiedAt)],
      ['cache-control', 'no-store'],
    ]);
    if (current) return new Answer(200, fields, null);
    fields.set('location', `${PLAYER.itemUrl(ctx.baseUrl, id)}/avatar.png`);
    return new Answer(201, fields, null);
  };
}

/**
 * The route of a player's avatar image; uploads of at most `maxBytes`.
 *
 * @example
 * avatarRoute(playerApi.type('player'), 1024 * 1024).path; // '/player/{id}/avatar.png'
 */
export function avatarRoute(player: ResourceType, maxBytes: number): Route {
  return { path: `${player.path}/avatar.png`, methods: { GET: getAvatar(player), PUT: putAvatar(player, maxBytes) } };
}
