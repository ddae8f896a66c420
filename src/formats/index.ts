// The registry of built-in representations: one list, in order of preference for `*/*`.
import type { Representation } from '../model/representation.js';
import { collectionJsonRepresentation } from './collection-json.js';
import { halRepresentation } from './hal.js';
import { jsonApiRepresentation } from './json-api.js';
import { htmlRepresentation } from './html.js';
import { jsonRepresentation } from './json.js';
import { jsonLdRepresentation } from './json-ld.js';
import { sirenRepresentation } from './siren.js';

/**
 * The built-in formats, plain JSON first (the default for a missing Accept or `*\/*`).
 *
 * @example
 * createPlayerService({ baseUrl, representations: [...defaultRepresentations, myFormat] });
 */
export const defaultRepresentations: readonly Representation[] = [
  jsonRepresentation,
  jsonLdRepresentation,
  halRepresentation,
  collectionJsonRepresentation,
  sirenRepresentation,
  jsonApiRepresentation,
  // HTML stays last: only a client that prefers text/html (a browser) gets it, never `*/*`.
  htmlRepresentation,
];

export { jsonRepresentation, JSON_MEDIA_TYPE } from './json.js';
export { jsonLdRepresentation, readJsonLdBody, JSON_LD_MEDIA_TYPE } from './json-ld.js';
export { PLAYER_CONTEXT, PLAYER_CONTEXT_URL, loadPlayerContext, HYDRA, SCHEMA, type RemoteContextDocument } from './json-ld-context.js';
export { halRepresentation, readHalBody, HAL_MEDIA_TYPE, HAL_CURIES, type HalLink } from './hal.js';
export {
  collectionJsonRepresentation,
  readCollectionJsonBody,
  COLLECTION_JSON_MEDIA_TYPE,
  type CollectionJsonData,
  type CollectionJsonLink,
  type CollectionJsonQuery,
} from './collection-json.js';
export { PLAYER_VOCAB, PLAYER_VOCAB_PREFIX } from './vocabulary.js';
export { playerInputFromAlternate, ALTERNATE_TO_PLAIN } from './alternate-input.js';
export { sirenRepresentation, SIREN_MEDIA_TYPE } from './siren.js';
export { jsonApiRepresentation, JSON_API_MEDIA_TYPE } from './json-api.js';
export { relationType, REGISTERED_RELATIONS } from './link-relations.js';
export { htmlRepresentation, escapeHtml, HTML_MEDIA_TYPE } from './html.js';
