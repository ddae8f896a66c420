// HAL-FORMS (application/prs.hal-forms+json): the HAL documents with `_templates` saying which writes and
// searches a resource offers, so a HAL client (ketting, Spring HATEOAS) can discover and submit them.
import { findLink, type FriendsResource, type Operation, type OperationField, type PlayerResource, type Resource } from '../core/model/resource.js';
import type { Representation } from '../core/model/representation.js';
import { halRepresentation } from './hal.js';

/**
 * The media type of HAL-FORMS documents (HAL-FORMS specification, "Media Type").
 *
 * @example
 * fetch(url, { headers: { Accept: HAL_FORMS_MEDIA_TYPE } });
 */
export const HAL_FORMS_MEDIA_TYPE = 'application/prs.hal-forms+json';

/** A HAL-FORMS property (specification section "property"). */
interface TemplateProperty {
  name: string;
  prompt: string;
  required: boolean;
  type: string;
  value?: string;
  maxLength?: number;
}

/** A HAL-FORMS template (specification section "_templates"). */
interface Template {
  title: string;
  method: string;
  contentType?: string;
  target?: string;
  properties: TemplateProperty[];
}

/** An operation of the resource model as a template, with its target always named (a page's own URL carries its page number). */
function templateOf(op: Operation): Template {
  // GET submits its properties as the query; other methods a JSON body (the format ketting and Spring send).
  return {
    title: op.title,
    method: op.method,
    ...(op.method === 'GET' ? {} : { contentType: 'application/json' }),
    target: op.href,
    properties: op.fields.map(propertyOf),
  };
}

function propertyOf(field: OperationField): TemplateProperty {
  return { name: field.name, prompt: field.title, required: field.required, type: field.type === 'hidden' ? 'hidden' : field.type };
}

/**
 * The templates of a player: `default` replaces it (PUT of the plain JSON player, its current values
 * filled in), `addFriend` posts to its friend list, `search` searches that list.
 */
function playerTemplates(doc: PlayerResource): Record<string, Template> {
  const p = doc.player;
  const templates: Record<string, Template> = {
    default: {
      title: 'Update the player',
      method: 'PUT',
      contentType: 'application/json',
      target: doc.url,
      properties: [
        { name: 'alias', prompt: 'Alias', required: true, type: 'text', value: p.alias, maxLength: 64 },
        { name: 'displayName', prompt: 'Full name', required: false, type: 'text', ...(p.displayName === undefined ? {} : { value: p.displayName }), maxLength: 128 },
        { name: 'image', prompt: 'Picture URL', required: false, type: 'url' },
      ],
    },
  };
  const friends = findLink(doc.links, 'friends')?.href;
  if (friends !== undefined) {
    templates.addFriend = {
      title: 'Add a friend',
      method: 'POST',
      contentType: 'application/json',
      target: friends,
      properties: [
        { name: 'name', prompt: 'Full name', required: false, type: 'text' },
        { name: 'alternateName', prompt: 'Alias', required: true, type: 'text' },
        { name: 'image', prompt: 'Picture URL', required: false, type: 'url' },
      ],
    };
    templates.search = { title: 'Search the friends', method: 'GET', target: `${friends}/search`, properties: [{ name: 'search', prompt: 'Text in alias or name', required: true, type: 'search' }] };
  }
  return templates;
}

/** The templates of a page: its list's operations (add a friend as `default` on the list itself, search). */
function pageTemplates(doc: FriendsResource): Record<string, Template> {
  const templates: Record<string, Template> = {};
  for (const op of doc.operations) {
    const name = op.name === 'add-friend' ? (doc.query === undefined ? 'default' : 'addFriend') : op.name;
    templates[name] = templateOf(op);
  }
  return templates;
}

/**
 * HAL-FORMS: the HAL document (links, state, embedded players) with `_templates`. A player offers
 * `default` (PUT, its values filled in), `addFriend` and `search`; a friend list `default` (add a
 * friend, POST to the list) and `search`; a search page `addFriend` and `search`. Bodies are JSON
 * (`contentType: application/json`); a GET template's properties go in the query.
 *
 * @example
 * const res = await service.fetch(new Request(`${base}/player/alice`, { headers: { Accept: 'application/prs.hal-forms+json' } }));
 * (await res.json())._templates.default.method; // 'PUT'
 */
export const halFormsRepresentation: Representation = {
  name: 'hal-forms',
  title: 'HAL-FORMS',
  mediaType: HAL_FORMS_MEDIA_TYPE,
  render(resource: Resource): string {
    const hal = halRepresentation.render(resource);
    const templates = resource.kind === 'player' ? playerTemplates(resource) : pageTemplates(resource);
    if (Object.keys(templates).length === 0) return hal;
    // The HAL text ends with its object's closing brace: the templates go in just before it.
    return `${hal.slice(0, -1)},"_templates":${JSON.stringify(templates)}}`;
  },
};
