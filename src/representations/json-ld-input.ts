// Reading JSON-LD request bodies: expanded in safe mode with their own context (or the API's), one node of the
// type's writable properties, or a reference by @id.
import { HttpError } from '../core/http/problem.js';
import type { ItemInput } from '../core/model/representation.js';
import type { Api, ResourceType } from '../core/model/api.js';
import { linkedDataContext } from '../core/model/terms.js';
import { inputFromTerms, pointerToken, requireObject } from './term-input.js';
import { checkJsonLdBody } from './json-ld-limits.js';
import { contextLoader } from './json-ld-context.js';

/** A JSON-LD node, loosely typed. */
type Node = Record<string, unknown>;

/** An expanded IRI of a compact one (`schema:name`) with the API's context; an IRI stays as it is. */
function expandIri(api: Api, compact: string): string {
  const colon = compact.indexOf(':');
  const prefix = colon > 0 ? linkedDataContext(api)[compact.slice(0, colon)] : undefined;
  return typeof prefix === 'string' ? prefix + compact.slice(colon + 1) : compact;
}

/** Per type: the expanded IRIs of the fields a body may carry (to their alternate names), and of its relations (server-owned links, ignored). */
const bodyTerms = new WeakMap<ResourceType, { fields: ReadonlyMap<string, string>; links: ReadonlySet<string> }>();

function termsOf(type: ResourceType): { fields: ReadonlyMap<string, string>; links: ReadonlySet<string> } {
  let terms = bodyTerms.get(type);
  if (terms === undefined) {
    const fields = new Map<string, string>();
    for (const f of type.writable) fields.set(canonicalIri(expandIri(type.api, f.iri)), f.term);
    terms = { fields, links: new Set(type.relations.map((r) => expandIri(type.api, r.iri))) };
    bodyTerms.set(type, terms);
  }
  return terms;
}

/** schema.org is published under both http and https; its own context still uses http. */
function canonicalIri(iri: string): string {
  return iri.startsWith('http://schema.org/') ? `https://schema.org/${iri.slice('http://schema.org/'.length)}` : iri;
}

/** A short reason from a jsonld error: the dropped term (safe mode), the refused context, or its message. */
function describeJsonLdError(error: unknown): string {
  const e = error as { message?: string; details?: { url?: string; cause?: { message?: string }; event?: { message?: string; details?: { property?: string; type?: unknown } } } };
  const event = e.details?.event;
  if (event?.details?.property !== undefined) return `the term "${event.details.property}" is not defined by the context (${event.message})`;
  if (event) return `${event.message} ${JSON.stringify(event.details ?? {})}`;
  if (e.details?.url !== undefined) return `the context ${e.details.url} cannot be loaded (${e.details.cause?.message ?? 'not fetched'})`;
  return e.message ?? 'invalid JSON-LD';
}

function bad(detail: string, cause?: unknown, pointer = ''): HttpError {
  return new HttpError(400, `The JSON-LD request body cannot be read: ${detail}`, { errors: [{ pointer, detail }], cause });
}

/**
 * The pointer to the body's member that expanded to `iri`, when the member is named by the IRI itself
 * or by its last segment (the usual compact form); else the whole body.
 */
function memberNaming(object: Node, iri: string): string {
  const local = iri.slice(Math.max(iri.lastIndexOf('/'), iri.lastIndexOf('#'), iri.lastIndexOf(':')) + 1);
  for (const name of [iri, local]) if (Object.hasOwn(object, name)) return `/${pointerToken(name)}`;
  return '';
}

/**
 * Reads a JSON-LD request body for `type` by expanding it (JSON-LD 1.1 API section 4.1) in safe mode:
 * with its own `@context` (the API's by URL, schema.org, or any inline context), or with the API's when
 * it has none. So any equivalent JSON-LD works: `{"@context": "https://schema.org", ...}` too. One node
 * is expected, with the properties of the type's writable fields; its `@id` is a reference to an
 * existing item. Remote contexts are never fetched (400).
 *
 * @example
 * await readJsonLdBody({ name: 'Dune' }, bookType); // { fields: { title: 'Dune' }, pointers: { title: '/name' } }
 */
export async function readJsonLdBody(body: unknown, type: ResourceType): Promise<ItemInput> {
  const object = requireObject(body, 'JSON-LD');
  checkJsonLdBody(object);
  const { default: jsonld } = await import('jsonld');
  const api = type.api;
  let expanded: Node[];
  try {
    // keepFreeFloatingNodes: a body that is only `{"@id": ...}` (a reference) is a node, not noise.
    const options = { documentLoader: contextLoader(api), safe: true, keepFreeFloatingNodes: true, ...('@context' in object ? {} : { expandContext: linkedDataContext(api) }) };
    expanded = (await jsonld.expand(object as never, options as never)) as unknown as Node[];
  } catch (error) {
    throw bad(describeJsonLdError(error), error);
  }
  if (expanded.length !== 1) throw bad(`expected one node, found ${expanded.length}`);
  const node = expanded[0]!;
  const terms = termsOf(type);
  const values: [string, unknown, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    // @type is informative; a relation is a server-owned link of a rendered item sent back as is.
    if (key === '@id' || key === '@type' || terms.links.has(key)) continue;
    const name = terms.fields.get(canonicalIri(key));
    if (name === undefined) {
      throw bad(`property <${key}> is not a ${type.title.toLowerCase()} field (expected ${[...terms.fields.values()].join(', ')})`, undefined, memberNaming(object, key));
    }
    const list = value as Node[];
    if (list.length !== 1) throw bad(`<${key}> must have exactly one value`);
    const v = list[0]!;
    values.push([name, '@value' in v ? v['@value'] : v['@id'], `/${name}`]);
  }
  const id = node['@id'];
  return inputFromTerms(type, values, typeof id === 'string' && !id.startsWith('_:') ? { value: id, pointer: '/@id' } : undefined);
}
