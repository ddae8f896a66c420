// The public API of player-hypermedia.
export { createPlayerService } from './create-service.js';
export { createPlayerServiceCore, type PlayerService } from './core/service.js';
export { toHttpError } from './core/error-response.js';
export type { PlayerServiceOptions, ServiceConfig } from './core/options.js';
export { MemoryPlayerStore } from './core/memory-store.js';
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
} from './core/store.js';
export {
  isValidPlayerId,
  toPlayer,
  toAlternateFields,
  playerUrl,
  avatarUrl,
  PLAYER_ID_PATTERN,
  type Player,
  type PlayerData,
  type StoredPlayer,
  type AlternatePlayerFields,
} from './core/player.js';
export { findLink, type Resource, type ResourceKind, type PlayerResource, type FriendsResource, type Link, type Operation, type OperationField, type Paging } from './core/resource.js';
export { playerResource, friendsResource, friendOperations, paging } from './core/documents.js';
export type { Representation, RenderPlan, PlayerInput } from './core/representation.js';
export { HttpError, PROBLEM_MEDIA_TYPE, STATUS_TITLES, type ProblemDetails, type FieldError } from './core/problem.js';
export { createNegotiation, parseAccept, chooseRepresentation, type Negotiation, type MediaRange } from './core/negotiate.js';
export { evaluatePreconditions, parseEntityTags, weakMatch, strongMatch, type Validators, type PreconditionOutcome } from './core/conditional.js';
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
} from './core/cache-policy.js';
export * from './representations/index.js';
export { render, renderAll, findRepresentation, type RenderInput, type RenderOptions, type RenderedDocument } from './render.js';
export { resourceFromJson, type PlayerJson, type FriendsPageJson } from './render-input.js';
export { demoResources, type DemoResources } from './demo/demo-resources.js';
export { seedDemoData, DEMO_PLAYER_ID } from './demo/demo-data.js';
export { bearerTokens, identify, requirePrincipal, BEARER_CHALLENGE, type Authenticate, type Principal } from './core/auth.js';
export { PLAYER_SCHEMA, checkPlayerSchema, requireValidPlayer, type SchemaCheck } from './core/player-schema.js';
export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_BODY_DEPTH } from './core/request-body.js';
export { PATCH_MEDIA_TYPES, acceptedBodyTypes } from './core/body-formats.js';
export { readJsonPlayer } from './representations/json.js';
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
} from './core/versioning.js';
export { forwardedBaseUrl, readForwarded, parseForwarded, splitOutsideQuotes, type ForwardedOrigin } from './core/forwarded.js';
export { applyPatch, JsonPatchError, type JsonPatchOperation, type JsonPatchErrorReason } from './core/json-patch.js';
export { applyMergePatch, MergePatchError } from './core/merge-patch.js';
export {
  parseJsonPointer,
  formatJsonPointer,
  escapeJsonPointerToken,
  isArrayIndexToken,
  hasPrototypeToken,
  getByJsonPointer,
  PROTOTYPE_SEGMENTS,
} from './core/json-pointer.js';
export { jsonEqual, cloneJson, isJsonObject, type JsonValue, type JsonObject } from './core/json-value.js';
export { getAvatar, putAvatar, avatarEtag, AVATAR_MEDIA_TYPE } from './core/routes/avatar.js';
export { identiconPng, identiconEtag, IDENTICON_SIZE } from './core/identicon.js';
export { encodePng, readPngHeader, crc32, PNG_SIGNATURE, type IndexedImage, type PngHeader } from './core/png.js';
export { buildSwagger } from './swagger.js';
export { describeService, SWAGGER_INFO, type SwaggerDocument, type SwaggerTarget } from './core/swagger/document.js';
export { toSwaggerSchema, friendPayloadSchema, type SchemaObject } from './core/swagger/schemas.js';
export { OPERATIONS, RESPONSE_HEADERS, type OperationContext, type SwaggerOperation } from './core/swagger/operations.js';
export { getSwagger, DESCRIPTION_CACHE_POLICY } from './core/routes/swagger.js';
export { PROBLEM_SCHEMA } from './core/problem-schema.js';
export { headerPairs, type HeaderReader, type RequestHead } from './core/request-head.js';
export { AnswerMemo, type MemoSlot } from './core/answer-memo.js';
export { BodyCache, type CachedBody } from './core/body-cache.js';
export { Answer, type Fields } from './core/answer.js';
export type { SelectedAnswers } from './core/respond.js';
export type { RequestContext, RouteHandler } from './core/context.js';
export type { Route, RouteMatch } from './core/router.js';
export type { DescribeOperation } from './core/swagger/operations.js';
