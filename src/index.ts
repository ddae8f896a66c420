// The public API of player-hypermedia.
export { createPlayerService } from './create-service.js';
export { createPlayerServiceCore, type PlayerService } from './service/service.js';
export { toHttpError } from './service/errors.js';
export type { PlayerServiceOptions, ServiceConfig } from './service/options.js';
export { MemoryPlayerStore } from './stores/memory.js';
export {
  StoreError,
  type PlayerStore,
  type PageRequest,
  type PlayerSlice,
  type Expectation,
  type WriteOptions,
  type FriendWrite,
  type StoredAvatar,
  type StoreErrorCode,
} from './stores/contract.js';
export {
  isValidPlayerId,
  toPlayer,
  toAlternateFields,
  PLAYER_ID_PATTERN,
  type Player,
  type PlayerData,
  type StoredPlayer,
  type AlternatePlayerFields,
} from './player/player.js';
export { playerUrl, avatarUrl, friendsUrl, searchUrl, linkageUrl } from './player/urls.js';
export { findLink, type Resource, type ResourceKind, type PlayerResource, type FriendsResource, type Link, type Operation, type OperationField, type Paging } from './model/resource.js';
export { playerResource, friendsResource, friendOperations, paging } from './player/documents.js';
export type { Representation, RenderPlan, PlayerInput } from './model/representation.js';
export { HttpError, PROBLEM_MEDIA_TYPE, STATUS_TITLES, type ProblemDetails, type FieldError } from './http/problem.js';
export { createNegotiation, parseAccept, chooseRepresentation, type Negotiation, type MediaRange } from './http/negotiate.js';
export { evaluatePreconditions, parseEntityTags, weakMatch, strongMatch, type Validators, type PreconditionOutcome } from './http/conditional.js';
export {
  cacheControl,
  authorizedPolicy,
  resolveCacheOptions,
  DEFAULT_CACHE_POLICIES,
  type CachePolicy,
  type CachePolicies,
  type CacheOptions,
  type CacheConfig,
  type AuthorizedCaching,
} from './respond/cache-policy.js';
export * from './formats/index.js';
export { render, renderAll, findRepresentation, type RenderInput, type RenderOptions, type RenderedDocument } from './render/render.js';
export { resourceFromJson, type PlayerJson, type FriendsPageJson } from './render/input.js';
export { demoResources, type DemoResources } from './demo/demo-resources.js';
export { seedDemoData, DEMO_PLAYER_ID } from './demo/demo-data.js';
export { bearerTokens, BEARER_CHALLENGE, type Authenticate, type Principal } from './service/credentials.js';
export { identify, requirePrincipal } from './service/auth.js';
export { PLAYER_SCHEMA, checkPlayerSchema, requireValidPlayer, type SchemaCheck } from './player/schema.js';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_BODY_DEPTH } from './http/request-body.js';
export { PATCH_MEDIA_TYPES, acceptedBodyTypes } from './player/body.js';
export { readJsonPlayer } from './formats/json.js';
export {
  resolveVersions,
  selectVersion,
  supported as supportedVersions,
  deprecationHeaders,
  isRetired,
  API_VERSION_HEADER,
  DEFAULT_GRACE_PERIOD_DAYS,
  DEFAULT_VERSIONS,
  type ApiVersion,
  type ApiVersionOptions,
  type VersionPolicy,
  type VersionSelection,
} from './service/versioning.js';
export { forwardedBaseUrl, readForwarded, parseForwarded, splitOutsideQuotes, type ForwardedOrigin } from './http/forwarded.js';
export { applyPatch, JsonPatchError, type JsonPatchOperation, type JsonPatchErrorReason } from './json/patch.js';
export { applyMergePatch, MergePatchError } from './json/merge-patch.js';
export {
  parseJsonPointer,
  formatJsonPointer,
  escapeJsonPointerToken,
  isArrayIndexToken,
  hasPrototypeToken,
  getByJsonPointer,
  PROTOTYPE_SEGMENTS,
} from './json/pointer.js';
export { jsonEqual, cloneJson, isJsonObject, type JsonValue, type JsonObject } from './json/value.js';
export { getAvatar, putAvatar, avatarEtag, AVATAR_MEDIA_TYPE } from './avatar/route.js';
export { identiconPng, identiconEtag, IDENTICON_SIZE } from './avatar/identicon.js';
export { encodePng, readPngHeader, crc32, PNG_SIGNATURE, type IndexedImage, type PngHeader } from './avatar/png.js';
export { buildSwagger } from './player/swagger/build.js';
export { describeService, SWAGGER_INFO, type SwaggerDocument, type SwaggerTarget } from './player/swagger/document.js';
export { toSwaggerSchema, friendPayloadSchema, type SchemaObject } from './player/swagger/schemas.js';
export { OPERATIONS, RESPONSE_HEADERS, type OperationContext, type SwaggerOperation } from './player/swagger/operations.js';
export { getSwagger, DESCRIPTION_CACHE_POLICY } from './player/swagger/route.js';
export { PROBLEM_SCHEMA } from './http/problem-schema.js';
export { headerPairs, type HeaderReader, type RequestHead } from './http/request-head.js';
export { AnswerMemo, type MemoSlot } from './respond/answer-memo.js';
export { BodyCache, type CachedBody } from './respond/body-cache.js';
export { Answer, type Fields } from './respond/answer.js';
export type { SelectedAnswers } from './respond/selected.js';
export type { RequestContext, RouteHandler } from './service/context.js';
export type { Route, RouteMatch } from './service/router.js';
export type { DescribeOperation } from './player/swagger/operations.js';
