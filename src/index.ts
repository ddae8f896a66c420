// The public API of player-hypermedia: the service, its stores, rendering, the formats, JSON Patch, schemas.
// Format and store authors find the rest in 'player-hypermedia/formats' and 'player-hypermedia/store'.
export { createPlayerService } from './create-service.js';
export type { PlayerService } from './core/service/service.js';
export type { PlayerServiceOptions } from './core/service/options.js';
export type { CorsOptions } from './core/service/cors.js';
export type { CompressionOptions, ContentCoder } from './core/respond/compression.js';
export type { RateLimitOptions, RateLimitCounter } from './core/service/rate-limit.js';
export { MemoryRateLimitCounter } from './core/service/rate-limit.js';
export { httpPurger, type CacheTagOptions, type CachePurge } from './core/service/cache-tags.js';
export { bearerTokens, type Authenticate, type Principal } from './core/service/credentials.js';
export { HttpError, type ProblemDetails } from './core/http/problem.js';
export { MemoryPlayerStore } from './stores/memory.js';
export { StoreError, type PlayerStore } from './stores/contract.js';
export type { Player, StoredPlayer } from './player/player.js';
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
export { PLAYER_SCHEMA } from './player/schema.js';
export { PROBLEM_SCHEMA } from './core/http/problem-schema.js';
export { buildSwagger } from './player/swagger/build.js';
export { seedDemoData, DEMO_PLAYER_ID } from './player/demo/demo-data.js';
