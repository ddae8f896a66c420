// Rendering without HTTP: any resource document in any registered format, for snapshot tests and tools.
import type { RenderPlan, Representation } from './core/representation.js';
import type { Resource } from './core/resource.js';
import { defaultRepresentations } from './representations/index.js';

/**
 * Options of `render` and `renderAll`: the formats to choose from (default: the built-in ones), and
 * either the query string a request would carry (`include=friends`, `fields[players]=name`), which each
 * format plans from, or a ready plan.
 *
 * @example
 * const options: RenderOptions = { query: 'include=friends' };
 */
export interface RenderOptions {
  representations?: readonly Representation[];
  query?: string | URLSearchParams;
  plan?: RenderPlan;
}

/**
 * A rendered document: the body and the Content-Type it is served with.
 *
 * @example
 * const { body, contentType } = render(doc, 'hal');
 */
export interface RenderedDocument {
  body: string;
  contentType: string;
}

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

function renderWith(representation: Representation, resource: Resource, options: RenderOptions): RenderedDocument {
  const query = options.query instanceof URLSearchParams ? options.query : new URLSearchParams(options.query ?? '');
  const plan = options.plan ?? representation.plan?.(query, resource.kind) ?? {};
  return { body: representation.render(resource, plan), contentType: representation.contentType ?? representation.mediaType };
}

/**
 * Renders a resource document (from `playerResource` / `friendsResource`) in one format, exactly as
 * the service would serve it, without HTTP. Bad format parameters in `query` throw the HttpError (400)
 * the service would answer with.
 *
 * @example
 * import { render, playerResource } from 'player-hypermedia';
 * const { body, contentType } = render(playerResource('https://api.example.com', stored), 'application/vnd.siren+json');
 */
export function render(resource: Resource, format: string, options: RenderOptions = {}): RenderedDocument {
  return renderWith(findRepresentation(format, options.representations), resource, options);
}

/**
 * Renders a resource document in every registered format, keyed by format name: the entry point of
 * snapshot tests.
 *
 * @example
 * for (const [name, { body }] of Object.entries(renderAll(doc))) writeFileSync(`snapshots/${name}.json`, body);
 */
export function renderAll(resource: Resource, options: RenderOptions = {}): Record<string, RenderedDocument> {
  const out: Record<string, RenderedDocument> = {};
  for (const r of options.representations ?? defaultRepresentations) out[r.name] = renderWith(r, resource, options);
  return out;
}
