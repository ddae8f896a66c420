// The JSON-LD contexts a request body may name, and a document loader that never fetches.
import type { Api } from '../core/model/api.js';
import { linkedDataContext } from '../core/model/terms.js';

/**
 * The schema.org namespace, in its canonical https form.
 *
 * @example
 * `${SCHEMA}name`; // 'https://schema.org/name'
 */
export const SCHEMA = 'https://schema.org/';

/**
 * A stand-in for schema.org's own context (`"@context": "https://schema.org"`), the most common way to
 * write a thing in JSON-LD: it maps every term into schema.org, as the published one does, without
 * fetching its 1 MB original.
 */
const SCHEMA_ORG_CONTEXT = Object.freeze({ '@vocab': SCHEMA });

const SCHEMA_ORG_URLS = ['https://schema.org', 'https://schema.org/', 'http://schema.org', 'http://schema.org/'];

/**
 * A remote document as JSON-LD document loaders return it (JSON-LD 1.1 API section 9.4.1).
 *
 * @example
 * const doc: RemoteContextDocument = { contextUrl: null, documentUrl: api.contextUrl, document: { '@context': linkedDataContext(api) } };
 */
export interface RemoteContextDocument {
  contextUrl: null;
  documentUrl: string;
  document: { '@context': object };
}

const loaders = new WeakMap<Api, (url: string) => Promise<RemoteContextDocument>>();

/**
 * A JSON-LD document loader that knows the API's context (by its `contextUrl`) and a schema.org
 * stand-in, and refuses every other URL, so that processing a document never touches the network.
 * Pass it as `documentLoader` to the `jsonld` library.
 *
 * @example
 * import jsonld from 'jsonld';
 * await jsonld.expand(doc, { documentLoader: contextLoader(api), safe: true });
 */
export function contextLoader(api: Api): (url: string) => Promise<RemoteContextDocument> {
  let loader = loaders.get(api);
  if (loader === undefined) {
    const known = new Map<string, object>([[api.contextUrl, linkedDataContext(api)], ...SCHEMA_ORG_URLS.map((u) => [u, SCHEMA_ORG_CONTEXT] as [string, object])]);
    loader = async (url: string) => {
      const context = known.get(url);
      if (!context) throw new Error(`remote context ${url} is not loaded: only ${api.contextUrl} and schema.org are known`);
      return { contextUrl: null, documentUrl: url, document: { '@context': context } };
    };
    loaders.set(api, loader);
  }
  return loader;
}
