// The public API of player-hypermedia: the service, its stores, rendering, the formats, JSON Patch, schemas.
// Format and store authors find the rest in 'player-hypermedia/formats' and 'player-hypermedia/store'.
export { createService } from './create-service.js';
export type { Service } from './core/service/service.js';
export type { ServiceOptions, ServiceExtension, Endpoint } from './core/service/options.js';
export type { ServiceConfig } from './core/service/config.js';
// The types the options and the public functions name, so that a consumer can name them too.
export type { CacheOptions, CachePolicy, AuthorizedCaching } from './core/respond/cache-policy.js';
export type { ApiVersionOptions } from './core/service/versioning.js';
export type { TrustProxyOptions } from './core/http/forwarded.js';
export type { RequestHead } from './core/http/request-head.js';
export type { FieldError } from './core/http/problem.js';
export type { JsonPatchErrorReason } from './core/json/patch-document.js';
export type { JsonValue } from './core/json/value.js';
export type { PlayerJson, FriendsPageJson } from './render/input.js';
export { defineApi, type Api, type ResourceType, type Field, type Relation } from './core/model/api.js';
export type { ApiDeclaration, TypeDeclaration, FieldDeclaration, RelationDeclaration, LinkDeclaration, AddDeclaration, SearchDeclaration, DisplayDeclaration, JsonSchema } from './core/model/declaration.js';
export type { Item, Page, Link, Operation, OperationField, Paging, Resource } from './core/model/resource.js';
export { itemDocument, pageDocument, paging, type StoredItem } from './core/model/documents.js';
export { createPlayerService, playerExtension, type PlayerService, type PlayerServiceOptions } from './player/service.js';
export { playerApi, playerApiDeclaration, playerType, PLAYER_VOCAB } from './player/api.js';
export type { CorsOptions } from './core/service/cors.js';
export type { CompressionOptions, ContentCoder } from './core/respond/compression.js';
export type { RateLimitOptions, RateLimitCounter } from './core/service/rate-limit.js';
export { MemoryRateLimitCounter } from './core/service/rate-limit.js';
export { httpPurger, type CacheTagOptions, type CachePurge } from './core/service/cache-tags.js';
export { bearerTokens, type Authenticate, type Principal } from './core/service/credentials.js';
export { HttpError, type ProblemDetails } from './core/http/problem.js';
export { MemoryStore } from './stores/memory.js';
export { StoreError, type Store } from './stores/contract.js';
export { MemoryPlayerStore, withPlayerMethods, type PlayerStore, type PlayerStoreMethods } from './player/player-store.js';
export type { Player, PlayerData, StoredPlayer } from './player/player.js';
export { render, renderAll, type RenderInput, type RenderOptions, type RenderedDocument } from './render/render.js';
export { resourceFromJson } from './render/input.js';
export type { Representation } from './core/model/representation.js';
export {
  defaultRepresentations,
  jsonRepresentation,
  jsonLdRepresentation,
  halRepresentation,
  halFormsRepresentation,
  collectionJsonRepresentation,
  sirenRepresentation,
  jsonApiRepresentation,
  htmlRepresentation,
} from './representations/index.js';
export { applyPatch, JsonPatchError, type JsonPatchLimits, type JsonPatchOperation } from './core/json/patch.js';
export { applyMergePatch, MergePatchError } from './core/json/merge-patch.js';
export { PLAYER_SCHEMA } from './player/documents.js';
export { PROBLEM_SCHEMA } from './core/http/problem-schema.js';
export { buildSwagger } from './player/swagger.js';
export { describeService, type SwaggerDocument } from './core/descriptions/swagger.js';
export { describeOpenApi, type OpenApiDocument, type OpenApiVersion } from './core/descriptions/openapi.js';
export { OPENAPI_PATH, OPENAPI_30_PATH } from './core/descriptions/routes.js';
export { explorerExtension, type ExplorerAssets, type ExplorerAsset } from './core/descriptions/explorer.js';
export type { DescribedDocument } from './core/model/document-schemas.js';
export { describeHydra, entryPoint } from './core/descriptions/hydra.js';
export { seedDemoData, DEMO_PLAYER_ID } from './player/demo/demo-data.js';
