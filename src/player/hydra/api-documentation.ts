// The Hydra ApiDocumentation of the service (Hydra Core section 4.1), made from the route table the
// Swagger description is made from: its classes, their properties and the operations each route allows.
import { HYDRA } from '../../core/model/terms.js';
import { SCHEMA } from '../../representations/json-ld-context.js';
import { PLAYER_VOCAB } from '../api.js';
import type { ServiceConfig } from '../../core/service/options.js';
import { OPERATIONS, type OperationContext } from '../swagger/operations.js';

/** Where the ApiDocumentation is served, under the base URL. */
export const API_DOCUMENTATION_PATH = '/docs.jsonld';

/** The link relation naming it (Hydra Core section 4.1, "Discovering a Hydra-powered Web API"). */
export const API_DOCUMENTATION_REL = `${HYDRA}apiDocumentation`;

type Node = Record<string, unknown>;

/** A class of the API: the route whose resources are of it, and what it says of them. */
interface ClassOfRoute {
  id: string;
  title: string;
  description: string;
  subClassOf?: string;
  properties: readonly Node[];
}

/** The RDF type of a supported property: a plain property, a link (its value dereferenceable), or a templated link (its value an IRI template). */
const PROPERTY_TYPES = { plain: 'rdf:Property', link: 'hydra:Link', templated: 'hydra:TemplatedLink' } as const;

const property = (id: string, range: string, title: string, options: { required?: boolean; writeable?: boolean; link?: 'link' | 'templated' } = {}): Node => ({
  '@type': 'hydra:SupportedProperty',
  // RDF Schema section 3.2: the range is a statement about the property itself.
  'hydra:property': { '@id': id, '@type': PROPERTY_TYPES[options.link ?? 'plain'], 'rdfs:range': { '@id': range } },
  'hydra:title': title,
  'hydra:required': options.required ?? false,
  'hydra:readable': true,
  'hydra:writeable': options.writeable ?? true,
});

/**
 * The routes whose resources have a class, by route template. A route of the table not named here
 * (a friend's membership, the JSON:API linkage, the descriptions) is left out of the documentation:
 * it has no JSON-LD representation.
 */
const CLASSES: Readonly<Record<string, ClassOfRoute>> = {
  '/player/{id}': {
    id: 'schema:Person',
    title: 'Player',
    description: 'A player: an id, an alias, a display name, an avatar and a list of friends',
    properties: [
      property('ph:playerId', 'xsd:string', 'Player id', { required: true, writeable: false }),
      property('schema:name', 'xsd:string', 'Full name'),
      property('schema:alternateName', 'xsd:string', 'Alias', { required: true }),
      property('schema:image', 'schema:URL', 'Avatar', { writeable: false, link: 'link' }),
      property('ph:friends', 'ph:FriendList', 'Friends', { writeable: false, link: 'link' }),
    ],
  },
  '/player/{id}/friends': {
    id: 'ph:FriendList',
    title: 'Friend list',
    description: "A player's friends, in pages (hydra:view)",
    subClassOf: 'hydra:Collection',
    properties: [property('hydra:member', 'schema:Person', 'Friends on this page', { writeable: false })],
  },
  '/player/{id}/avatar.png': {
    id: 'schema:ImageObject',
    title: 'Avatar',
    description: 'The PNG of a player: uploaded, or an identicon made from the id',
    properties: [],
  },
  '/': {
    id: 'ph:EntryPoint',
    title: 'Entry point',
    description: 'Where the API starts: the player template',
    properties: [property('ph:player', 'schema:Person', 'A player by id (an IRI template)', { writeable: false, link: 'templated' })],
  },
};

/** What an operation expects and returns, by `METHOD route`; absent: nothing (a patch document, or no body). */
const BODIES: Readonly<Record<string, { expects?: string; returns?: string }>> = {
  'GET /player/{id}': { returns: 'schema:Person' },
  'PUT /player/{id}': { expects: 'schema:Person', returns: 'schema:Person' },
  'PATCH /player/{id}': { returns: 'schema:Person' },
  'DELETE /player/{id}': { returns: 'owl:Nothing' },
  'GET /player/{id}/friends': { returns: 'ph:FriendList' },
  'POST /player/{id}/friends': { expects: 'schema:Person', returns: 'schema:Person' },
  'GET /player/{id}/avatar.png': { returns: 'schema:ImageObject' },
  'PUT /player/{id}/avatar.png': { expects: 'schema:ImageObject', returns: 'schema:ImageObject' },
  'GET /': { returns: 'ph:EntryPoint' },
};

/**
 * The ApiDocumentation for a base URL: one supported class per route that has one, its supported
 * properties, and a supported operation for every method the route table serves there (HEAD and
 * OPTIONS aside), titled with the Swagger description's summary of the same operation.
 *
 * @example
 * const doc = describeHydra(service.config, 'https://api.example.com');
 * doc['hydra:entrypoint']; // { '@id': 'https://api.example.com/' }
 */
export function describeHydra(config: ServiceConfig, baseUrl: string): Node {
  const context: OperationContext = { formats: [], bodyTypes: [], linkageFormats: [], patchDocumentTypes: [], linkageBodyTypes: [] };
  const supportedClass: Node[] = [];
  for (const endpoint of config.endpoints) {
    const described = CLASSES[endpoint.path];
    if (!described) continue;
    const supportedOperation = endpoint.methods
      .filter((method) => method !== 'HEAD' && method !== 'OPTIONS')
      .map((method) => {
        const bodies = BODIES[`${method} ${endpoint.path}`] ?? {};
        const summary = OPERATIONS[endpoint.path]?.[method.toLowerCase()]?.(context).summary;
        const operation: Node = { '@type': 'hydra:Operation', 'hydra:method': method, 'hydra:title': summary ?? `${method} ${endpoint.path}` };
        if (bodies.expects) operation['hydra:expects'] = { '@id': bodies.expects };
        if (bodies.returns) operation['hydra:returns'] = { '@id': bodies.returns };
        return operation;
      });
    const node: Node = {
      '@id': described.id,
      '@type': 'hydra:Class',
      'hydra:title': described.title,
      'hydra:description': described.description,
      'hydra:supportedProperty': described.properties,
      'hydra:supportedOperation': supportedOperation,
    };
    if (described.subClassOf) node['rdfs:subClassOf'] = { '@id': described.subClassOf };
    supportedClass.push(node);
  }
  return {
    '@context': {
      hydra: HYDRA,
      schema: SCHEMA,
      ph: PLAYER_VOCAB,
      rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
      rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
      xsd: 'http://www.w3.org/2001/XMLSchema#',
      owl: 'http://www.w3.org/2002/07/owl#',
    },
    '@id': `${baseUrl}${API_DOCUMENTATION_PATH}`,
    '@type': 'hydra:ApiDocumentation',
    'hydra:title': 'Player API',
    'hydra:description': 'Players, their paged friend lists, friend search and avatars, in six hypermedia formats chosen by Accept.',
    'hydra:entrypoint': { '@id': `${baseUrl}/` },
    'hydra:supportedClass': supportedClass,
  };
}

/**
 * The entry point (the resource `hydra:entrypoint` names): the template of a player's URL.
 *
 * @example
 * entryPoint('https://api.example.com')['ph:player']['hydra:template']; // 'https://api.example.com/player/{id}'
 */
export function entryPoint(baseUrl: string): Node {
  return {
    '@context': { hydra: HYDRA, ph: PLAYER_VOCAB },
    '@id': `${baseUrl}/`,
    '@type': 'ph:EntryPoint',
    'hydra:title': 'Player API',
    'ph:player': {
      '@type': 'hydra:IriTemplate',
      'hydra:template': `${baseUrl}/player/{id}`,
      'hydra:variableRepresentation': { '@id': 'hydra:BasicRepresentation' },
      'hydra:mapping': [{ '@type': 'hydra:IriTemplateMapping', 'hydra:variable': 'id', 'hydra:property': { '@id': 'ph:playerId' }, 'hydra:required': true }],
    },
  };
}
