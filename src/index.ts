// The public API of player-hypermedia: the service, its stores, rendering, the formats, JSON Patch, schemas.
// Format and store authors find the rest in 'player-hypermedia/formats' and 'player-hypermedia/store'.
export { createPlayerService } from './create-service.js';
export type { PlayerService } from './service/service.js';
export type { PlayerServiceOptions } from './service/options.js';
export type { CorsOptions } from './service/cors.js';
export type { CompressionOptions, ContentCoder } from './respond/compression.js';
export type { RateLimitOptions, RateLimitCounter } from './service/rate-limit.js';
export { MemoryRateLimitCounter } from './service/rate-limit.js';
export { httpPurger, type CacheTagOptions, type CachePurge } from './service/cache-tags.js';
export { bearerTokens, type Authenticate, type Principal } from './service/credentials.js';
export { HttpError, type ProblemDetails } from './http/problem.js';
export { MemoryPlayerStore } from './stores/memory.js';
export { StoreError, type PlayerStore } from './stores/contract.js';
export type { Player, StoredPlayer } from './player/player.js';
export { render, renderAll, type RenderInput, type RenderOptions, type RenderedDocument } from './render/render.js';
export { resourceFromJson } from './render/input.js';
export type { Representation } from './model/representation.js';
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
} from './formats/index.js';
export { applyPatch, JsonPatchError, type JsonPatchLimits, type JsonPatchOperation } from './json/patch.js';
export { applyMergePatch, MergePatchError } from './json/merge-patch.js';
export { PLAYER_SCHEMA } from './player/schema.js';
export { PROBLEM_SCHEMA } from './http/problem-schema.js';
export { buildSwagger } from './player/swagger/build.js';
export { seedDemoData, DEMO_PLAYER_ID } from './demo/demo-data.js';
