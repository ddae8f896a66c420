// Collection+JSON (application/vnd.collection+json, version 1.0): items, links, queries and a write template.
import { HttpError } from '../core/problem.js';
import type { PlayerInput, Representation } from '../core/representation.js';
import type { FriendsResource, Link, Operation, PlayerResource, Resource } from '../core/resource.js';
import { toAlternateFields } from '../core/player.js';
import { playerInputFromAlternate, requireObject } from './alternate-input.js';

/**
 * The media type of Collection+JSON (registered with IANA by M. Amundsen).
 *
 * @example
<<<<<<< HEAD
 * fetch(url, { headers: { Accept: COLLECTION_JSON_MEDIA_TYPE } });
=======
 * new Request(url, { method: 'POST', headers: { 'Content-Type': COLLECTION_JSON_MEDIA_TYPE }, body });
>>>>>>> main
 */
export const COLLECTION_JSON_MEDIA_TYPE = 'application/vnd.collection+json';

/**
 * A name/value/prompt entry of `data` (Collection+JSON section 2.3.4).
 *
 * @example
<<<<<<< HEAD
 * const datum: CollectionJsonData = { name: 'alternateName', value: 'bobby', prompt: 'Alias' };
=======
 * const entry: CollectionJsonData = { name: 'alternateName', value: 'zoe', prompt: 'Alias' };
>>>>>>> main
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
<<<<<<< HEAD
 * const link: CollectionJsonLink = { rel: 'avatar', href: 'https://x.test/player/bob/avatar.png', render: 'image' };
=======
 * const avatar: CollectionJsonLink = { rel: 'avatar', href: 'https://x.test/player/bob/avatar.png', prompt: 'Avatar', render: 'image' };
>>>>>>> main
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
<<<<<<< HEAD
 * const query: CollectionJsonQuery = { rel: 'search', href: 'https://x.test/player/bob/friends/search', data: [{ name: 'search', value: '' }] };
=======
 * const q: CollectionJsonQuery = { rel: 'search', href: 'https://x.test/player/bob/friends/search', data: [{ name: 'search', value: '' }] };
>>>>>>> main
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

function cjLinks(links: readonly Link[], skipSelf: boolean): CollectionJsonLink[] {
  const out: CollectionJsonLink[] = [];
  for (const link of links) {
    // Templated links are not URIs: they become queries. An item's own URI is its href.
    if (link.templated || (skipSelf && link.rel === 'self')) continue;
    const image = link.type?.startsWith('image/') === true;
    out.push({ rel: link.rel, href: link.href, prompt: link.title ?? LINK_PROMPTS[link.rel] ?? link.rel, render: image ? 'image' : 'link' });
  }
  return out;
}

/** Prompts of query variables, when no operation names them. */
const VARIABLE_PROMPTS: Readonly<Record<string, string>> = { search: 'Text in alias or name' };

/**
 * A templated link `base{?a,b}` (RFC 6570 form-style query) as a query with data a and b, prefilled
 * from `current` (the text of a search page).
 */
function cjQueries(links: readonly Link[], operations: readonly Operation[], current: Record<string, string> = {}): CollectionJsonQuery[] {
  const out: CollectionJsonQuery[] = [];
  for (const link of links) {
    const match = link.templated ? /^([^{]*)\{\?([^}]+)\}$/.exec(link.href) : null;
    if (!match) continue;
    const href = match[1]!;
    const op = operations.find((o) => o.method === 'GET' && o.href === href);
    const data = match[2]!.split(',').map((name): CollectionJsonData => {
      const prompt = op?.fields.find((f) => f.name === name)?.title ?? VARIABLE_PROMPTS[name] ?? name;
      return { name, value: current[name] ?? '', prompt };
    });
    out.push({ rel: link.rel, href, name: op?.name ?? link.rel, prompt: op?.title ?? LINK_PROMPTS[link.rel] ?? link.rel, data });
  }
  return out;
}

function cjItem(doc: PlayerResource): Record<string, unknown> {
  const fields = toAlternateFields(doc.player);
  const data: CollectionJsonData[] = [{ name: 'playerId', value: fields.playerId, prompt: FIELD_PROMPTS.playerId! }];
  if (fields.name !== undefined) data.push({ name: 'name', value: fields.name, prompt: FIELD_PROMPTS.name! });
  data.push({ name: 'alternateName', value: fields.alternateName, prompt: FIELD_PROMPTS.alternateName! });
  data.push({ name: 'image', value: fields.image, prompt: FIELD_PROMPTS.image! });
  return { href: doc.url, data, links: cjLinks(doc.links, true) };
}

/** The write template of the POST operation at `href` (section 2.1.4), playerId first (adds an existing player). */
function cjTemplate(operations: readonly Operation[], href: string): Record<string, unknown> | undefined {
  const op = operations.find((o) => o.method === 'POST' && o.href === href);
  if (!op) return undefined;
  const data: CollectionJsonData[] = [{ name: 'playerId', value: '', prompt: FIELD_PROMPTS.playerId! }];
  for (const f of op.fields) if (f.name !== 'playerId') data.push({ name: f.name, value: '', prompt: FIELD_PROMPTS[f.name] ?? f.title });
  return { data };
}

function cjPlayer(doc: PlayerResource): Record<string, unknown> {
  return {
    collection: {
      version: '1.0',
      href: doc.url,
      // The player's links also sit at the collection level, where generic clients look for them.
      links: cjLinks(doc.links, true),
      items: [cjItem(doc)],
      queries: cjQueries(doc.links, doc.operations),
    },
  };
}

function cjPage(doc: FriendsResource): Record<string, unknown> {
  const href = doc.collectionUrl;
  const items = new Array<Record<string, unknown>>(doc.items.length);
  for (let i = 0; i < doc.items.length; i++) items[i] = cjItem(doc.items[i]!);
  const collection: Record<string, unknown> = {
    version: '1.0',
    href,
    links: cjLinks(doc.links, false),
    items,
    queries: cjQueries(doc.links, doc.operations, doc.query === undefined ? {} : { search: doc.query }),
  };
  const template = cjTemplate(doc.operations, href);
  if (template) collection.template = template;
  return { collection };
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
  const extra = Object.keys(object).filter((k) => k !== 'template');
  const template = object.template === undefined ? undefined : requireObject(object.template, 'Collection+JSON template', '/template');
  if (extra.length || !template || !Array.isArray(template.data)) {
    throw new HttpError(400, 'A Collection+JSON request body is {"template": {"data": [{"name": ..., "value": ...}]}}.', {
      errors: [{ pointer: template ? '/template/data' : '/template', detail: 'a template with a data array is required' }],
    });
  }
  const seen = new Set<string>();
  const values: [string, unknown, string][] = [];
  template.data.forEach((entry: unknown, i: number) => {
    const pointer = `/template/data/${i}`;
    const { name, value } = requireObject(entry, 'Collection+JSON data entry', pointer) as { name?: unknown; value?: unknown };
    if (typeof name !== 'string' || seen.has(name)) {
      throw new HttpError(400, 'Every template data entry needs a name string, used once.', {
        errors: [{ pointer: `${pointer}/name`, detail: typeof name === 'string' ? `"${name}" is repeated` : 'must be a string' }],
      });
    }
    seen.add(name);
    if (value !== '' && value !== null && value !== undefined) values.push([name, value, `${pointer}/value`]);
    else if (!(name in FIELD_PROMPTS)) values.push([name, undefined, `${pointer}/name`]);
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
    return JSON.stringify(resource.kind === 'player' ? cjPlayer(resource) : cjPage(resource));
  },
  readBody: (body) => readCollectionJsonBody(body),
};
