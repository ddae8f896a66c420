// The registry of built-in representations: one list, in order of preference for `*/*`.
import type { Representation } from '../core/representation.js';
import { jsonApiRepresentation } from './json-api.js';
import { jsonRepresentation } from './json.js';
import { sirenRepresentation } from './siren.js';

/**
 * The built-in formats, plain JSON first (the default for a missing Accept or `*\/*`).
 *
 * @example
 * createPlayerService({ baseUrl, representations: [...defaultRepresentations, myFormat] });
 */
export const defaultRepresentations: readonly Representation[] = [jsonRepresentation, sirenRepresentation, jsonApiRepresentation];

export { jsonRepresentation, JSON_MEDIA_TYPE } from './json.js';
export { sirenRepresentation, SIREN_MEDIA_TYPE } from './siren.js';
export { jsonApiRepresentation, JSON_API_MEDIA_TYPE } from './json-api.js';
export { relationType, REGISTERED_RELATIONS } from './link-relations.js';
