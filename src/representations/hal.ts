// HAL (application/hal+json, draft-kelly-json-hal): _links, state fields, _embedded items.
import { HttpError } from '../core/http/problem.js';
import type { ItemInput, Representation } from '../core/model/representation.js';
import type { Api, ResourceType } from '../core/model/api.js';
import type { Item, Link, Page, Resource } from '../core/model/resource.js';
import { keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import { inputFromTerms, pointerToken, requireObject } from './term-input.js';
import { termMembers } from './term-fields.js';
import { flat, holes, interleave, jsonKey, jsonNumber, jsonString, uriChars, urisAreVerified, withUris } from '../core/json/text.js';
import { derivableRelations } from './derived-links.js';
import { embeddedRelations } from './link-relations.js';
import { arrayOf, fieldMembers, HREF_SCHEMA, inputMembers, objectSchema, type DescribedDocument } from '../core/model/document-schemas.js';
import type { JsonSchema } from '../core/model/declaration.js';

/**
 * The media type of HAL (draft-kelly-json-hal section 3).
 *
 * @example
 * new Request(url, { headers: { Accept: HAL_MEDIA_TYPE } });
 */
export const HAL_MEDIA_TYPE = 'application/hal+json';

/**
 * A HAL Link Object (draft-kelly-json-hal section 5): `href` is a URI, or a URI Template when
 * `templated` is true.
 *
 * @example
 * const link: HalLink = { href: 'https://x.test/book/dune/reviews/search{?search}', templated: true };
 */
export interface HalLink {
  href: string;
  templated?: boolean;
  type?: string;
  title?: string;
  name?: string;
}

/**
 * The CURIEs declared on every root resource of an API (draft-kelly-json-hal section 8.2): `<prefix>:<rel>`
 * names a relation of the API's vocabulary. Embedded resources do not repeat them.
 *
 * @example
 * halCuries(api)[0].href.replace('{rel}', 'reviews'); // 'https://example.com/vocab#reviews'
 */
export function halCuries(api: Api): readonly HalLink[] {
  return [{ name: api.vocabulary.prefix, href: `${api.vocabulary.iri}{rel}`, templated: true }];
}

/** The curies member of each API, written once: every root resource carries the same one. */
const curiesMembers = new WeakMap<Api, string>();

function curiesMember(api: Api): string {
  let member = curiesMembers.get(api);
  if (member === undefined) curiesMembers.set(api, (member = flat(`,"curies":${JSON.stringify(halCuries(api))}`)));
  return member;
}

/** The end of a Link Object (section 5) after its href's characters: templated, type and title when present. */
function halLinkTail(link: Link): string {
  if (!link.templated && link.type === undefined && link.title === undefined) return '"}';
  let out = '"';
  if (link.templated) out += ',"templated":true';
  if (link.type !== undefined) out += `,"type":${jsonString(link.type)}`;
  if (link.title !== undefined) out += `,"title":${jsonString(link.title)}`;
  return `${out}}`;
}

function halLink(link: Link): string {
  return `{"href":"${uriChars(link.href)}${halLinkTail(link)}`;
}

/**
 * `_links`: one Link Object per relation, an array when a relation repeats (section 4.1.1), in the
 * order relations first appear; the root's curies right after self (section 8.2).
 */
function halLinks(links: readonly Link[], curies: string | undefined): string {
  let out = '{';
  let sep = '';
  next: for (let i = 0; i < links.length; i++) {
    const rel = links[i]!.rel;
    // The curies are this format's own; a link of a hand-built resource named so is left out.
    if (rel === 'curies') continue;
    for (let j = 0; j < i; j++) if (links[j]!.rel === rel) continue next;
    let value = halLink(links[i]!);
    let repeated = false;
    for (let j = i + 1; j < links.length; j++) {
      if (links[j]!.rel !== rel) continue;
      value += `,${halLink(links[j]!)}`;
      repeated = true;
    }
    out += `${sep}${jsonKey(rel)}${repeated ? `[${value}]` : value}`;
    sep = ',';
    if (curies !== undefined && rel === 'self') out += curies;
  }
  return `${out}}`;
}

/**
 * An item in `_embedded` is partial (section 4.1.2 allows it): only the links a client follows from a
 * list, `self` and its relations, and its state; its other links and the curies are on its own
 * representation.
 */
function halEmbedded(doc: Item): string {
  return keptItemText(embeddedTexts, doc, embeddedText);
}

/**
 * The embedded text of each shared document of a listed item (`keptItemText`: listed on more than
 * one page while the item is unchanged), kept with it. The same text whether or not the page's URIs
 * were verified (verification only skips escaping that would change nothing).
 */
const embeddedTexts = keptTextSlot();

/** Per type, the relations an embedded item links and the text before each link (`{"self":` then `,"members":`). */
const embeddedKeys = new WeakMap<ResourceType, { rels: readonly string[]; firsts: readonly string[]; nexts: readonly string[] }>();

function embeddedKeysOf(type: ResourceType): { rels: readonly string[]; firsts: readonly string[]; nexts: readonly string[] } {
  let keys = embeddedKeys.get(type);
  if (keys === undefined) {
    const rels = embeddedRelations(type);
    keys = { rels, firsts: rels.map((rel) => flat(`{${jsonKey(rel)}`)), nexts: rels.map((rel) => flat(`,${jsonKey(rel)}`)) };
    embeddedKeys.set(type, keys);
  }
  return keys;
}

/** Per type whose relation links derive from an item's URL: the `_links` of an embedded item around its URL (`holes`). */
const embeddedHoles = new WeakMap<ResourceType, readonly string[] | null>();

function embeddedHolesOf(type: ResourceType): readonly string[] | null {
  let found = embeddedHoles.get(type);
  if (found === undefined) {
    const relations = derivableRelations(type);
    found = relations ? holes(`{"_links":{"self":{"href":"\u0000"}${relations.map((r) => `,${jsonKey(r.name)}{"href":"\u0000/${r.path}"}`).join('')}}`) : null;
    embeddedHoles.set(type, found);
  }
  return found;
}

function embeddedText(doc: Item): string {
  const derived = urisAreVerified() ? embeddedHolesOf(doc.type) : null;
  if (derived !== null) return `${interleave(derived, doc.url)}${termMembers(doc)}}`;
  const { rels, firsts, nexts } = embeddedKeysOf(doc.type);
  const all = doc.links;
  let links = '';
  for (let i = 0; i < rels.length; i++) {
    const rel = rels[i]!;
    let link: Link | undefined;
    for (let j = 0; j < all.length; j++) {
      if (all[j]!.rel === rel) {
        link = all[j];
        break;
      }
    }
    if (link !== undefined) links += (links === '' ? firsts[i]! : nexts[i]!) + halLink(link);
  }
  return `{"_links":${links === '' ? '{' : links}}${termMembers(doc)}}`;
}

/** A page's HAL text without its closing brace (see `halOpenText`). */
function halPage(doc: Page): string {
  const items = new Array<string>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) items[i] = halEmbedded(doc.items[i]!);
  const p = doc.paging;
  // A search that stopped counting says how many it counted as `totalAtLeast` instead of `total`.
  const total = p.totalIsLowerBound ? `"totalAtLeast":${jsonNumber(p.total)}` : `"total":${jsonNumber(p.total)}`;
  let out = `{"_links":${halLinks(doc.links, curiesMember(doc.type.api))},"size":${jsonString(String(p.size))},${total},"page":${jsonNumber(p.page)}`;
  if (doc.search !== undefined) out += `,"query":${jsonString(doc.search)}`;
  return `${out},"_embedded":{${jsonKey(doc.type.name)}[${items.join(',')}]}`;
}

/**
 * The HAL text of `resource` without its closing brace, for a format that adds members to it (HAL-FORMS
 * adds `_templates`): appending costs nothing, where cutting the brace off a finished text would copy it.
 * Call it inside `withUris(resource, ...)`.
 *
 * @example
 * const text = withUris(resource, () => `${halOpenText(resource)}}`); // what halRepresentation.render writes
 */
export function halOpenText(resource: Resource): string {
  return resource.kind === 'item' ? `{"_links":${halLinks(resource.links, curiesMember(resource.type.api))}${termMembers(resource)}` : halPage(resource);
}

/**
 * Reads a HAL request body for `type`: its state fields in their alternate names (a new item), or a
 * reference to an existing item by its id field or by `_links.self.href`. `_embedded` is ignored; any
 * other member is 400.
 *
 * @example
 * readHalBody({ _links: { self: { href: 'https://x.test/book/dune' } } }, bookType); // { fields: {}, ref: 'https://x.test/book/dune' }
 */
export function readHalBody(body: unknown, type: ResourceType): ItemInput {
  const object = requireObject(body, 'HAL');
  let ref: { value: string; pointer: string } | undefined;
  const values: [string, unknown, string][] = [];
  for (const [name, value] of Object.entries(object)) {
    if (name === '_embedded') continue;
    if (name === '_links') {
      const href = selfHref(value);
      if (href !== undefined) ref = { value: href, pointer: '/_links/self/href' };
    } else values.push([name, value, `/${pointerToken(name)}`]);
  }
  return inputFromTerms(type, values, ref);
}

function selfHref(links: unknown): string | undefined {
  const object = requireObject(links, 'HAL _links', '/_links');
  if (object.self === undefined) return undefined;
  const href = (object.self as { href?: unknown } | null)?.href;
  if (typeof href !== 'string' || href === '') {
    throw new HttpError(400, 'A HAL self link must be an object with an href string.', {
      errors: [{ pointer: '/_links/self/href', detail: 'must be a non-empty string' }],
    });
  }
  return href;
}

/** A Link Object (section 5). */
const LINK_SCHEMA = objectSchema({ href: HREF_SCHEMA, templated: { type: 'boolean' }, type: { type: 'string' }, title: { type: 'string' }, name: { type: 'string' } }, ['href'], true);

/** `_links` (section 4.1.1): a Link Object or an array of them per relation, self among them. */
const LINKS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['self'],
  properties: { self: LINK_SCHEMA, curies: arrayOf(LINK_SCHEMA) },
  additionalProperties: { anyOf: [LINK_SCHEMA, arrayOf(LINK_SCHEMA)] },
};

/**
 * The JSON Schema of a HAL document: an item is `_links` (with self) and its state by alternate name; a
 * page `_links`, `size` (a string of digits), `total` or `totalAtLeast`, `page`, `query` on searches,
 * and its members in `_embedded.<type name>`; a body state members, and `_links.self` naming an existing
 * item.
 *
 * @example
 * describeHal({ kind: 'item', type: bookType }).required; // ['_links', 'isbn']
 */
export function describeHal(document: DescribedDocument): JsonSchema | undefined {
  switch (document.kind) {
    case 'item': {
      const { properties, required } = fieldMembers(document.type, 'term');
      return objectSchema({ _links: LINKS_SCHEMA, ...properties }, ['_links', ...required]);
    }
    case 'page': {
      const embedded = document.type.name;
      const count = { type: 'integer', minimum: 0 };
      return objectSchema(
        {
          _links: LINKS_SCHEMA,
          size: { type: 'string', pattern: '^[0-9]+$' },
          total: count,
          totalAtLeast: count,
          page: { type: 'integer', minimum: 1 },
          query: { type: 'string' },
          _embedded: objectSchema({ [embedded]: arrayOf(describeHal({ kind: 'item', type: document.type })!) }, [embedded]),
        },
        ['_links', 'size', 'page', '_embedded'],
      );
    }
    case 'input':
      return objectSchema({ _links: objectSchema({ self: objectSchema({ href: HREF_SCHEMA }, ['href']) }), _embedded: { type: 'object' }, ...inputMembers(document.fields, false) });
    default:
      return undefined;
  }
}

/**
 * HAL: an item is `{ _links: { self, curies, <relations>, <links>, search }, <state in alternate names> }`;
 * a page is `{ _links: { self, curies, first, prev, next, last, up, search }, size, total, page,
 * _embedded: { <type name>: [...] } }` (`size` a string, as collection-style forms carry it), its embedded
 * items partial: `_links` self and their relations, and their state. Request bodies of type
 * application/hal+json are read by `readHalBody`.
 *
 * @example
 * const res = await service.fetch(new Request(url, { headers: { Accept: 'application/hal+json' } }));
 * (await res.json())._links.self.href;
 */
export const halRepresentation: Representation = {
  name: 'hal',
  title: 'HAL',
  mediaType: HAL_MEDIA_TYPE,
  bodyMediaTypes: [HAL_MEDIA_TYPE],
  render(resource: Resource): string {
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object.
    return withUris(resource, () => `${halOpenText(resource)}}`);
  },
  readBody: (body, _mediaType, type) => readHalBody(body, type),
  describe: describeHal,
};
