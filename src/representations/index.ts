// The registry of built-in representations: one list, in order of preference for `*/*`.
import type { Representation } from '../core/representation.js';
import { jsonRepresentation } from './json.js';

/**
 * The built-in formats, plain JSON first (the default for a missing Accept or `*\/*`).
 *
 * @example
 * createPlayerService({ baseUrl, representations: [...defaultRepresentations, myFormat] });
 */
export const defaultRepresentations: readonly Representation[] = [jsonRepresentation];

export { jsonRepresentation, JSON_MEDIA_TYPE } from './json.js';
