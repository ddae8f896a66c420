// player-hypermedia/formats: the built-in formats (one list, in order of preference for `*/*`) and what a format implements.
import type { Representation } from '../core/model/representation.js';
import { collectionJsonRepresentation } from './collection-json.js';
import { halRepresentation } from './hal.js';
import { halFormsRepresentation } from './hal-forms.js';
import { jsonApiRepresentation } from './json-api.js';
import { htmlRepresentation } from './html.js';
import { jsonRepresentation } from './json.js';
import { jsonLdRepresentation } from './json-ld.js';
import { sirenRepresentation } from './siren.js';

/**
 * The built-in formats, plain JSON first (the default for a missing Accept or `*\/*`).
 *
 * @example
 * createService({ api, baseUrl, representations: [...defaultRepresentations, myFormat] });
 */
export const defaultRepresentations: readonly Representation[] = [
  jsonRepresentation,
  jsonLdRepresentation,
  halRepresentation,
  halFormsRepresentation,
  collectionJsonRepresentation,
  sirenRepresentation,
  jsonApiRepresentation,
  // HTML stays last: only a client that prefers text/html (a browser) gets it, never `*/*`.
  htmlRepresentation,
];

export { jsonRepresentation, JSON_MEDIA_TYPE } from './json.js';
export { jsonLdRepresentation, JSON_LD_MEDIA_TYPE } from './json-ld.js';
export { contextLoader, type RemoteContextDocument } from './json-ld-context.js';
export { halRepresentation, HAL_MEDIA_TYPE } from './hal.js';
export { halFormsRepresentation, HAL_FORMS_MEDIA_TYPE } from './hal-forms.js';
export { collectionJsonRepresentation, COLLECTION_JSON_MEDIA_TYPE } from './collection-json.js';
export { sirenRepresentation, SIREN_MEDIA_TYPE } from './siren.js';
export { jsonApiRepresentation, JSON_API_MEDIA_TYPE } from './json-api.js';
export { htmlRepresentation, HTML_MEDIA_TYPE } from './html.js';
// What a format of your own implements and maps (see the Representation interface).
export type { Representation, RenderPlan, ItemInput } from '../core/model/representation.js';
export {
  findLink,
  type Resource,
  type ResourceKind,
  type Item,
  type Page,
  type Link,
  type Operation,
  type OperationField,
  type Paging,
} from '../core/model/resource.js';
export { itemDocument, pageDocument, paging, type StoredItem } from '../core/model/documents.js';
export type { Api, ResourceType, Field, Relation } from '../core/model/api.js';
// What a format of your own describes its documents with (Representation.describe, for the OpenAPI descriptions).
export { fieldMembers, fieldValueSchema, inputMembers, objectSchema, arrayOf, documentName, URI_SCHEMA, HREF_SCHEMA, type DescribedDocument } from '../core/model/document-schemas.js';
