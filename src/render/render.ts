// Rendering without HTTP: a player or a page of friends in any registered format, for snapshot tests and tools.
import { documentFields } from '../core/respond/document-fields.js';
import { API_DOCUMENTATION_PATH, API_DOCUMENTATION_REL } from '../core/descriptions/hydra.js';
import type { RenderPlan, Representation } from '../core/model/representation.js';
import type { Resource, ResourceKind } from '../core/model/resource.js';
import { defaultRepresentations } from '../representations/index.js';
import { resourceFromJson, type FriendsPageJson, type PlayerJson } from './input.js';
import { PLAYER } from '../player/documents.js';

/**
 * What `render` takes: a plain player (`{ playerId, alias, displayName? }`), a plain page of friends
 * (`{ playerId, friends: [players], page?, total?, search? }`), or a resource document built by hand.
 *
 * @example
 * const input: RenderInput = { playerId: 'bob', alias: 'bobby', displayName: 'Bob Builder' };
 */
export type RenderInput = PlayerJson | FriendsPageJson | Resource;

/**
 * Options of `render` and `renderAll`.
 * - `baseUrl` (default `https://api.example.com`) and `pageSize` (default 10): what the links of a
 *   plain input are built from, as the service configured so would build them.
 * - `query`: the query string a request would carry (`include=friends`, `fields[players]=name`), which
 *   each format plans from; or `plan`, a ready plan.
 * - `pretty`: indent JSON bodies by two spaces (easier to read in a snapshot file; the service sends them compact).
 * - `representations`: the formats to choose from (default: the built-in ones).
 *
 * @example
 * const options: RenderOptions = { baseUrl: 'https://games.example/api', query: 'include=friends', pretty: true };
 */
export interface RenderOptions {
  baseUrl?: string;
  pageSize?: number;
  query?: string | URLSearchParams;
  plan?: RenderPlan;
  pretty?: boolean;
  representations?: readonly Representation[];
}

/**
 * A rendered document: the body, the Content-Type it is served with, and the header fields that carry
 * information (`Link` on every document, `Total-Count` on a page: the only place plain JSON pages say
 * their links and total).
 *
 * @example
 * const { body, contentType, headers } = render({ playerId: 'alice', friends: [] }, 'json');
 * headers['total-count']; // '0' (lower-case names, as HTTP/2 writes them)
 */
export interface RenderedDocument {
  body: string;
  contentType: string;
  headers: Record<string, string>;
}

/** The base URL of links when `RenderOptions.baseUrl` is not given. */
const DEFAULT_BASE_URL = 'https://api.example.com';

/**
 * The format named by `format`: its name (`siren`) or its media type (`application/vnd.siren+json`,
 * parameters ignored). A TypeError names the known ones when none matches.
 *
 * @example
 * findRepresentation('application/hal+json').name; // 'hal'
 */
export function findRepresentation(format: string, representations: readonly Representation[] = defaultRepresentations): Representation {
  const wanted = format.split(';')[0]!.trim().toLowerCase();
  const found = representations.find((r) => r.name === format || r.mediaType.toLowerCase() === wanted);
  if (!found) throw new TypeError(`render: unknown format "${format}"; known: ${representations.map((r) => `${r.name} (${r.mediaType})`).join(', ')}`);
  return found;
}

function isResource(input: RenderInput): input is Resource {
  return typeof (input as { kind?: unknown }).kind === 'string' && typeof (input as { url?: unknown }).url === 'string';
}

function kindOf(input: RenderInput): ResourceKind {
  if (isResource(input)) return input.kind;
  if (typeof input !== 'object' || input === null || !('friends' in input) || 'alias' in input) return 'item';
  return 'page';
}

function renderWith(representation: Representation, input: RenderInput, options: RenderOptions): RenderedDocument {
  const query = options.query instanceof URLSearchParams ? options.query : new URLSearchParams(options.query ?? '');
  // The formats beside this one, as the service passes them (HTML links each resource to the others).
  const formats = options.representations ?? defaultRepresentations;
  const own = options.plan ?? representation.plan?.(query, kindOf(input), isResource(input) ? input.type : PLAYER) ?? {};
  const plan: RenderPlan = own.formats === undefined ? { ...own, formats } : own;
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const resource = isResource(input) ? input : resourceFromJson(input, baseUrl, options.pageSize ?? 10, plan.embed?.includes('friends') === true, representation.searchParameter);
  let body = representation.render(resource, plan);
  if (options.pretty) body = indented(body);
  const headers = Object.fromEntries(documentFields(resource));
  // As the service sends it: every answer links to the Hydra ApiDocumentation (Hydra Core section 4.1).
  const docs = `<${baseUrl}${API_DOCUMENTATION_PATH}>; rel="${API_DOCUMENTATION_REL}"`;
  headers.link = headers.link ? `${headers.link}, ${docs}` : docs;
  return { body, contentType: representation.contentType ?? representation.mediaType, headers };
}

/** A JSON body indented by two spaces; anything else (HTML) as it is. */
function indented(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * Renders a player or a page of friends in one format, exactly as the service would serve it (with
 * `pretty`, indented), without HTTP. A plain input is checked (a TypeError says what is wrong); bad
 * format parameters in `query` throw the HttpError (400) the service would answer with.
 *
 * @example
 * import { render } from 'player-hypermedia';
 * const { body, contentType, headers } = render({ playerId: 'bob', alias: 'bobby' }, 'application/vnd.siren+json');
 */
export function render(input: RenderInput, format: string, options: RenderOptions = {}): RenderedDocument {
  return renderWith(findRepresentation(format, options.representations), input, options);
}

/**
 * Renders a player or a page of friends in every registered format, keyed by format name: the entry
 * point of snapshot tests.
 *
 * @example
 * import { renderAll } from 'player-hypermedia';
 * for (const [name, { body }] of Object.entries(renderAll({ playerId: 'bob', alias: 'bobby' }, { pretty: true }))) {
 *   expect(body).toMatchSnapshot(name);
 * }
 */
export function renderAll(input: RenderInput, options: RenderOptions = {}): Record<string, RenderedDocument> {
  const out: Record<string, RenderedDocument> = {};
  for (const r of options.representations ?? defaultRepresentations) out[r.name] = renderWith(r, input, options);
  return out;
}
