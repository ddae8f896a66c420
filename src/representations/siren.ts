// Siren (application/vnd.siren+json): entities with class, properties, links, sub-entities and actions.
import { HttpError } from '../core/problem.js';
import type { PlayerInput, Representation } from '../core/representation.js';
import type { FriendsResource, Link, Operation, PlayerResource, Resource } from '../core/resource.js';
import { relationType } from './link-relations.js';

/**
 * The media type of Siren (https://github.com/kevinswiber/siren).
 *
 * @example
 * fetch(url, { headers: { Accept: SIREN_MEDIA_TYPE } });
 */
export const SIREN_MEDIA_TYPE = 'application/vnd.siren+json';

/** The form encoding of Siren actions (the spec's default `type` when an action has fields). */
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

interface SirenLink {
  rel: string[];
  href: string;
  title?: string;
  type?: string;
}

interface SirenAction {
  name: string;
  class: string[];
  title: string;
  method: string;
  href: string;
  type: string;
  fields: { name: string; type: string; title: string }[];
}

function sirenLinks(links: readonly Link[]): SirenLink[] {
  const out: SirenLink[] = [];
  for (const l of links) {
    // Siren links are URIs, not templates: templated links become actions (see templateActions).
    if (l.templated) continue;
    const link: SirenLink = { rel: [relationType(l.rel)], href: l.href };
    if (l.title !== undefined) link.title = l.title;
    if (l.type !== undefined) link.type = l.type;
    out.push(link);
  }
  return out;
}

function sirenAction(op: Operation): SirenAction {
  return {
    name: op.name,
    class: [op.name],
    title: op.title,
    method: op.method,
    href: op.href,
    // Siren spec, "type": the encoding of the request; action fields are sent as a form (its default).
    type: FORM_MEDIA_TYPE,
    fields: op.fields.map((f) => ({ name: f.name, type: f.type, title: f.title })),
  };
}

/** RFC 6570 form-style query templates (`href{?a,b}`) as GET actions with one field per variable. */
function templateActions(links: readonly Link[], taken: ReadonlySet<string>): SirenAction[] {
  const out: SirenAction[] = [];
  for (const l of links) {
    if (!l.templated || taken.has(l.rel)) continue;
    const m = /^([^{]*)\{\?([^}]+)\}$/.exec(l.href);
    if (!m) continue;
    out.push({
      name: l.rel,
      class: [l.rel],
      title: l.title ?? l.rel,
      method: 'GET',
      href: m[1]!,
      type: FORM_MEDIA_TYPE,
      fields: m[2]!.split(',').map((name) => ({ name, type: name === 'search' ? 'search' : 'text', title: name })),
    });
  }
  return out;
}

function properties(r: PlayerResource): Record<string, string> {
  const p = r.player;
  return p.displayName === undefined
    ? { playerId: p.playerId, alternateName: p.alias, image: p.profilePhotoUrl }
    : { playerId: p.playerId, name: p.displayName, alternateName: p.alias, image: p.profilePhotoUrl };
}

function playerEntity(r: PlayerResource, rel?: string[]): Record<string, unknown> {
  const entity: Record<string, unknown> = { class: ['player'] };
  if (rel) entity.rel = rel;
  entity.properties = properties(r);
  const actions = [...r.operations.map(sirenAction), ...templateActions(r.links, new Set(r.operations.map((o) => o.name)))];
  // Sub-entities stay small: their search action lives on their own representation.
  if (actions.length && !rel) entity.actions = actions;
  entity.links = sirenLinks(r.links);
  return entity;
}

function pageEntity(r: FriendsResource): Record<string, unknown> {
  const item = ['item'];
  const props: Record<string, unknown> = {
    // The seed: collection-style forms carry `size`, a string holding the count of items on the page.
    size: String(r.paging.size),
    page: r.paging.page,
    pageSize: r.paging.pageSize,
    total: r.paging.total,
    lastPage: r.paging.lastPage,
  };
  if (r.query !== undefined) props.search = r.query;
  const entities = new Array(r.items.length);
  for (let i = 0; i < r.items.length; i++) entities[i] = playerEntity(r.items[i]!, item);
  return {
    class: [r.kind === 'search' ? 'search-results' : 'friends', 'collection'],
    properties: props,
    entities,
    actions: [...r.operations.map(sirenAction), ...templateActions(r.links, new Set(r.operations.map((o) => o.name)))],
    links: sirenLinks(r.links),
  };
}

/** The Siren field names of a player and the plain names they fill (seed: "Field names in the linked-data style representations"). */
const FIELD_NAMES: Readonly<Record<string, string>> = { name: 'displayName', alternateName: 'alias', image: 'image', playerId: 'playerId' };

function fieldsOf(body: unknown): Record<string, unknown> {
  if (body instanceof URLSearchParams) {
    const out: Record<string, unknown> = {};
    for (const key of new Set(body.keys())) {
      const values = body.getAll(key).filter((v) => v !== '');
      // An empty form field means "not given"; a repeated one is kept as a list (and then refused by validation).
      if (values.length) out[key] = values.length === 1 ? values[0] : values;
    }
    return out;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'A Siren action body is an object of field values (name, alternateName, image).', {
      errors: [{ pointer: '', detail: 'must be an object' }],
    });
  }
  return body as Record<string, unknown>;
}

/**
 * Siren: a player is an entity of class `player` with its fields in `properties` and links with rel
 * arrays (`friends` and `avatar` as extension relation IRIs of our vocabulary, `PLAYER_VOCAB + name`). A friends page has
 * `properties.size` (a string) and the paging numbers, one sub-entity per friend (rel `item`), the
 * `add-friend` action (POST, form fields name / alternateName `text`, image `url`) and a `search` action.
 * Request bodies are action fields, as a form (application/x-www-form-urlencoded) or as a JSON object
 * (application/vnd.siren+json).
 *
 * @example
 * const body = JSON.parse(sirenRepresentation.render(playerDoc));
 * body.class; // ['player']
 */
export const sirenRepresentation: Representation = {
  name: 'siren',
  title: 'Siren',
  mediaType: SIREN_MEDIA_TYPE,
  bodyMediaTypes: [SIREN_MEDIA_TYPE, FORM_MEDIA_TYPE],
  render(resource: Resource): string {
    return JSON.stringify(resource.kind === 'player' ? playerEntity(resource) : pageEntity(resource));
  },
  readBody(body: unknown): PlayerInput {
    const given = fieldsOf(body);
    const keys = Object.keys(given);
    // Only a playerId: add that existing player (DESIGN.md: "or add an existing player by playerId").
    if (keys.length === 1 && keys[0] === 'playerId') return { fields: {}, ref: String(given.playerId) };
    const fields: Record<string, unknown> = {};
    for (const key of keys) fields[FIELD_NAMES[key] ?? key] = given[key];
    return { fields };
  },
};
