// The linked-data terms of an API as one JSON-LD context: its prefixes, each type's class, field and relation
// terms, and the Hydra terms the documents and the ApiDocumentation use.
import type { Api } from './api.js';

/**
 * The Hydra Core vocabulary namespace (https://www.hydra-cg.com/spec/latest/core/).
 *
 * @example
 * `${HYDRA}member`; // 'http://www.w3.org/ns/hydra/core#member'
 */
export const HYDRA = 'http://www.w3.org/ns/hydra/core#';

/** A JSON-LD context: terms to IRIs or term definitions. */
export type JsonLdContext = Readonly<Record<string, string | Readonly<Record<string, string>>>>;

/** The terms of collections, views, operations and IRI templates (Hydra), after the API's own. */
function hydraTerms(vocabulary: string): Record<string, string | Record<string, string>> {
  return {
    PartialCollectionView: 'hydra:PartialCollectionView',
    collection: { '@id': 'hydra:collection', '@type': '@id' },
    member: { '@id': 'hydra:member', '@type': '@id' },
    totalItems: 'hydra:totalItems',
    size: `${vocabulary}:size`,
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
  };
}

const contexts = new WeakMap<Api, JsonLdContext>();

/**
 * The JSON-LD context of an API (JSON-LD 1.1 section 3.1), made once: its prefixes, Hydra's, RDF
 * Schema's and XML Schema's, its vocabulary; then for each type its class term, the term of each field
 * (alternate name to property IRI; an IRI value typed `@id`) and of each relation (and its inverse,
 * `@reverse`); then the Hydra terms. No `@vocab`: a key outside the context is an error in safe mode,
 * never silently turned into an IRI. A term defined twice with two meanings is a TypeError.
 *
 * @example
 * linkedDataContext(playerApi).name; // 'schema:name'
 */
export function linkedDataContext(api: Api): JsonLdContext {
  const made = contexts.get(api);
  if (made) return made;
  const v = api.vocabulary.prefix;
  const context: Record<string, string | Record<string, string>> = {
    ...api.prefixes,
    hydra: HYDRA,
    rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    xsd: 'http://www.w3.org/2001/XMLSchema#',
    [v]: api.vocabulary.iri,
  };
  const define = (term: string, definition: string | Record<string, string>) => {
    const known = context[term];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(definition)) {
      throw new TypeError(`defineApi: the linked-data term "${term}" means both ${JSON.stringify(known)} and ${JSON.stringify(definition)}`);
    }
    context[term] = definition;
  };
  const hydra = hydraTerms(v);
  for (const type of api.types) {
    define(type.linkedData.term, type.linkedData.class);
    for (const f of [...type.termOrder, ...type.fields.filter((x) => x.access === 'write-only')]) {
      define(f.term, f.iriValue ? { '@id': f.iri, '@type': '@id' } : f.iri);
    }
    for (const r of type.relations) {
      define(r.name, { '@id': r.iri, '@type': '@id' });
      if (r.reverse) define(r.reverse, { '@reverse': r.iri, '@type': '@id' });
    }
  }
  define('Collection', 'hydra:Collection');
  for (const type of api.types) for (const r of type.relations) if (r.listClass) define(r.listClass, `${v}:${r.listClass}`);
  for (const [term, definition] of Object.entries(hydra)) define(term, definition);
  const frozen = deepFreeze(context);
  contexts.set(api, frozen);
  return frozen;
}

/**
 * The compact IRI a term of the API's context stands for (`alternateName` → `schema:alternateName`);
 * a term it does not define is taken as one of the API's vocabulary.
 *
 * @example
 * termIri(playerApi, 'alternateName'); // 'schema:alternateName'
 */
export function termIri(api: Api, term: string): string {
  const definition = linkedDataContext(api)[term];
  if (typeof definition === 'string') return definition;
  if (definition && typeof definition['@id'] === 'string') return definition['@id'];
  return `${api.vocabulary.prefix}:${term}`;
}

function deepFreeze<T extends object>(value: T): T {
  for (const v of Object.values(value)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(value);
}
