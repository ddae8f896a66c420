// Collection+JSON (application/vnd.collection+json, version 1.0): items, links, queries and a write template.
import { HttpError } from '../core/http/problem.js';
import type { PlayerInput, Representation } from '../core/model/representation.js';
import { findLink, type FriendsResource, type Link, type Operation, type PlayerResource, type Resource } from '../core/model/resource.js';
import { playerInputFromAlternate, pointerToken, requireObject } from './alternate-input.js';
import { flat, jsonChars, jsonString, jsonUri, uriChars, withUris } from '../core/json/text.js';

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
 * const entry: CollectionJsonData = { name: 'alternateName', value: 'zoe', prompt: 'Alias' };
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
 * const avatar: CollectionJsonLink = { rel: 'avatar', href: 'https://x.test/player/bob/avatar.png', prompt: 'Avatar', render: 'image' };
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
 * const q: CollectionJsonQuery = { rel: 'search', href: 'https://x.test/player/bob/friends/search', data: [{ name: 'search', value: '' }] };
 */
export interface CollectionJsonQuery {
  rel: string;
  href: string;
  name?: string;
  prompt?: string;
  data: CollectionJsonData[];
}

/** Prompts of the player fields, in the order they are listed. */
const FIELD_PROMPTS: Readonly<Record<string, string>> = {
  playerId: 'Player id',
  name: 'Full name',
  alternateName: 'Alias',
  image: 'Picture URL',
};

/** Prompts of the link relations we emit. */
const LINK_PROMPTS: Readonly<Record<string, string>> = {
  self: 'This page',
  first: 'First page',
  prev: 'Previous page',
  next: 'Next page',
  last: 'Last page',
  up: 'Owner of the list',
  collection: 'All friends',
  friends: 'Friends',
  avatar: 'Avatar',
  search: 'Search friends',
};

/**
 * The fixed text of a link (section 2.3.3) around its href, `{"rel":R,"href":"` and
 * `","prompt":P,"render":X}`, for a relation without a title, remembered with the type it was made for.
 */
interface LinkText {
  type: string | undefined;
  head: string;
  tail: string;
}

const linkTexts = new Map<string, LinkText>();

/** A link's prompt is its title, else the prompt of its relation; an image type renders as `image`. */
function linkText(link: Link): LinkText {
  const render = link.type !== undefined && link.type.startsWith('image/') ? 'image' : 'link';
  const prompt = link.title ?? LINK_PROMPTS[link.rel] ?? link.rel;
  return { type: link.type, head: flat(`{"rel":${jsonString(link.rel)},"href":"`), tail: flat(`","prompt":${jsonString(prompt)},"render":"${render}"}`) };
}

/** The fixed text of `link`, remembered per relation when it has no title. */
function fixedText(link: Link): LinkText {
  let text = link.title === undefined ? linkTexts.get(link.rel) : undefined;
  if (text === undefined || text.type !== link.type) {
    text = linkText(link);
    if (link.title === undefined && linkTexts.size < 256) linkTexts.set(link.rel, text);
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

/** Prompts of query variables, when no operation names them. */
const VARIABLE_PROMPTS: Readonly<Record<string, string>> = { search: 'Text in alias or name' };

/**
 * A templated link `base{?a,b}` (RFC 6570 form-style query) as a query with data a and b, prefilled
 * from `current` (the text of a search page).
 */
function cjQueries(links: readonly Link[], operations: readonly Operation[], current: Record<string, string> = {}): string {
  const out: string[] = [];
  for (const link of links) {
    const match = link.templated ? /^([^{]*)\{\?([^}]+)\}$/.exec(link.href) : null;
    if (!match) continue;
    const href = match[1]!;
    const op = operations.find((o) => o.method === 'GET' && o.href === href);
    const data = match[2]!.split(',').map((name) => {
      const prompt = op?.fields.find((f) => f.name === name)?.title ?? VARIABLE_PROMPTS[name] ?? name;
      return `{"name":${jsonString(name)},"value":${jsonString(current[name] ?? '')},"prompt":${jsonString(prompt)}}`;
    });
    const name = op?.name ?? link.rel;
    const prompt = op?.title ?? LINK_PROMPTS[link.rel] ?? link.rel;
    out.push(`{"rel":${jsonString(link.rel)},"href":${jsonUri(href)},"name":${jsonString(name)},"prompt":${jsonString(prompt)},"data":[${data.join(',')}]}`);
  }
  return `[${out.join(',')}]`;
}

/** `{"name":N,"value":"` of a data entry (section 2.3.4), and `","prompt":P}` after its value. */
const valueOf = (name: string) => `{"name":${JSON.stringify(name)},"value":"`;
const promptOf = (name: string) => `","prompt":${JSON.stringify(FIELD_PROMPTS[name])}}`;

/** The fixed text of an item between its values, made once (flat) from the prompts. */
const ITEM = {
  toPlayerId: flat(`","data":[${valueOf('playerId')}`),
  toName: flat(`${promptOf('playerId')},${valueOf('name')}`),
  toAlternateName: flat(`${promptOf('name')},${valueOf('alternateName')}`),
  noNameToAlternateName: flat(`${promptOf('playerId')},${valueOf('alternateName')}`),
  toImage: flat(`${promptOf('alternateName')},${valueOf('image')}`),
  toLinks: flat(`${promptOf('image')}],"links":`),
};

/**
 * The links of an item: its friends, and its avatar rendered as an image (the issue's shape). Its own
 * URI is its href; its search template is a query of its own collection.
 */
const ITEM_RELATIONS: readonly string[] = ['friends', 'avatar'];

function itemLinks(links: readonly Link[]): string {
  let out = '';
  for (const rel of ITEM_RELATIONS) {
    const link = findLink(links, rel);
    if (link === undefined || link.templated) continue;
    const text = fixedText(link);
    out = out === '' ? `${text.head}${uriChars(link.href)}${text.tail}` : `${out},${text.head}${uriChars(link.href)}${text.tail}`;
  }
  return `[${out}]`;
}

/** An item (section 2.1.2): href, data of name/value/prompt in the alternate names, and its links. */
function cjItem(doc: PlayerResource): string {
  const p = doc.player;
  const links = itemLinks(doc.links);
  return p.displayName === undefined
    ? `{"href":"${uriChars(doc.url)}${ITEM.toPlayerId}${jsonChars(p.playerId)}${ITEM.noNameToAlternateName}${jsonChars(p.alias)}${ITEM.toImage}${uriChars(p.profilePhotoUrl)}${ITEM.toLinks}${links}}`
    : `{"href":"${uriChars(doc.url)}${ITEM.toPlayerId}${jsonChars(p.playerId)}${ITEM.toName}${jsonChars(p.displayName)}${ITEM.toAlternateName}${jsonChars(p.alias)}${ITEM.toImage}${uriChars(p.profilePhotoUrl)}${ITEM.toLinks}${links}}`;
}

/** The write template of the POST operation at `href` (section 2.1.4), playerId first (adds an existing player). */
function cjTemplate(operations: readonly Operation[], href: string): string | undefined {
  const op = operations.find((o) => o.method === 'POST' && o.href === href);
  if (!op) return undefined;
  let data = `{"name":"playerId","value":"","prompt":${jsonString(FIELD_PROMPTS.playerId!)}}`;
  for (const f of op.fields) {
    if (f.name !== 'playerId') data += `,{"name":${jsonString(f.name)},"value":"","prompt":${jsonString(FIELD_PROMPTS[f.name] ?? f.title)}}`;
  }
  return `{"data":[${data}]}`;
}

function cjPlayer(doc: PlayerResource): string {
  // The player's links also sit at the collection level, where generic clients look for them.
  return `{"collection":{"version":"1.0","href":${jsonUri(doc.url)},"links":${cjLinks(doc.links, true)},"items":[${cjItem(doc)}],"queries":${cjQueries(doc.links, doc.operations)}}}`;
}

function cjPage(doc: FriendsResource): string {
  const href = doc.collectionUrl;
  const items = new Array<string>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) items[i] = cjItem(doc.items[i]!);
  const queries = cjQueries(doc.links, doc.operations, doc.query === undefined ? {} : { search: doc.query });
  const template = cjTemplate(doc.operations, href);
  return `{"collection":{"version":"1.0","href":${jsonUri(href)},"links":${cjLinks(doc.links, false)},"items":[${items.join(',')}],"queries":${queries}${template === undefined ? '' : `,"template":${template}`}}}`;
}

/** 400 naming (by JSON Pointer) every own member of `object` outside `allowed`. */
function refuseMembers(object: Record<string, unknown>, allowed: readonly string[], at: string): void {
  const extra = Object.keys(object).filter((k) => !allowed.includes(k));
  if (extra.length === 0) return;
  throw new HttpError(400, `A Collection+JSON request body has members it does not define here (only ${allowed.join(', ')}).`, {
    errors: extra.map((k) => ({ pointer: `${at}/${pointerToken(k)}`, detail: 'unknown member' })),
  });
}

/**
 * Reads a Collection+JSON write representation (section 2.1.4, `{ "template": { "data": [...] } }`):
 * entries `name`, `alternateName`, `image` (a new friend) or `playerId` (an existing player). Entries
 * with an empty or null value are left out, so the rendered template can be sent back partly filled.
 *
 * @example
 * readCollectionJsonBody({ template: { data: [{ name: 'alternateName', value: 'zoe' }, { name: 'playerId', value: '' }] } });
 * // { fields: { alias: 'zoe' } }
 */
export function readCollectionJsonBody(body: unknown): PlayerInput {
  const object = requireObject(body, 'Collection+JSON');
  refuseMembers(object, ['template'], '');
  const template = object.template === undefined ? undefined : requireObject(object.template, 'Collection+JSON template', '/template');
  if (!template || !Array.isArray(template.data)) {
    throw new HttpError(400, 'A Collection+JSON request body is {"template": {"data": [{"name": ..., "value": ...}]}}.', {
      errors: [{ pointer: template ? '/template/data' : '/template', detail: 'a template with a data array is required' }],
    });
  }
  const seen = new Set<string>();
  const values: [string, unknown, string][] = [];
  template.data.forEach((entry: unknown, i: number) => {
    const pointer = `/template/data/${i}`;
    const item = requireObject(entry, 'Collection+JSON data entry', pointer);
    // A client may send back the template it was given, prompts included.
    refuseMembers(item, ['name', 'value', 'prompt'], pointer);
    const { name, value } = item as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || seen.has(name)) {
      throw new HttpError(400, 'Every template data entry needs a name string, used once.', {
        errors: [{ pointer: `${pointer}/name`, detail: typeof name === 'string' ? `"${name}" is repeated` : 'must be a string' }],
      });
    }
    seen.add(name);
    if (value !== '' && value !== null && value !== undefined) values.push([name, value, `${pointer}/value`]);
    else if (!Object.hasOwn(FIELD_PROMPTS, name)) values.push([name, undefined, `${pointer}/name`]);
  });
  return playerInputFromAlternate(values);
}

/**
 * Collection+JSON: a player is a collection of one item (`href`, `data` of name/value/prompt, `links`
 * with the avatar as `render: "image"`), with the player's links and the search query; a friends page
 * is the friends collection with this page's items, paging links (self, first, prev, next, last, up),
 * the search query and the add-friend template (playerId, name, alternateName, image, empty values).
 *
 * @example
 * const res = await service.fetch(new Request(url, { headers: { Accept: 'application/vnd.collection+json' } }));
 * (await res.json()).collection.items[0].data;
 */
export const collectionJsonRepresentation: Representation = {
  name: 'collection',
  mediaType: COLLECTION_JSON_MEDIA_TYPE,
  bodyMediaTypes: [COLLECTION_JSON_MEDIA_TYPE],
  render(resource: Resource): string {
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object.
    return withUris(resource, () => (resource.kind === 'player' ? cjPlayer(resource) : cjPage(resource)));
  },
  readBody: (body) => readCollectionJsonBody(body),
};
