// The query of a JSON:API request (sparse fieldsets, include, the reserved names): checked before anything is
// loaded, and turned into what the rendering needs.
import { HttpError } from '../core/http/problem.js';
import type { RenderPlan } from '../core/model/representation.js';
import type { ResourceType } from '../core/model/api.js';
import type { ResourceKind } from '../core/model/resource.js';
import { memberNames } from './json-api-members.js';

/**
 * What a request's JSON:API query asks of the rendering: sparse fieldsets by type, and the relations to include.
 *
 * @example
 * const o: JsonApiOptions = { fields: new Map([['players', new Set(['name'])]]), include: new Set() };
 */
export interface JsonApiOptions {
  fields: ReadonlyMap<string, ReadonlySet<string>>;
  include: ReadonlySet<string>;
}

const ALL: JsonApiOptions = { fields: new Map(), include: new Set() };

function badParameter(parameter: string, detail: string): HttpError {
  return new HttpError(400, detail, { errors: [{ parameter, detail }] });
}

/** `"a"` or `"a", "b"`: names for a message, quoted. */
function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/**
 * The JSON:API spelling of the search text: a member of the reserved `filter` family.
 *
 * @example
 * new URL(`${list}/search?${SEARCH_PARAMETER}=ada`);
 */
export const SEARCH_PARAMETER = 'filter[search]';

/**
 * Whether `planQuery` reads a query parameter: `fields[TYPE]`, `include`, `sort`, the `filter` family
 * but the search text, and every other all-lowercase name but `page` (JSON:API 1.1 "Query
 * Parameters" reserves them: one this server does not support is 400). Others (`page`,
 * implementation-specific names like `cacheBuster`) do not change the plan.
 *
 * @example
 * readsParameter('include'); // true
 * readsParameter('cacheBuster'); // false
 */
export function readsParameter(name: string): boolean {
  if (name.startsWith('fields[')) return true;
  if (name.startsWith('filter[')) return name !== SEARCH_PARAMETER;
  return /^[a-z]+$/.test(name) && name !== 'page';
}

/**
 * JSON:API 1.0 section "Fetching Data": fields[TYPE], include, sort, and the query parameter rules.
 *
 * @example
 * planQuery(new URLSearchParams('include=reviews'), 'item', bookType).embed; // ['reviews']
 */
export function planQuery(query: URLSearchParams, kind: ResourceKind, type: ResourceType): RenderPlan {
  const api = type.api;
  const fields = new Map<string, Set<string>>();
  let include: string[] = [];
  let variant = '';
  for (const key of new Set(query.keys())) {
    if (!readsParameter(key)) continue;
    const values = query.getAll(key);
    if (key.startsWith('fields[')) {
      const named = key.slice('fields['.length, -1);
      const target = key.endsWith(']') ? api.typeByPlural(named) : undefined;
      if (!target) {
        const types = api.types.map((t) => t.plural);
        throw badParameter(key, `Unknown resource type in ${key}; ${types.length === 1 ? `the only type is "${types[0]}"` : `the types are ${quoted(types)}`}.`);
      }
      if (values.length > 1) throw badParameter(key, `${key} must be given once.`);
      const known = memberNames(target);
      const set = new Set(values[0]!.split(',').filter((f) => f !== ''));
      for (const f of set) if (!known.includes(f)) throw badParameter(key, `Unknown field "${f}" of ${target.plural}; known: ${known.join(', ')}.`);
      fields.set(target.plural, set);
      variant += `fields${target === type ? '' : `[${target.plural}]`}=${known.filter((f) => set.has(f)).join(',')};`;
    } else if (key === 'include') {
      const paths = values.join(',').split(',').filter((p) => p !== '');
      const known = type.relations.map((r) => r.name);
      for (const p of paths) {
        if (!known.includes(p)) throw badParameter('include', `Unknown include path "${p}"; ${known.length === 1 ? `the only one is "${known[0]}"` : known.length ? `the paths are ${quoted(known)}` : 'there is none'}.`);
      }
      // Section "Inclusion of Related Resources": a path the server cannot include is 400.
      if (paths.length && kind !== 'item') throw badParameter('include', `include=${paths.join(',')} is served on a ${type.title.toLowerCase()}, not on a list.`);
      include = known.filter((r) => paths.includes(r));
      if (include.length) variant += `include=${include.join(',')};`;
    } else if (key === 'sort') {
      throw badParameter('sort', 'Sorting is not supported: lists are in the order their members were added.');
    } else if (key.startsWith('filter[') && key !== SEARCH_PARAMETER) {
      throw badParameter(key, `Unknown filter ${key}; the only one is ${SEARCH_PARAMETER}.`);
    } else if (/^[a-z]+$/.test(key) && key !== 'page') {
      // JSON:API 1.1 "Query Parameters": all-lowercase names are the specification's; one it does not
      // define, or this server does not support, is 400.
      const hint = key === 'search' ? ` Search with ${SEARCH_PARAMETER}.` : '';
      throw badParameter(key, `The query parameter "${key}" is not one of JSON:API's that this server supports.${hint}`);
    }
  }
  const options: JsonApiOptions = { fields, include: new Set(include) };
  if (kind !== 'item') return { variant, options };
  // A to-many relation's linkage (its first page) is loaded when it is shown or included.
  const own = fields.get(type.plural);
  const embed = type.relations.filter((r) => r.kind === 'to-many' && (include.includes(r.name) || !own || own.has(r.name))).map((r) => r.name);
  // One not included is shown as resource identifiers only (section "Resource Linkage").
  const linkage = embed.filter((r) => !include.includes(r));
  return { embed, linkage, variant, options };
}

/**
 * The options a plan carries, or all fields and no include.
 *
 * @example
 * optionsOf(undefined).include.size; // 0
 */
export function optionsOf(plan: RenderPlan | undefined): JsonApiOptions {
  return (plan?.options as JsonApiOptions | undefined) ?? ALL;
}
