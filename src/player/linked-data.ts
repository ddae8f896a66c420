// The Player API's JSON-LD context, its URL, and a document loader that knows it (for JSON-LD processors).
import { linkedDataContext, type JsonLdContext } from '../core/model/terms.js';
import { contextLoader, type RemoteContextDocument } from '../representations/json-ld-context.js';
import { playerApi } from './api.js';

/**
 * The JSON-LD context of the Player API (schema.org, Hydra and its vocabulary), made from its
 * declaration: every document carries it inline.
 *
 * @example
 * PLAYER_CONTEXT.name; // 'schema:name'
 */
export const PLAYER_CONTEXT: JsonLdContext = linkedDataContext(playerApi);

/**
 * The URL that names the Player API's context; a request body may refer to it, and nothing is fetched.
 *
 * @example
 * const body = { '@context': PLAYER_CONTEXT_URL, name: 'Zoe', alternateName: 'zoe' };
 */
export const PLAYER_CONTEXT_URL: string = playerApi.contextUrl;

/**
 * A JSON-LD document loader that knows the Player API's context and schema.org's, and fetches nothing.
 *
 * @example
 * import jsonld from 'jsonld';
 * await jsonld.expand(doc, { documentLoader: loadPlayerContext, safe: true });
 */
export const loadPlayerContext: (url: string) => Promise<RemoteContextDocument> = contextLoader(playerApi);
