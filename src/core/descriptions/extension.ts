// What an extension of a service adds to its descriptions: the operations of its own routes, their tags,
// their Hydra classes, and a last change of the Swagger document (a gateway's integration).
import type { DescribeOperation, SwaggerDocument, SwaggerTarget } from './swagger.js';
import type { HydraClass } from './hydra.js';

/**
 * Additions to the descriptions by a `ServiceExtension` (the Player API's avatars and gateway):
 * - `operations`: the Swagger operation of each method of its routes, by route path and lower-case method;
 * - `tags`: Swagger tags those operations use;
 * - `classes`: the Hydra class of the resources at a route, by route path;
 * - `finish`: changes the finished Swagger document (called for every one built).
 *
 * @example
 * const gateway: DescriptionExtension = { finish: (doc) => void Object.assign(doc.info, { 'x-owner': 'games' }) };
 */
export interface DescriptionExtension {
  readonly operations?: Readonly<Record<string, Readonly<Record<string, DescribeOperation>>>>;
  readonly tags?: readonly { readonly name: string; readonly description: string }[];
  readonly classes?: Readonly<Record<string, HydraClass>>;
  readonly finish?: (document: SwaggerDocument, target: SwaggerTarget) => void;
}
