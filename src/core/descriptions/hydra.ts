// The Hydra ApiDocumentation of a service (Hydra Core section 4.1) and its entry point, made from the API's
// declarations: a class per type and per list class, their properties, and the operations each route allows.
import { HYDRA } from '../model/terms.js';
import type { Api, Field, ResourceType } from '../model/api.js';
import type { ServiceConfig } from '../service/config.js';
import { operationsOfService, type OperationContext } from './swagger.js';

/** Where the ApiDocumentation is served, under the base URL. */
export const API_DOCUMENTATION_PATH = '/docs.jsonld';

/** The link relation naming it (Hydra Core section 4.1, "Discovering a Hydra-powered Web API"). */
export const API_DOCUMENTATION_REL = `${HYDRA}apiDocumentation`;

type Node = Record<string, unknown>;

/**
 * The class of the resources at a route: its IRI (compact, with the API's prefixes), title,
 * description, superclass, properties (see `hydraProperty`), and what each method expects and returns
 * (by method; absent: no body).
 *
 * @example
 * const avatar: HydraClass = { id: 'schema:ImageObject', title: 'Avatar', description: 'A PNG', properties: [],
 *   bodies: { GET: { returns: 'schema:ImageObject' } } };
 */
export interface HydraClass {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly subClassOf?: string;
  readonly properties: readonly Node[];
  readonly bodies?: Readonly<Record<string, { readonly expects?: string; readonly returns?: string }>>;
}

/** The RDF type of a supported property: a plain property, a link (its value dereferenceable), or a templated link (its value an IRI template). */
const PROPERTY_TYPES = { plain: 'rdf:Property', link: 'hydra:Link', templated: 'hydra:TemplatedLink' } as const;

/**
 * A supported property (Hydra Core section 4.1): its IRI, range, title, and whether it is required,
 * readable, writeable and a link.
 *
 * @example
 * hydraProperty('schema:name', 'xsd:string', 'Full name');
 */
export function hydraProperty(id: string, range: string, title: string, options: { required?: boolean; readable?: boolean; writeable?: boolean; link?: 'link' | 'templated' } = {}): Node {
  return {
    '@type': 'hydra:SupportedProperty',
    // RDF Schema section 3.2: the range is a statement about the property itself.
    'hydra:property': { '@id': id, '@type': PROPERTY_TYPES[options.link ?? 'plain'], 'rdfs:range': { '@id': range } },
    'hydra:title': title,
    'hydra:required': options.required ?? false,
    'hydra:readable': options.readable ?? true,
    'hydra:writeable': options.writeable ?? true,
  };
}

/** The XML Schema or schema.org range of a field, from its JSON Schema. */
function rangeOf(field: Field): string {
  if (field.iriValue) return 'schema:URL';
  const type = (field.schema as { type?: unknown }).type;
  return type === 'integer' ? 'xsd:integer' : type === 'number' ? 'xsd:decimal' : type === 'boolean' ? 'xsd:boolean' : 'xsd:string';
}

/**
 * A type's class: its readable fields (write-only ones whose property no readable field shows), its
 * relations. A field a to-one relation is held in is a property too (the node shows the id and the link).
 */
function typeClass(type: ResourceType): HydraClass {
  const v = type.api.vocabulary.prefix;
  const shown = new Set<string>();
  const properties: Node[] = [];
  const fields = [...type.termOrder, ...type.fields.filter((f) => f.access === 'write-only')];
  for (const f of fields) {
    if (shown.has(f.iri)) continue;
    shown.add(f.iri);
    properties.push(
      hydraProperty(f.iri, rangeOf(f), f.title, {
        required: f.required,
        readable: f.access !== 'write-only',
        writeable: f.access !== 'read-only' && f.name !== type.idField,
        ...(f.derived ? { link: 'link' as const } : {}),
      }),
    );
  }
  for (const r of type.relations) {
    const range = r.kind === 'to-one' ? r.target.linkedData.class : r.listClass ? `${v}:${r.listClass}` : 'hydra:Collection';
    properties.push(hydraProperty(r.iri, range, r.title, { writeable: r.kind === 'to-one', link: 'link' }));
  }
  const t = type.linkedData.class;
  return {
    id: t,
    title: type.title,
    description: type.descriptions.item ?? type.description ?? type.title,
    properties,
    bodies: { GET: { returns: t }, PUT: { expects: t, returns: t }, PATCH: { returns: t }, DELETE: { returns: 'owl:Nothing' } },
  };
}

/** The classes of an API's routes: each type's, each list class's, and the entry point's. */
function apiClasses(api: Api): Record<string, HydraClass> {
  const v = api.vocabulary.prefix;
  const classes: Record<string, HydraClass> = {};
  for (const type of api.types) {
    classes[type.path] = typeClass(type);
    for (const r of type.relations) {
      if (r.kind !== 'to-many' || !r.listClass) continue;
      const member = r.target.linkedData.class;
      classes[`${type.path}/${r.path}`] = {
        id: `${v}:${r.listClass}`,
        title: `${capitalizedWords(r.member)} list`,
        description: r.description ?? `A ${type.title.toLowerCase()}'s ${r.title.toLowerCase()}, in pages (hydra:view)`,
        subClassOf: 'hydra:Collection',
        properties: [hydraProperty('hydra:member', member, `${r.title} on this page`, { writeable: false })],
        bodies: { GET: { returns: `${v}:${r.listClass}` }, ...(r.add ? { POST: { expects: member, returns: member } } : {}) },
      };
    }
  }
  classes['/'] = {
    id: `${v}:EntryPoint`,
    title: 'Entry point',
    description: `Where the API starts: the ${api.types.map((t) => t.title.toLowerCase()).join(' and ')} template${api.types.length > 1 ? 's' : ''}`,
    properties: api.types.map((t) => hydraProperty(`${v}:${entryTerm(t)}`, t.linkedData.class, `A ${t.title.toLowerCase()} by id (an IRI template)`, { writeable: false, link: 'templated' })),
    bodies: { GET: { returns: `${v}:EntryPoint` } },
  };
  return classes;
}

function capitalizedWords(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The entry point's term for a type's IRI template: the type's name (`player`), dashes made camel case. */
function entryTerm(type: ResourceType): string {
  return type.name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The JSON-LD context of the descriptions: Hydra, the API's prefixes and vocabulary, RDF, RDFS, XSD, OWL. */
function descriptionContext(api: Api): Node {
  return {
    hydra: HYDRA,
    ...api.prefixes,
    [api.vocabulary.prefix]: api.vocabulary.iri,
    rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
    rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    xsd: 'http://www.w3.org/2001/XMLSchema#',
    owl: 'http://www.w3.org/2002/07/owl#',
    ...(api.prefixes.schema === undefined ? { schema: 'https://schema.org/' } : {}),
  };
}

/**
 * The ApiDocumentation for a base URL: one supported class per route that has one (each type, each
 * list class, the entry point, the extensions' classes), its supported properties, and a supported
 * operation for every method the route table serves there (HEAD and OPTIONS aside), titled with the
 * Swagger description's summary of the same operation.
 *
 * @example
 * const doc = describeHydra(service.config, 'https://api.example.com');
 * doc['hydra:entrypoint']; // { '@id': 'https://api.example.com/' }
 */
export function describeHydra(config: ServiceConfig, baseUrl: string): Node {
  const context: OperationContext = { formats: [], bodyTypes: [], linkageFormats: [], patchDocumentTypes: [], linkageBodyTypes: [] };
  const operations = operationsOfService(config);
  const classes: Record<string, HydraClass> = apiClasses(config.api);
  for (const d of config.describe) Object.assign(classes, d.classes);
  const supportedClass: Node[] = [];
  for (const endpoint of config.endpoints) {
    const described = classes[endpoint.path];
    if (!described) continue;
    const supportedOperation = endpoint.methods
      .filter((method) => method !== 'HEAD' && method !== 'OPTIONS')
      .map((method) => {
        const bodies = described.bodies?.[method] ?? {};
        const summary = operations[endpoint.path]?.[method.toLowerCase()]?.(context).summary;
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
  const api = config.api;
  return {
    '@context': descriptionContext(api),
    '@id': `${baseUrl}${API_DOCUMENTATION_PATH}`,
    '@type': 'hydra:ApiDocumentation',
    'hydra:title': api.title,
    'hydra:description': api.description ?? api.title,
    'hydra:entrypoint': { '@id': `${baseUrl}/` },
    'hydra:supportedClass': supportedClass,
  };
}

/**
 * The entry point (the resource `hydra:entrypoint` names): the template of each type's item URL.
 *
 * @example
 * entryPoint(playerApi, 'https://api.example.com')['ph:player']['hydra:template']; // 'https://api.example.com/player/{id}'
 */
export function entryPoint(api: Api, baseUrl: string): Node {
  const v = api.vocabulary.prefix;
  const node: Node = {
    '@context': { hydra: HYDRA, [v]: api.vocabulary.iri },
    '@id': `${baseUrl}/`,
    '@type': `${v}:EntryPoint`,
    'hydra:title': api.title,
  };
  for (const type of api.types) {
    const id = type.field(type.idField)!;
    node[`${v}:${entryTerm(type)}`] = {
      '@type': 'hydra:IriTemplate',
      'hydra:template': `${baseUrl}${type.path}`,
      'hydra:variableRepresentation': { '@id': 'hydra:BasicRepresentation' },
      'hydra:mapping': [{ '@type': 'hydra:IriTemplateMapping', 'hydra:variable': 'id', 'hydra:property': { '@id': id.iri }, 'hydra:required': true }],
    };
  }
  return node;
}
