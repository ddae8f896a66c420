// Collection+JSON (application/vnd.collection+json, version 1.0): items, links, queries and a write template.
import { keptItemText, keptTextSlot } from '../core/model/kept-documents.js';
import type { Representation } from '../core/model/representation.js';
import type { ResourceType } from '../core/model/api.js';
import type { Item, Link, Operation, Page, Resource } from '../core/model/resource.js';
import { flat, holes, jsonString, jsonUri, uriChars, urisAreVerified, withUris } from '../core/json/text.js';
import { derivableRelations } from './derived-links.js';
import { FieldWriter, writerOf, type FieldShape } from './field-text.js';
import { readCollectionJsonBody } from './collection-json-input.js';
import { describeCollectionJson } from './collection-json-schema.js';

export { readCollectionJsonBody } from './collection-json-input.js';
export { describeCollectionJson } from './collection-json-schema.js';

/**
 * The media type of Collection+JSON (registered with IANA by M. Amundsen).
 *
 * @example
 * new Request(url, { method: 'POST', headers: { 'Content-Type': COLLECTION_JSON_MEDIA_TYPE }, body });
 */
export const COLLECTION_JSON_MEDIA_TYPE = 'application/vnd.collection+json';

/**
 * A name/value/prompt entry of `data` (Collection+JSON section 2.3.4).
 *
 * @example
 * const entry: CollectionJsonData = { name: 'name', value: 'Dune', prompt: 'Title' };
 */
export interface CollectionJsonData {
  name: string;
  value?: string | number | boolean | null;
  prompt?: string;
}

/**
 * A link (section 2.3.3): `render` is `link` or `image`.
 *
 * @example
 * const cover: CollectionJsonLink = { rel: 'cover', href: 'https://x.test/book/dune/cover.png', prompt: 'Cover', render: 'image' };
 */
export interface CollectionJsonLink {
  rel: string;
  href: string;
  prompt?: string;
  render?: 'link' | 'image';
  name?: string;
}

/**
 * A query (section 2.1.3): a GET whose `data` become query parameters of `href`.
 *
 * @example
 * const q: CollectionJsonQuery = { rel: 'search', href: 'https://x.test/book/dune/reviews/search', data: [{ name: 'search', value: '' }] };
 */
export interface CollectionJsonQuery {
  rel: string;
  href: string;
  name?: string;
  prompt?: string;
  data: CollectionJsonData[];
}

/** Prompts of the paging relations, the same for every list. */
const PAGING_PROMPTS: Readonly<Record<string, string>> = {
  self: 'This page',
  first: 'First page',
  prev: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

/**
 * The fixed text of a link (section 2.3.3) around its href, `{"rel":R,"href":"` and
 * `","prompt":P,"render":X}`, remembered with the type and prompt it was made for.
 */
interface LinkText {
  type: string | undefined;
  prompt: string;
  head: string;
  tail: string;
}

const linkTexts = new Map<string, LinkText>();

/** A link's prompt: its title, else the label the model gave it, else the paging prompt, else its relation. */
function promptOf(link: Link): string {
  return link.title ?? link.prompt ?? PAGING_PROMPTS[link.rel] ?? link.rel;
}

/** An image type renders as `image`, anything else as `link`. */
function linkText(link: Link, prompt: string): LinkText {
  const render = link.type !== undefined && link.type.startsWith('image/') ? 'image' : 'link';
  return { type: link.type, prompt, head: flat(`{"rel":${jsonString(link.rel)},"href":"`), tail: flat(`","prompt":${jsonString(prompt)},"render":"${render}"}`) };
}

/** The fixed text of `link`, remembered per relation. */
function fixedText(link: Link): LinkText {
  const prompt = promptOf(link);
  let text = linkTexts.get(link.rel);
  if (text === undefined || text.type !== link.type || text.prompt !== prompt) {
    text = linkText(link, prompt);
    if (linkTexts.size < 256) linkTexts.set(link.rel, text);
  }
  return text;
}

/**
 * The links that are URIs, as a JSON array of `{"rel","href","prompt","render"}` (section 2.3.3):
 * templated links become queries, and an item's own URI is its href (`skipSelf`).
 */
function cjLinks(links: readonly Link[], skipSelf: boolean): string {
  let out = '';
  for (const link of links) {
    if (link.templated || (skipSelf && link.rel === 'self')) continue;
    const text = fixedText(link);
    out += `${out === '' ? '' : ','}${text.head}${uriChars(link.href)}${text.tail}`;
  }
  return `[${out}]`;
}

/**
 * A templated link `base{?a,b}` (RFC 6570 form-style query) as a query with data a and b, prefilled
 * from `current` (the text of a search page); the operation at `base`, or the link's own variables,
 * name and label it.
 */
function cjQueries(links: readonly Link[], operations: readonly Operation[], current: Record<string, string> = {}): string {
  const out: string[] = [];
  for (const link of links) {
    const match = link.templated ? /^([^{]*)\{\?([^}]+)\}$/.exec(link.href) : null;
    if (!match) continue;
    const href = match[1]!;
    const op = operations.find((o) => o.method === 'GET' && o.href === href);
    const data = match[2]!.split(',').map((name) => {
      const prompt = op?.fields.find((f) => f.name === name)?.title ?? link.variables?.find((v) => v.name === name)?.title ?? name;
      return `{"name":${jsonString(name)},"value":${jsonString(current[name] ?? '')},"prompt":${jsonString(prompt)}}`;
    });
    const name = op?.name ?? link.rel;
    const prompt = op?.title ?? promptOf(link);
    out.push(`{"rel":${jsonString(link.rel)},"href":${jsonUri(href)},"name":${jsonString(name)},"prompt":${jsonString(prompt)},"data":[${data.join(',')}]}`);
  }
  return `[${out.join(',')}]`;
}

/**
 * The prompt of a data entry named by a term: the title of the field a client writes under
 * that name, else of the field shown under it (a data name has one prompt, in items and template alike).
 */
function dataPrompt(type: ResourceType, alternate: string): string {
  const writable = type.fieldByTerm(alternate);
  if (writable) return writable.title;
  return type.fields.find((f) => f.term === alternate)?.title ?? alternate;
}

/** Per type, each readable field with the text before its value: `{"name":N,"value":"` (section 2.3.4). */
/** Per type, its readable fields written as data entries (section 2.3.4): `{"name":N,"value":V,"prompt":P}`. */
const dataWriters = new WeakMap<ResourceType, FieldWriter>();

/** Data entries of a type's fields: `{"name":N,"value":` before a value, `,"prompt":P}` after it. */
function dataShape(type: ResourceType): FieldShape {
  return {
    before: (field, quote) => `{"name":${jsonString(field.term)},"value":${quote}`,
    after: (field, quote) => `${quote},"prompt":${jsonString(dataPrompt(type, field.term))}}`,
  };
}

function dataWriterOf(type: ResourceType): FieldWriter {
  return writerOf(dataWriters, type, (t) => new FieldWriter(t.termOrder, dataShape(t)));
}

/**
 * The links of an item: its relations and its other links (a picture rendered as an image). Its own
 * URI is its href; its search template is a query of its own collection.
 */
function itemLinks(doc: Item): string {
  let out = '';
  for (const link of doc.links) {
    if (link.rel === 'self' || link.templated) continue;
    const text = fixedText(link);
    out = out === '' ? `${text.head}${uriChars(link.href)}${text.tail}` : `${out},${text.head}${uriChars(link.href)}${text.tail}`;
  }
  return `[${out}]`;
}

/** An item (section 2.1.2): href, data of name/value/prompt in their terms, and its links. */
/**
 * Per type whose relation links derive from an item's URL: its data entries (after its href, before
 * its links: the fixed parts merged with the entries') and its links around its URL (`holes`).
 */
const itemHoles = new WeakMap<ResourceType, { writer: FieldWriter; tail: readonly string[] } | null>();

function itemHolesOf(type: ResourceType): { writer: FieldWriter; tail: readonly string[] } | null {
  let found = itemHoles.get(type);
  if (found === undefined) {
    const relations = derivableRelations(type);
    if (relations === undefined) found = null;
    else {
      const link = (rel: string, suffix: string, prompt: string, image: boolean) =>
        `{"rel":${jsonString(rel)},"href":"\u0000/${suffix}","prompt":${jsonString(prompt)},"render":"${image ? 'image' : 'link'}"}`;
      const links = [
        ...relations.map((r) => link(r.name, r.path, r.title, false)),
        ...type.links.map((l) => link(l.rel, l.path, l.title, l.type !== undefined && l.type.startsWith('image/'))),
      ];
      const pieces = holes(`],"links":[${links.join(',')}]}`);
      const data = dataWriterOf(type);
      found = { writer: new FieldWriter(data.fields, dataShape(type), '","data":[', pieces[0]), tail: pieces.slice(1) };
    }
    itemHoles.set(type, found);
  }
  return found;
}

/** The text of each shared listed item (`keptItemText`). */
const listedTexts = keptTextSlot();

function cjItem(doc: Item): string {
  const derived = urisAreVerified() ? itemHolesOf(doc.type) : null;
  if (derived !== null) {
    let out = `{"href":"${doc.url}${derived.writer.write(doc.fields, false)}`;
    for (const piece of derived.tail) out += doc.url + piece;
    return out;
  }
  return `{"href":"${uriChars(doc.url)}","data":[${dataWriterOf(doc.type).write(doc.fields, false)}],"links":${itemLinks(doc)}}`;
}

/** The write template of the POST operation at `href` (section 2.1.4), the id first when the list adds an existing member by it. */
function cjTemplate(page: Page, href: string): string | undefined {
  const op = page.operations.find((o) => o.method === 'POST' && o.href === href);
  if (!op) return undefined;
  const type = page.type;
  const id = type.field(type.idField)!;
  const entries: string[] = [];
  if (page.relation.add?.reference) entries.push(`{"name":${jsonString(id.term)},"value":"","prompt":${jsonString(dataPrompt(type, id.term))}}`);
  for (const f of op.fields) {
    if (f.name !== id.term) entries.push(`{"name":${jsonString(f.name)},"value":"","prompt":${jsonString(type.fieldByTerm(f.name)?.title ?? f.title)}}`);
  }
  return `{"data":[${entries.join(',')}]}`;
}

function cjItemCollection(doc: Item): string {
  // The item's links also sit at the collection level, where generic clients look for them.
  return `{"collection":{"version":"1.0","href":${jsonUri(doc.url)},"links":${cjLinks(doc.links, true)},"items":[${cjItem(doc)}],"queries":${cjQueries(doc.links, doc.operations)}}}`;
}

function cjPage(doc: Page): string {
  const href = doc.collectionUrl;
  const items = new Array<string>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) items[i] = keptItemText(listedTexts, doc.items[i]!, cjItem);
  const queries = cjQueries(doc.links, doc.operations, doc.search === undefined ? {} : { search: doc.search });
  const template = cjTemplate(doc, href);
  return `{"collection":{"version":"1.0","href":${jsonUri(href)},"links":${cjLinks(doc.links, false)},"items":[${items.join(',')}],"queries":${queries}${template === undefined ? '' : `,"template":${template}`}}}`;
}

/**
 * Collection+JSON: an item is a collection of one item (`href`, `data` of name/value/prompt in the
 * alternate names, `links` with pictures as `render: "image"`), with the item's links and its search
 * queries; a page is the list as a collection with this page's items, paging links (self, first, prev,
 * next, last, up), the search query and the add template (the id, then the fields a new member is
 * made of, empty values).
 *
 * @example
 * const res = await service.fetch(new Request(url, { headers: { Accept: 'application/vnd.collection+json' } }));
 * (await res.json()).collection.items[0].data;
 */
export const collectionJsonRepresentation: Representation = {
  name: 'collection',
  title: 'Collection+JSON',
  mediaType: COLLECTION_JSON_MEDIA_TYPE,
  bodyMediaTypes: [COLLECTION_JSON_MEDIA_TYPE],
  render(resource: Resource): string {
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object.
    return withUris(resource, () => (resource.kind === 'item' ? cjItemCollection(resource) : cjPage(resource)));
  },
  readBody: (body, _mediaType, type) => readCollectionJsonBody(body, type),
  describe: describeCollectionJson,
};
