// The Representation interface: what a format must do to be served (render items and pages, read bodies).
import type { ProblemDetails } from '../http/problem.js';
import type { Item, Page, Resource, ResourceKind } from './resource.js';
import type { Relation, ResourceType } from './api.js';
import type { JsonSchema } from './declaration.js';
import type { DescribedDocument } from './document-schemas.js';

/**
 * What a representation needs for one request, decided from the query string before anything is
 * loaded: which to-many relations of an item must carry their first page (`embed`: JSON:API linkage
 * and `include`), and a `variant` string that distinguishes bodies of the same resource in the same
 * format (sparse fieldsets, includes): it becomes part of the ETag. `options` is the format's own.
 *
 * @example
 * const plan: RenderPlan = { embed: ['friends'], variant: 'include=friends', options: { include: ['friends'] } };
 * const linked: RenderPlan = { embed: ['friends'], linkage: ['friends'] }; // ids only
 */
export interface RenderPlan {
  embed?: readonly string[];
  /**
   * Of `embed`, the relations whose members this plan shows by id only (JSON:API linkage without
   * `include`). Such a body depends on the owner's revision, which changes with each of its lists (the
   * Store contract), and on the members' ids, not on the members themselves: its ETag, Last-Modified
   * and what it is kept by leave the members' revisions out, so a change of a member does not
   * change it. Omitted: every embedded relation shows its members (the safe default). The page of
   * such a relation (`Item.relations`) has its items, paging and URLs but no links nor operations.
   */
  linkage?: readonly string[];
  variant?: string;
  options?: unknown;
  /**
   * The formats the resource is served in, set by the service (the same for every request): what a
   * format that links to the others shows (HTML's links to each raw representation).
   */
  formats?: readonly Pick<Representation, 'name' | 'mediaType' | 'title' | 'searchParameter'>[];
}

/**
 * An item described in a request body, translated to the type's plain field names, or a reference to
 * an existing item (`ref`: its id or its URL). Values are not validated yet: the service validates them
 * against the type's schema.
 *
 * @example
 * const input: ItemInput = { fields: { alias: 'bobby', displayName: 'Bob', image: 'https://cdn.test/b.png' } };
 * const link: ItemInput = { fields: {}, ref: 'https://x.test/player/bob' };
 */
export interface ItemInput {
  fields: Record<string, unknown>;
  ref?: string;
  /** Where each plain field came from in the body, as a JSON Pointer (e.g. `{ alias: '/alternateName' }`), for error messages. */
  pointers?: Readonly<Record<string, string>>;
  /**
   * Where the body gives a list as linkage (JSON:API `relationships.<name>.data`), as a JSON Pointer.
   * A partial update (PATCH) refuses it with 403: a list is changed through its relationship URL; a
   * PUT or POST ignores it, as it does the links a GET gave.
   */
  relationshipPointer?: string;
  /**
   * A client-generated id for a new item (JSON:API "Client-Generated IDs": `data.id` beside
   * `attributes` in a POST): the item is created with it, and 409 when it is taken.
   */
  newId?: string;
}

/**
 * A hypermedia format. Implement this to add a format (or replace one) without touching the core:
 * pass it in the `representations` option of the service. A format maps the neutral documents (`Item`,
 * `Page`) using their type's metadata (`resource.type`: field names, linked-data terms, relations) and
 * never names a field of a particular API.
 *
 * - `render` is synchronous and must handle items and pages.
 * - `plan` validates the format's own query parameters (throw `HttpError(400)`) before loading.
 * - `renderProblem` renders an error in the format's own error document (JSON:API); without it, errors
 *   are RFC 9457 problem+json. `type` is the resource type of the route, when there is one.
 * - `readBody` reads a request body of one of `bodyMediaTypes` (already parsed: JSON value, or
 *   URLSearchParams for forms) into an ItemInput for `type`. `mediaType` is the lowercased type/subtype.
 * - `acceptable` says whether the format serves (Accept) and reads (Content-Type) its media type with
 *   the given parameters; a format that defines it also gets JSON:API's rule that an Accept naming its
 *   type only with refused parameters is 406. Without it, only `charset=utf-8` is accepted.
 * - `renderLinkage` renders the linkage of a relationship (GET `{item}/relationships/{name}`): of a
 *   to-many one, a page of it; of a to-one one, the owner item and the relation; formats without it
 *   are not offered on that route.
 *
 * @example
 * const csv: Representation = {
 *   name: 'csv',
 *   mediaType: 'text/csv',
 *   render: (r) => r.kind === 'item' ? `${r.id},${String(r.fields.alias)}\n`
 *     : r.items.map((i) => `${i.id},${String(i.fields.alias)}`).join('\n') + '\n',
 * };
 * createPlayerService({ baseUrl, representations: [...defaultRepresentations, csv] });
 */
export interface Representation {
  /** A short name, used in options, the CLI (`--as`) and ETags: `json`, `hal`... */
  readonly name: string;
  /** The media type this format produces and is negotiated by. */
  readonly mediaType: string;
  /** The Content-Type of its responses when it differs from `mediaType` (e.g. with a charset). */
  readonly contentType?: string;
  /** A human title for documentation ("Siren", "JSON:API"); defaults to `name`. */
  readonly title?: string;
  /** Media types of request bodies this format reads. */
  readonly bodyMediaTypes?: readonly string[];
  /**
   * The query parameter that carries a search text in this format's URLs (default `search`); JSON:API
   * reserves all-lowercase names, so it uses `filter[search]`.
   */
  readonly searchParameter?: string;
  /**
   * What the request's query asks of this format's rendering (400 on a bad format parameter). A
   * function of its arguments only: a plan is kept by query (the parameters it reads, see
   * `readsParameter`), type and kind and shared by the requests that follow with the same query, so it
   * must not depend on anything else nor be changed by whoever reads it.
   */
  plan?(query: URLSearchParams, kind: ResourceKind, type: ResourceType): RenderPlan;
  /**
   * Whether `plan` reads the query parameter `name` (decoded). With it, plans are kept by the
   * parameters the format reads alone: queries that differ only in others (`page`, a client's own
   * cache-buster) share one plan. Without it, every parameter counts.
   *
   * @example
   * readsParameter: (name) => name === 'include' || name.startsWith('fields['),
   */
  readsParameter?(name: string): boolean;
  /**
   * The body of a resource. Must be a pure function of `resource` and `plan` (no clock, locale or
   * randomness): the service keeps rendered bodies by strong ETag (BodyCache, AnswerMemo), so a body is
   * rendered once per change of the data it shows.
   */
  render(resource: Resource, plan?: RenderPlan): string;
  renderProblem?(problem: ProblemDetails, type?: ResourceType): string;
  renderLinkage?(linkage: Page | Item, plan?: RenderPlan, relation?: Relation): string;
  acceptable?(params: Readonly<Record<string, string>>): boolean;
  readBody?(body: unknown, mediaType: string, type: ResourceType): ItemInput | Promise<ItemInput>;
  /**
   * PATCH of an item with a body of `bodyMediaTypes` is a partial update (JSON:API "Updating
   * Resources"): the fields `readBody` gives replace the item's, members left out keep their values,
   * `null` removes an optional one. Without it, PATCH reads only JSON Patch and merge patch.
   */
  readonly partialUpdates?: boolean;
  /**
   * Reads the ids of a relationship body (JSON:API resource identifier objects of the relation's
   * target type) for POST, DELETE and PATCH `{item}/relationships/{name}`: the members named, for a
   * to-many relation; for a to-one one, `[id]`, or null to clear it. Without it those are 415 for this
   * format.
   */
  readLinkage?(body: unknown, relation: Relation): string[] | null;
  /**
   * The JSON Schema (2020-12) of a document this format writes or reads (see `DescribedDocument`), for
   * the OpenAPI descriptions: one response schema per media type, one request body schema per body
   * media type. Made from the same type metadata `render` reads, so that the description says what is
   * served; the tests validate live answers against it. Undefined (or no `describe`): the description
   * says only the media type.
   */
  describe?(document: DescribedDocument): JsonSchema | undefined;
}
