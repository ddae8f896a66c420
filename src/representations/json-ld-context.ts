// The JSON-LD context of the Player API (schema.org, Hydra and our vocabulary) and a loader that never fetches.
import { PLAYER_VOCAB } from './vocabulary.js';

/**
 * The Hydra Core vocabulary namespace (https://www.hydra-cg.com/spec/latest/core/).
 *
 * @example
 * `${HYDRA}member`; // 'http://www.w3.org/ns/hydra/core#member'
 */
export const HYDRA = 'http://www.w3.org/ns/hydra/core#';
/**
 * The schema.org namespace, in its canonical https form.
 *
 * @example
 * `${SCHEMA}alternateName`; // 'https://schema.org/alternateName'
 */
export const SCHEMA = 'https://schema.org/';

/**
 * The URL that names our context. Responses carry the context inline, so nobody has to fetch it; a
 * request body may refer to it by this URL, and `loadPlayerContext` hands it to a JSON-LD processor
 * without a network fetch.
 *
 * @example
 * const body = { '@context': PLAYER_CONTEXT_URL, name: 'Zoe', alternateName: 'zoe' };
 */
export const PLAYER_CONTEXT_URL = 'https://w3id.org/player-hypermedia/context.jsonld';

/**
 * The context (JSON-LD 1.1 section 3.1): every term our documents use, mapped to schema.org (name,
 * alternateName, image, Person), Hydra (collections, paging, operations, IRI templates) or our own
 * vocabulary (playerId, friends, size). No `@vocab`: a key outside the context is an error in safe
 * mode, never silently turned into an IRI.
 *
 * @example
 * PLAYER_CONTEXT.name; // 'schema:name'
 */
export const PLAYER_CONTEXT = deepFreeze({
  schema: SCHEMA,
  hydra: HYDRA,
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  ph: PLAYER_VOCAB,
  Person: 'schema:Person',
  playerId: 'ph:playerId',
  name: 'schema:name',
  alternateName: 'schema:alternateName',
  image: { '@id': 'schema:image', '@type': '@id' },
  friends: { '@id': 'ph:friends', '@type': '@id' },
  friendsOf: { '@reverse': 'ph:friends', '@type': '@id' },
  Collection: 'hydra:Collection',
  FriendList: 'ph:FriendList',
  PartialCollectionView: 'hydra:PartialCollectionView',
  collection: { '@id': 'hydra:collection', '@type': '@id' },
  member: { '@id': 'hydra:member', '@type': '@id' },
  totalItems: 'hydra:totalItems',
  size: 'ph:size',
  view: { '@id': 'hydra:view', '@type': '@id' },
  first: { '@id': 'hydra:first', '@type': '@id' },
  previous: { '@id': 'hydra:previous', '@type': '@id' },
  next: { '@id': 'hydra:next', '@type': '@id' },
  last: { '@id': 'hydra:last', '@type': '@id' },
  Operation: 'hydra:Operation',
  operation: 'hydra:operation',
  method: 'hydra:method',
  title: 'hydra:title',
  expects: { '@id': 'hydra:expects', '@type': '@vocab' },
  Class: 'hydra:Class',
  SupportedProperty: 'hydra:SupportedProperty',
  supportedProperty: 'hydra:supportedProperty',
  property: { '@id': 'hydra:property', '@type': '@vocab' },
  required: 'hydra:required',
  range: { '@id': 'rdfs:range', '@type': '@vocab' },
  search: 'hydra:search',
  IriTemplate: 'hydra:IriTemplate',
  IriTemplateMapping: 'hydra:IriTemplateMapping',
  template: 'hydra:template',
  mapping: 'hydra:mapping',
  variable: 'hydra:variable',
  variableRepresentation: { '@id': 'hydra:variableRepresentation', '@type': '@vocab' },
  BasicRepresentation: 'hydra:BasicRepresentation',
  freetextQuery: 'hydra:freetextQuery',
});

/**
 * A stand-in for schema.org's own context (`"@context": "https://schema.org"`), the most common way to
 * write a Person in JSON-LD: it maps every term into schema.org, as the published one does, without
 * fetching its 1 MB original.
 */
const SCHEMA_ORG_CONTEXT = deepFreeze({ '@vocab': SCHEMA });

/** Context URLs a body may name, with the context each stands for. */
const KNOWN_CONTEXTS: ReadonlyMap<string, object> = new Map<string, object>([
  [PLAYER_CONTEXT_URL, PLAYER_CONTEXT],
  ['https://schema.org', SCHEMA_ORG_CONTEXT],
  ['https://schema.org/', SCHEMA_ORG_CONTEXT],
  ['http://schema.org', SCHEMA_ORG_CONTEXT],
  ['http://schema.org/', SCHEMA_ORG_CONTEXT],
]);

/**
 * A remote document as JSON-LD document loaders return it (JSON-LD 1.1 API section 9.4.1).
 *
 * @example
 * const doc: RemoteContextDocument = { contextUrl: null, documentUrl: PLAYER_CONTEXT_URL, document: { '@context': PLAYER_CONTEXT } };
 */
export interface RemoteContextDocument {
  contextUrl: null;
  documentUrl: string;
  document: { '@context': object };
}

/**
 * A JSON-LD document loader that knows our context (and a schema.org stand-in) and refuses every other
 * URL, so that processing a document never touches the network. Pass it as `documentLoader` to the
 * `jsonld` library.
 *
 * @example
 * import jsonld from 'jsonld';
 * await jsonld.expand(doc, { documentLoader: loadPlayerContext, safe: true });
 */
export async function loadPlayerContext(url: string): Promise<RemoteContextDocument> {
  const context = KNOWN_CONTEXTS.get(url);
  if (!context) throw new Error(`remote context ${url} is not loaded: only ${PLAYER_CONTEXT_URL} and schema.org are known`);
  return { contextUrl: null, documentUrl: url, document: { '@context': context } };
}

function deepFreeze<T extends object>(value: T): T {
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(value);
}
