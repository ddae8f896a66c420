// JSON-LD (application/ld+json): schema.org persons in Hydra collections, with the context inline.
import { friendsUrl } from '../player/urls.js';
import { HttpError } from '../core/http/problem.js';
import type { PlayerInput, Representation } from '../core/model/representation.js';
import { findLink, type FriendsResource, type Link, type Operation, type OperationField, type PlayerResource, type Resource } from '../core/model/resource.js';
import { playerInputFromAlternate, pointerToken, requireObject } from './alternate-input.js';
import { checkJsonLdBody } from './json-ld-limits.js';
import { loadPlayerContext, PLAYER_CONTEXT, SCHEMA } from './json-ld-context.js';
import { flat, jsonChars, uriChars, withUris } from '../core/json/text.js';
import { PLAYER_VOCAB } from './vocabulary.js';

/**
 * The media type of JSON-LD (JSON-LD 1.1 section C).
 *
 * @example
 * new Request(url, { headers: { Accept: JSON_LD_MEDIA_TYPE } });
 */
export const JSON_LD_MEDIA_TYPE = 'application/ld+json';

/** `{"@context":<context>,` once (flat): every document is this prefix plus its own members. */
const CONTEXT_PREFIX = flat(`{"@context":${JSON.stringify(PLAYER_CONTEXT)},`);

type Node = Record<string, unknown>;

/**
 * The members of a player's schema.org Person node and its closing brace, written directly (json-text.ts):
 * `@id` (its URL), `@type`, playerId, name, alternateName, image and `friends` (the friends list).
 */
function personMembers(doc: PlayerResource): string {
  const p = doc.player;
  const friends = findLink(doc.links, 'friends');
  const end = friends === undefined ? '"}' : `","friends":"${uriChars(friends.href)}"}`;
  return p.displayName === undefined
    ? `"@id":"${uriChars(doc.url)}","@type":"Person","playerId":"${jsonChars(p.playerId)}","alternateName":"${jsonChars(p.alias)}","image":"${uriChars(p.profilePhotoUrl)}${end}`
    : `"@id":"${uriChars(doc.url)}","@type":"Person","playerId":"${jsonChars(p.playerId)}","name":"${jsonChars(p.displayName)}","alternateName":"${jsonChars(p.alias)}","image":"${uriChars(p.profilePhotoUrl)}${end}`;
}

/** Hydra ranges of our HTML5 input types. */
const RANGES: Readonly<Record<OperationField['type'], string>> = {
  text: 'xsd:string',
  search: 'xsd:string',
  hidden: 'xsd:string',
  url: 'schema:URL',
  number: 'xsd:integer',
};

/** A Hydra operation (Hydra Core section 4.2) expecting a schema:Person, described by the fields as its supported properties. */
function operationNode(op: Operation): Node {
  // rdfs:range is a statement about the property (RDF Schema section 3.2), so it sits on the property
  // node, named by its compact IRI; the SupportedProperty says how this operation uses it.
  const supportedProperty = op.fields.map((f) => ({
    '@type': 'SupportedProperty',
    property: { '@id': termIri(f.name), range: RANGES[f.type] },
    required: f.required,
    title: f.title,
  }));
  return { '@type': 'Operation', method: op.method, title: op.title, expects: { '@id': 'schema:Person', '@type': 'Class', supportedProperty } };
}

/** The compact IRI a term of the context stands for (`alternateName` → `schema:alternateName`). */
function termIri(term: string): string {
  const definition = (PLAYER_CONTEXT as Record<string, unknown>)[term];
  if (typeof definition === 'string') return definition;
  if (definition && typeof definition === 'object' && typeof (definition as { '@id'?: unknown })['@id'] === 'string') return (definition as { '@id': string })['@id'];
  return `ph:${term}`;
}

/** The operations performed on `href` itself; GETs with a query are IRI templates instead. */
function operationsAt(operations: readonly Operation[], href: string): Node[] | undefined {
  const out: Node[] = [];
  for (const op of operations) if (op.method !== 'GET' && op.href === href) out.push(operationNode(op));
  return out.length ? out : undefined;
}

/** The templated search link as a Hydra IriTemplate (Hydra Core section 4.4), `search` bound to freetextQuery. */
function searchTemplate(link: Link): Node {
  const variables = /\{\?([^}]+)\}/.exec(link.href)?.[1]?.split(',') ?? [];
  return {
    '@type': 'IriTemplate',
    template: link.href,
    variableRepresentation: 'BasicRepresentation',
    mapping: variables.map((variable) => ({ '@type': 'IriTemplateMapping', variable, property: 'freetextQuery', required: true })),
  };
}

/**
 * A page as a Hydra Collection: the members before `member` (`@id`, `@type`, the owner or the search,
 * totalItems) and after it (view, operation, search), as objects; the members themselves are text.
 */
function pageNode(doc: FriendsResource): { before: Node; after: Node } {
  const listUrl = friendsUrl(doc.ownerUrl);
  // A friend list is typed ph:FriendList too: the ApiDocumentation's class with the add-friend operation.
  const before: Node = { '@id': doc.collectionUrl, '@type': doc.query === undefined ? ['Collection', 'FriendList'] : 'Collection' };
  if (doc.query === undefined) {
    before.friendsOf = doc.ownerUrl;
  } else {
    before.freetextQuery = doc.query;
    const collection: Node = { '@id': listUrl, '@type': ['Collection', 'FriendList'], friendsOf: doc.ownerUrl };
    const ops = operationsAt(doc.operations, listUrl);
    if (ops) collection.operation = ops;
    before.collection = collection;
  }
  // Hydra's totalItems is exact: a search that stopped counting leaves it out.
  if (!doc.paging.totalIsLowerBound) before.totalItems = doc.paging.total;
  // Hydra Core section 5.1: the page is a PartialCollectionView of the collection.
  const view: Node = { '@id': doc.url, '@type': 'PartialCollectionView', size: String(doc.paging.size) };
  for (const [rel, term] of [['first', 'first'], ['prev', 'previous'], ['next', 'next'], ['last', 'last']] as const) {
    const link = findLink(doc.links, rel);
    if (link) view[term] = link.href;
  }
  const after: Node = { view };
  const ops = operationsAt(doc.operations, doc.collectionUrl);
  if (ops) after.operation = ops;
  const search = findLink(doc.links, 'search');
  if (search?.templated) after.search = searchTemplate(search);
  return { before, after };
}

/** A page: its members (`member`, the friends as Person nodes) written between the two halves of its node. */
function renderPage(doc: FriendsResource): string {
  const { before, after } = pageNode(doc);
  const members = new Array<string>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) members[i] = `{${personMembers(doc.items[i]!)}`;
  const head = JSON.stringify(before);
  // `before` holds @id and `after` holds view, so both serialize to `{"...}` and can be spliced.
  return `${CONTEXT_PREFIX}${head.slice(1, -1)},"member":[${members.join(',')}],${JSON.stringify(after).slice(1)}`;
}

/** Expanded IRIs of the properties a body may carry, and their alternate names. */
const BODY_PROPERTIES: ReadonlyMap<string, string> = new Map([
  [`${PLAYER_VOCAB}playerId`, 'playerId'],
  [`${SCHEMA}name`, 'name'],
  [`${SCHEMA}alternateName`, 'alternateName'],
  [`${SCHEMA}image`, 'image'],
]);

const FRIENDS_IRI = `${PLAYER_VOCAB}friends`;

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
 * Reads a JSON-LD request body by expanding it (JSON-LD 1.1 API section 4.1) in safe mode: with its own
 * `@context` (ours by URL, schema.org, or any inline context), or with ours when it has none. So any
 * equivalent JSON-LD works: `{"@context": "https://schema.org", "@type": "Person", "alternateName": "zoe"}`
 * too. One node is expected: schema:name, schema:alternateName, schema:image and our playerId; its
 * `@id` is a reference to an existing player. Remote contexts are never fetched (400).
 *
 * @example
 * await readJsonLdBody({ name: 'Zoe Quill', alternateName: 'zoe' }); // { fields: { displayName: 'Zoe Quill', alias: 'zoe' } }
 */
export async function readJsonLdBody(body: unknown): Promise<PlayerInput> {
  const object = requireObject(body, 'JSON-LD');
  checkJsonLdBody(object);
  const { default: jsonld } = await import('jsonld');
  let expanded: Node[];
  try {
    // keepFreeFloatingNodes: a body that is only `{"@id": ...}` (a reference) is a node, not noise.
    const options = { documentLoader: loadPlayerContext, safe: true, keepFreeFloatingNodes: true, ...('@context' in object ? {} : { expandContext: PLAYER_CONTEXT }) };
    expanded = (await jsonld.expand(object as never, options as never)) as unknown as Node[];
  } catch (error) {
    throw bad(describeJsonLdError(error), error);
  }
  if (expanded.length !== 1) throw bad(`expected one node, found ${expanded.length}`);
  const node = expanded[0]!;
  const values: [string, unknown, string][] = [];
  for (const [key, value] of Object.entries(node)) {
    // @type is informative; `friends` is a server-owned link of a rendered player sent back as is.
    if (key === '@id' || key === '@type' || key === FRIENDS_IRI) continue;
    const name = BODY_PROPERTIES.get(canonicalIri(key));
    if (name === undefined) throw bad(`property <${key}> is not a player field (expected playerId, name, alternateName or image)`, undefined, memberNaming(object, key));
    const list = value as Node[];
    if (list.length !== 1) throw bad(`<${key}> must have exactly one value`);
    const v = list[0]!;
    values.push([name, '@value' in v ? v['@value'] : v['@id'], `/${name}`]);
  }
  const id = node['@id'];
  return playerInputFromAlternate(values, typeof id === 'string' && !id.startsWith('_:') ? { value: id, pointer: '/@id' } : undefined);
}

/**
 * The parameters of application/ld+json (JSON-LD 1.1 section 9.1): `profile`, a list of URIs that does
 * not change the meaning of a document (so the compacted form we serve, and any form we read, satisfy
 * every profile), and `charset=utf-8`. Any other parameter is refused (406 / 415).
 *
 * @example
 * acceptsJsonLdParameters({ profile: 'http://www.w3.org/ns/json-ld#compacted' }); // true
 */
export function acceptsJsonLdParameters(params: Readonly<Record<string, string>>): boolean {
  for (const [name, value] of Object.entries(params)) {
    if (name === 'profile') continue;
    if (name !== 'charset' || value.toLowerCase() !== 'utf-8') return false;
  }
  return true;
}

/**
 * JSON-LD: a player is a schema.org Person (`@id` its URL, playerId, name, alternateName, image, and a
 * `friends` link); a friends page is a Hydra Collection (`@id` the list, totalItems, member players, a
 * PartialCollectionView `view` with size, first, previous, next and last), carrying the POST operation
 * that adds a friend (with its expected properties) and the search IriTemplate. The context is inline
 * and emitted as a prebuilt string: rendering runs no JSON-LD processor.
 *
 * @example
 * const res = await service.fetch(new Request(url, { headers: { Accept: 'application/ld+json' } }));
 * (await res.json())['@id']; // the player URL
 */
export const jsonLdRepresentation: Representation = {
  name: 'jsonld',
  mediaType: JSON_LD_MEDIA_TYPE,
  bodyMediaTypes: [JSON_LD_MEDIA_TYPE],
  acceptable: acceptsJsonLdParameters,
  render(resource: Resource): string {
    // JSON text written directly around JSON.stringify of the page-level nodes: byte-identical to
    // JSON.stringify of the whole node (json-text.ts).
    return withUris(resource, () => (resource.kind === 'player' ? CONTEXT_PREFIX + personMembers(resource) : renderPage(resource)));
  },
  readBody: (body) => readJsonLdBody(body),
};
