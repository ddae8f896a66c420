// Siren (application/vnd.siren+json): entities with class, properties, links, sub-entities and actions.
import { HttpError } from '../core/http/problem.js';
import type { PlayerInput, Representation } from '../core/model/representation.js';
import type { Player } from '../player/player.js';
import { findLink, type FriendsResource, type Link, type Operation, type PlayerResource, type Resource } from '../core/model/resource.js';
import { flat, jsonChars, jsonNumber, jsonString, jsonUri, uriChars, withUris } from '../core/json/text.js';
import { EMBEDDED_PLAYER_RELATIONS, relationType } from './link-relations.js';
import { playerInputFromAlternate, pointerToken, requireObject } from './alternate-input.js';

/**
 * The media type of Siren (https://github.com/kevinswiber/siren).
 *
 * @example
 * fetch(url, { headers: { Accept: SIREN_MEDIA_TYPE } });
 */
export const SIREN_MEDIA_TYPE = 'application/vnd.siren+json';

/** The form encoding of Siren actions (the spec's default `type` when an action has fields). */
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

const linkHeads = new Map<string, string>();

/** The start of a Siren link to `rel`, up to its href's characters: `{"rel":["<relation type>"],"href":"`. */
function linkHead(rel: string): string {
  let head = linkHeads.get(rel);
  if (head === undefined) {
    head = flat(`{"rel":[${jsonString(relationType(rel))}],"href":"`);
    if (linkHeads.size < 256) linkHeads.set(rel, head);
  }
  return head;
}

/** The end of a Siren link after its href's characters: its title and type when present. */
function linkTail(l: Link): string {
  if (l.title === undefined && l.type === undefined) return '"}';
  let out = '"';
  if (l.title !== undefined) out += `,"title":${jsonString(l.title)}`;
  if (l.type !== undefined) out += `,"type":${jsonString(l.type)}`;
  return `${out}}`;
}

function sirenLink(l: Link): string {
  return `${linkHead(l.rel)}${uriChars(l.href)}${linkTail(l)}`;
}

/** `"links":[...]`: every link that is a URI; templated links become actions (see templateActions). */
function sirenLinks(links: readonly Link[]): string {
  let out = '"links":[';
  let sep = '';
  for (const l of links) {
    if (l.templated) continue;
    out += sep + sirenLink(l);
    sep = ',';
  }
  return `${out}]`;
}

interface ActionField {
  name: string;
  type: string;
  title: string;
}

/** A Siren action; its fields are sent as a form, the spec's default `type` (Siren, "Actions"). */
function sirenAction(name: string, title: string, method: string, href: string, fields: readonly ActionField[]): string {
  let out = `{"name":${jsonString(name)},"class":[${jsonString(name)}],"title":${jsonString(title)},"method":${jsonString(method)},"href":${jsonUri(href)},"type":"${FORM_MEDIA_TYPE}","fields":[`;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    out += `${i ? ',' : ''}{"name":${jsonString(f.name)},"type":${jsonString(f.type)},"title":${jsonString(f.title)}}`;
  }
  return `${out}]}`;
}

/**
 * `"actions":[...]`: the resource's operations, then its RFC 6570 form-style query templates
 * (`href{?a,b}`) as GET actions with one field per variable; undefined when there is none.
 */
function sirenActions(operations: readonly Operation[], links: readonly Link[]): string | undefined {
  const actions: string[] = [];
  for (const op of operations) actions.push(sirenAction(op.name, op.title, op.method, op.href, op.fields));
  for (const l of links) {
    if (!l.templated || operations.some((o) => o.name === l.rel)) continue;
    const m = /^([^{]*)\{\?([^}]+)\}$/.exec(l.href);
    if (!m) continue;
    const fields = m[2]!.split(',').map((name) => ({ name, type: name === 'search' ? 'search' : 'text', title: name }));
    actions.push(sirenAction(l.rel, l.title ?? l.rel, 'GET', m[1]!, fields));
  }
  return actions.length ? `"actions":[${actions.join(',')}]` : undefined;
}

/** `"properties":{...}`: the player's fields in the alternate names (seed: playerId, name, alternateName, image). */
function properties(p: Player): string {
  let out = `"properties":{"playerId":${jsonString(p.playerId)}`;
  if (p.displayName !== undefined) out += `,"name":${jsonString(p.displayName)}`;
  return `${out},"alternateName":${jsonString(p.alias)},"image":${jsonUri(p.profilePhotoUrl)}}`;
}

function playerEntity(r: PlayerResource): string {
  const actions = sirenActions(r.operations, r.links);
  return `{"class":["player"],${properties(r.player)},${actions === undefined ? '' : `${actions},`}${sirenLinks(r.links)}}`;
}

/**
 * A friend as a sub-entity (rel `item`): an embedded representation with its properties and the links
 * a client follows from a list, `self` and `friends`. The avatar link is left out: it only repeats the
 * `image` property; the search action is on the friend's own representation.
 */
function itemEntity(r: PlayerResource): string {
  let links = '';
  for (const rel of EMBEDDED_PLAYER_RELATIONS) {
    const link = findLink(r.links, rel);
    if (link !== undefined && !link.templated) links = links === '' ? sirenLink(link) : `${links},${sirenLink(link)}`;
  }
  const p = r.player;
  return p.displayName === undefined
    ? `{"class":["player"],"rel":["item"],"properties":{"playerId":"${jsonChars(p.playerId)}","alternateName":"${jsonChars(p.alias)}","image":"${uriChars(p.profilePhotoUrl)}"},"links":[${links}]}`
    : `{"class":["player"],"rel":["item"],"properties":{"playerId":"${jsonChars(p.playerId)}","name":"${jsonChars(p.displayName)}","alternateName":"${jsonChars(p.alias)}","image":"${uriChars(p.profilePhotoUrl)}"},"links":[${links}]}`;
}

function pageEntity(r: FriendsResource): string {
  const p = r.paging;
  const kind = r.kind === 'search' ? 'search-results' : 'friends';
  // The seed: collection-style forms carry `size`, a string holding the count of items on the page.
  // A search that stopped counting gives `totalAtLeast` and no lastPage.
  const totals = p.totalIsLowerBound ? `"totalAtLeast":${jsonNumber(p.total)}` : `"total":${jsonNumber(p.total)},"lastPage":${jsonNumber(p.lastPage)}`;
  let head = `{"class":["${kind}","collection"],"properties":{"size":${jsonString(String(p.size))},"page":${jsonNumber(p.page)},"pageSize":${jsonNumber(p.pageSize)},${totals}`;
  if (r.query !== undefined) head += `,"search":${jsonString(r.query)}`;
  const entities = new Array<string>(r.items.length);
  for (let i = 0; i < r.items.length; i++) entities[i] = itemEntity(r.items[i]!);
  const actions = sirenActions(r.operations, r.links) ?? '"actions":[]';
  return `${head}},"entities":[${entities.join(',')}],${actions},${sirenLinks(r.links)}}`;
}

/**
 * The fields of a Siren action body as [name, value, JSON Pointer] entries, own members only: a form's
 * empty field means "not given", a repeated one is kept as a list (and then refused by validation).
 */
function fieldsOf(body: unknown): [string, unknown, string][] {
  if (body instanceof URLSearchParams) {
    const entries: [string, unknown, string][] = [];
    for (const key of new Set(body.keys())) {
      const values = body.getAll(key).filter((v) => v !== '');
      if (values.length) entries.push([key, values.length === 1 ? values[0] : values, `/${pointerToken(key)}`]);
    }
    return entries;
  }
  const object = requireObject(body, 'Siren action');
  return Object.keys(object).map((key) => [key, object[key], `/${pointerToken(key)}`]);
}

/**
 * Siren: a player is an entity of class `player` with its fields in `properties` and links with rel
 * arrays (`friends` and `avatar` as extension relation IRIs of our vocabulary, `PLAYER_VOCAB + name`). A friends page has
 * `properties.size` (a string) and the paging numbers, one sub-entity per friend (rel `item`, with its
 * properties and its self and friends links), the
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
    // JSON text written directly (json-text.ts), byte-identical to JSON.stringify of the same object.
    return withUris(resource, () => (resource.kind === 'player' ? playerEntity(resource) : pageEntity(resource)));
  },
  readBody(body: unknown): PlayerInput {
    const entries = fieldsOf(body);
    // Only a playerId: add that existing player (docs/decisions.md: a POST may add an existing player by playerId).
    if (entries.length === 1 && entries[0]![0] === 'playerId') return { fields: {}, ref: String(entries[0]![1]), pointers: { ref: '/playerId' } };
    // The action's fields (name, alternateName, image, playerId); any other member is 400.
    return playerInputFromAlternate(entries);
  },
};
