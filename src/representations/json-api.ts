// JSON:API (application/vnd.api+json): resource objects of type "players", compound documents, sparse fieldsets.
import { HttpError, type ProblemDetails } from '../core/http/problem.js';
import { jsonString, jsonUri, withUris } from '../core/json/text.js';
import type { PlayerInput, RenderPlan, Representation } from '../core/model/representation.js';
import { findLink, type FriendsResource, type PlayerResource, type Resource, type ResourceKind } from '../core/model/resource.js';
import { friendsUrl, linkageUrl } from '../player/urls.js';
import { playerInputFromAlternate, pointerToken } from './alternate-input.js';

/**
 * The media type of JSON:API (https://jsonapi.org/format/1.0/).
 *
 * @example
 * fetch(url, { headers: { Accept: JSON_API_MEDIA_TYPE } });
 */
export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

const TYPE = 'players';
/** The fields of a `players` resource, in output order: attributes, then the relationship. */
const ATTRIBUTES = ['name', 'alternateName', 'image'] as const;
const FIELDS: ReadonlySet<string> = new Set([...ATTRIBUTES, 'friends']);
const VERSION = '{"version":"1.0"}';

/** What `plan` decided from the query: the sparse fieldset of `players` (undefined: all) and `include=friends`. */
interface JsonApiOptions {
  fields: ReadonlySet<string> | undefined;
  include: boolean;
}

const ALL: JsonApiOptions = { fields: undefined, include: false };

function badParameter(parameter: string, detail: string): HttpError {
  return new HttpError(400, detail, { errors: [{ parameter, detail }] });
}

/** The JSON:API spelling of the search text: a member of the reserved `filter` family. */
const SEARCH_PARAMETER = 'filter[search]';

/** JSON:API 1.0 section "Fetching Data": fields[TYPE], include, sort, and the query parameter rules. */
function planQuery(query: URLSearchParams, kind: ResourceKind | 'linkage'): RenderPlan {
  let fields: Set<string> | undefined;
  let include = false;
  let variant = '';
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    if (key.startsWith('fields[')) {
      if (key !== `fields[${TYPE}]`) throw badParameter(key, `Unknown resource type in ${key}; the only type is "${TYPE}".`);
      if (values.length > 1) throw badParameter(key, `${key} must be given once.`);
      fields = new Set(values[0]!.split(',').filter((f) => f !== ''));
      for (const f of fields) if (!FIELDS.has(f)) throw badParameter(key, `Unknown field "${f}" of ${TYPE}; known: ${[...FIELDS].join(', ')}.`);
      variant += `fields=${[...FIELDS].filter((f) => fields!.has(f)).join(',')};`;
    } else if (key === 'include') {
      const paths = values.join(',').split(',').filter((p) => p !== '');
      for (const p of paths) if (p !== 'friends') throw badParameter('include', `Unknown include path "${p}"; the only one is "friends".`);
      // Section "Inclusion of Related Resources": a path the server cannot include is 400.
      if (paths.length && kind !== 'player') throw badParameter('include', 'include=friends is served on a player, not on a list.');
      include = paths.length > 0;
      if (include) variant += 'include=friends;';
    } else if (key === 'sort') {
      throw badParameter('sort', 'Sorting is not supported: friends are listed in the order they were added.');
    } else if (key.startsWith('filter[') && key !== SEARCH_PARAMETER) {
      throw badParameter(key, `Unknown filter ${key}; the only one is ${SEARCH_PARAMETER}.`);
    } else if (/^[a-z]+$/.test(key) && key !== 'page') {
      // JSON:API 1.1 "Query Parameters": all-lowercase names are the specification's; one it does not
      // define, or this server does not support, is 400.
      const hint = key === 'search' ? ` Search with ${SEARCH_PARAMETER}.` : '';
      throw badParameter(key, `The query parameter "${key}" is not one of JSON:API's that this server supports.${hint}`);
    }
  }
  const options: JsonApiOptions = { fields, include };
  return { embedFriends: kind === 'player' && (include || !fields || fields.has('friends')), variant, options };
}

function optionsOf(plan: RenderPlan | undefined): JsonApiOptions {
  return (plan?.options as JsonApiOptions | undefined) ?? ALL;
}

const q = JSON.stringify;
/** A URI as a JSON string: as it is for a resource of the builders, else escaped (json-text.ts `jsonUri`). */
const u = jsonUri;

function attributes(r: PlayerResource, fields: ReadonlySet<string> | undefined): string {
  const p = r.player;
  let out = '';
  if (p.displayName !== undefined && (!fields || fields.has('name'))) out += `,"name":${jsonString(p.displayName)}`;
  if (!fields || fields.has('alternateName')) out += `,"alternateName":${jsonString(p.alias)}`;
  if (!fields || fields.has('image')) out += `,"image":${u(p.profilePhotoUrl)}`;
  return out === '' ? '' : `,"attributes":{${out.slice(1)}}`;
}

function identifier(r: PlayerResource): string {
  return `{"type":"${TYPE}","id":${jsonString(r.player.playerId)}}`;
}

/** JSON:API pagination members (first, prev, next, last) of a page, from the page's own links. */
function pageLinks(r: FriendsResource): string {
  let out = '';
  for (const rel of ['first', 'prev', 'next', 'last']) {
    const link = findLink(r.links, rel);
    if (link) out += `,"${rel}":${q(link.href)}`;
  }
  return out;
}

/** Pagination members (first, prev, next, last) for page `page` of `lastPage`, as JSON members. */
function pagination(at: (page: number) => string, page: number, lastPage: number): string {
  let out = `,"first":${q(at(1))}`;
  if (page > 1) out += `,"prev":${q(at(Math.min(page - 1, lastPage)))}`;
  if (page < lastPage) out += `,"next":${q(at(page + 1))}`;
  return `${out},"last":${q(at(lastPage))}`;
}

/** The `friends` relationship: links always; linkage (first page) and its paging when the friends were loaded. */
function friendsRelationship(r: PlayerResource): string {
  const self = linkageUrl(r.url);
  let links = `"self":${u(self)},"related":${u(friendsUrl(r.url))}`;
  const page = r.friends;
  if (!page) return `"friends":{"links":{${links}}}`;
  if (page.paging.lastPage > 1) links += pagination((n) => linkageUrl(r.url, n), 1, page.paging.lastPage);
  const data = page.items.map(identifier).join(',');
  return `"friends":{"links":{${links}},"data":[${data}],"meta":{"total":${page.paging.total}}}`;
}

function resourceObject(r: PlayerResource, fields: ReadonlySet<string> | undefined): string {
  const relationships = !fields || fields.has('friends') ? `,"relationships":{${friendsRelationship(r)}}` : '';
  return `{"type":"${TYPE}","id":${jsonString(r.player.playerId)}${attributes(r, fields)}${relationships},"links":{"self":${u(r.url)}}}`;
}

function renderPlayer(r: PlayerResource, o: JsonApiOptions): string {
  let out = `{"data":${resourceObject(r, o.fields)},"links":{"self":${q(r.url)}}`;
  if (o.include) {
    // Section "Compound Documents": the friends of the first page; sparse fieldsets apply to them too.
    const friends = r.friends?.items ?? [];
    out += `,"included":[${friends.map((f) => resourceObject(f, o.fields)).join(',')}]`;
  }
  return `${out},"jsonapi":${VERSION}}`;
}

function pageMeta(r: FriendsResource): string {
  const p = r.paging;
  const search = r.query === undefined ? '' : `,"search":${q(r.query)}`;
  // A search that stopped counting gives `totalAtLeast` and no lastPage.
  const total = p.totalIsLowerBound ? `"totalAtLeast":${p.total}` : `"total":${p.total}`;
  const last = p.totalIsLowerBound ? '' : `,"lastPage":${p.lastPage}`;
  return `{${total},"page":${p.page},"pageSize":${p.pageSize}${last},"size":"${p.size}"${search}}`;
}

function renderPage(r: FriendsResource, o: JsonApiOptions): string {
  const items = new Array<string>(r.items.length);
  for (let i = 0; i < r.items.length; i++) items[i] = resourceObject(r.items[i]!, o.fields);
  const links = `"self":${q(r.url)}${pageLinks(r)}`;
  return `{"data":[${items.join(',')}],"links":{${links}},"meta":${pageMeta(r)},"jsonapi":${VERSION}}`;
}

/** Plain-JSON pointers of validation errors, as pointers into a JSON:API request document. */
const POINTERS: Readonly<Record<string, string>> = {
  '/displayName': '/data/attributes/name',
  '/alias': '/data/attributes/alternateName',
  '/image': '/data/attributes/image',
  '/profilePhotoUrl': '/data/attributes/image',
  '/playerId': '/data/id',
};

function problemDocument(problem: ProblemDetails): string {
  const base: Record<string, unknown> = { status: String(problem.status), title: problem.title };
  if (problem.type !== 'about:blank') base.links = { about: problem.type };
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(problem)) {
    if (!['type', 'title', 'status', 'detail', 'instance', 'errors'].includes(k) && /^[a-zA-Z0-9](?:[-\w]*[a-zA-Z0-9])?$/.test(k)) meta[k] = v;
  }
  if (Object.keys(meta).length) base.meta = meta;
  const errors = problem.errors?.length
    ? problem.errors.map((e) => {
        const source = e.parameter !== undefined ? { parameter: e.parameter } : e.pointer !== undefined ? { pointer: Object.hasOwn(POINTERS, e.pointer) ? POINTERS[e.pointer]! : e.pointer } : undefined;
        return { ...base, detail: e.detail, ...(source ? { source } : {}) };
      })
    : [{ ...base, ...(problem.detail !== undefined ? { detail: problem.detail } : {}) }];
  return q({ errors, jsonapi: { version: '1.0' } });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** JSON:API section "Creating Resources" and "Updating To-Many Relationships" (a resource identifier). */
function readDocument(body: unknown): PlayerInput {
  const fail = (pointer: string, detail: string, status = 400) => new HttpError(status, detail, { errors: [{ pointer, detail }] });
  if (!isObject(body) || !isObject(body.data)) throw fail('/data', 'A JSON:API request document has a "data" member holding one resource object.');
  const data = body.data;
  // Section "Creating Resources": a type the collection does not hold is 409 Conflict.
  if (data.type !== TYPE) throw fail('/data/type', `The resource type must be "${TYPE}".`, 409);
  if (data.id !== undefined && typeof data.id !== 'string') throw fail('/data/id', 'The id must be a string.');
  // Section "Updating a Resource's Relationships": a server may refuse to replace a to-many relationship
  // in full, and must then refuse the whole request with 403. Friends change through the relationship URL.
  // A relationship object with links only (as GET gives it) says nothing to change; one with data is
  // linkage, which a partial update refuses (PlayerInput.relationshipPointer).
  let relationshipPointer: string | undefined;
  if (isObject(data.relationships)) {
    for (const [name, relationship] of Object.entries(data.relationships)) {
      if (isObject(relationship) && 'data' in relationship) relationshipPointer ??= `/data/relationships/${pointerToken(name)}/data`;
    }
  } else if (data.relationships !== undefined) throw fail('/data/relationships', 'relationships must be an object.');
  if (data.attributes !== undefined && !isObject(data.attributes)) throw fail('/data/attributes', 'attributes must be an object.');
  // A resource identifier of an existing player: add that player.
  const withLinkage = (input: PlayerInput): PlayerInput => (relationshipPointer === undefined ? input : { ...input, relationshipPointer });
  if (data.id !== undefined && data.attributes === undefined) return withLinkage({ fields: {}, ref: data.id });
  // The attributes a player has (name, alternateName, image), read as own members; any other is 400.
  const values: [string, unknown, string][] = [];
  if (data.id !== undefined) values.push(['playerId', data.id, '/data/id']);
  const attributes = data.attributes ?? {};
  for (const name of Object.keys(attributes)) {
    const pointer = `/data/attributes/${pointerToken(name)}`;
    if (name === 'playerId') throw fail(pointer, 'unknown attribute "playerId"; the id of a player is data.id');
    values.push([name, attributes[name], pointer]);
  }
  const input = withLinkage(playerInputFromAlternate(values));
  // Section "Client-Generated IDs": an id beside attributes names the new resource.
  if (data.id === undefined) return input;
  return { ...input, newId: data.id };
}

/**
 * The player ids of a to-many relationship document (section "Updating To-Many Relationships"): `data`
 * is an array of resource identifier objects of type `players`; a type of another collection is 409.
 *
 * @example
 * readLinkage({ data: [{ type: 'players', id: 'bob' }] }); // ['bob']
 */
function readLinkage(body: unknown): string[] {
  const fail = (pointer: string, detail: string, status = 400) => new HttpError(status, detail, { errors: [{ pointer, detail }] });
  if (!isObject(body) || !Array.isArray(body.data)) throw fail('/data', 'A to-many relationship document has a "data" member holding an array of resource identifier objects.');
  return body.data.map((item: unknown, i: number) => {
    if (!isObject(item)) throw fail(`/data/${i}`, 'A resource identifier object is an object with type and id.');
    if (item.type !== TYPE) throw fail(`/data/${i}/type`, `The resource type must be "${TYPE}".`, 409);
    if (typeof item.id !== 'string') throw fail(`/data/${i}/id`, 'The id must be a string.');
    return item.id;
  });
}

/**
 * JSON:API 1.0: a player is `data` of type `players` (id = playerId; attributes name, alternateName,
 * image; relationship `friends` with links self / related and, as linkage, the first page of friends),
 * with top-level links self. A friends or search page has `data` as an array, `links` first / prev /
 * next / last, and `meta` with the totals. `include=friends` makes a player a compound document;
 * `fields[players]=...` restricts attributes and relationships everywhere, `included` too. Errors are a
 * JSON:API errors document. Bodies: a resource document to create a player, or a resource identifier
 * to add an existing one.
 *
 * @example
 * const plan = jsonApiRepresentation.plan!(new URLSearchParams('include=friends&fields[players]=name'), 'player');
 * JSON.parse(jsonApiRepresentation.render(playerDocWithFriends, plan)).included.length; // up to a page of friends
 */
export const jsonApiRepresentation: Representation = {
  name: 'jsonapi',
  title: 'JSON:API',
  mediaType: JSON_API_MEDIA_TYPE,
  bodyMediaTypes: [JSON_API_MEDIA_TYPE],
  plan: planQuery,
  searchParameter: SEARCH_PARAMETER,
  render(resource: Resource, plan?: RenderPlan): string {
    const o = optionsOf(plan);
    return withUris(resource, () => (resource.kind === 'player' ? renderPlayer(resource, o) : renderPage(resource, o)));
  },
  renderLinkage(page: FriendsResource): string {
    // The page as the relationship route builds it: addressed at the relationship URL, with `related`.
    const links = `"self":${q(page.url)},"related":${q(findLink(page.links, 'related')?.href ?? friendsUrl(page.ownerUrl))}${pageLinks(page)}`;
    return `{"links":{${links}},"data":[${page.items.map(identifier).join(',')}],"meta":${pageMeta(page)},"jsonapi":${VERSION}}`;
  },
  renderProblem: problemDocument,
  /** JSON:API 1.1 "Content Negotiation": only `ext` and `profile`; we support no extension. */
  acceptable(params) {
    for (const [name, value] of Object.entries(params)) {
      if (name === 'profile') continue;
      if (name === 'ext' && value.trim() === '') continue;
      return false;
    }
    return true;
  },
  readBody: readDocument,
  partialUpdates: true,
  readLinkage,
};
