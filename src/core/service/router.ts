// Path matching: a small table of templates like /player/{id}/friends, one entry per resource.
import type { RouteHandler } from './context.js';
import type { Endpoint } from './options.js';
import type { ServiceConfig } from './config.js';
import type { Fields } from '../respond/fields.js';
import { HttpError } from '../http/problem.js';

/**
 * One resource path and the handlers of its methods. HEAD is served by GET's handler when absent.
 *
 * @example
 * const route: Route = { path: '/player/{id}', methods: { GET: getPlayer } };
 */
export interface Route {
  path: string;
  methods: Partial<Record<string, RouteHandler>>;
  /** Extra header fields of the OPTIONS answer (Accept-Patch, Accept-Post). */
  optionsFields?: (config: ServiceConfig, route: Route) => Fields;
  /**
   * A link relation under which every answer of the API links to this route's resource (a route
   * without parameters), e.g. Hydra's apiDocumentation: `Link: <{base}/docs.jsonld>; rel="..."`.
   */
  linkedFromEveryAnswer?: string;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
  /** Per segment, the parameter it names (`{id}`: 'id'), or undefined for a literal segment. */
  names: (string | undefined)[];
}

/**
 * A route found for a path, with its decoded parameters.
 *
 * @example
 * const found: RouteMatch | undefined = match('/player/alice'); // found?.params.id === 'alice'
 */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/**
 * Compiles routes into a matcher. Literal segments win over parameters, so `/player/{id}/friends/search`
 * is not read as a friend called "search". Nothing is kept between requests: a walk of the table costs
 * less than keeping matches would under many distinct paths (a kept match outlives the young generation).
 *
 * @example
 * const match = createRouter([{ path: '/player/{id}', methods: {} }]);
 * match('/player/alice')?.params.id; // 'alice'
 */
export function createRouter(routes: readonly Route[]): (path: string) => RouteMatch | undefined {
  const compiled: CompiledRoute[] = routes.map((route) => {
    const segments = route.path.split('/').slice(1);
    return { route, segments, names: segments.map((s) => (s.startsWith('{') ? s.slice(1, -1) : undefined)) };
  });
  // More literal segments first.
  compiled.sort((a, b) => literalCount(b.segments) - literalCount(a.segments));
  // Only routes of as many segments as the path can match it: the table is walked per segment count.
  const bySegments: CompiledRoute[][] = [];
  for (const c of compiled) (bySegments[c.segments.length] ??= []).push(c);
  return (path) => matchPath(bySegments, path);
}

function matchPath(bySegments: readonly (CompiledRoute[] | undefined)[], path: string): RouteMatch | undefined {
  // The path's segments by where they start and end, found once with indexOf: no array of substrings
  // is made (a path is matched on every request; only the parameters are cut out).
  const starts: number[] = [];
  const ends: number[] = [];
  for (let at = path.indexOf('/'); at !== -1; ) {
    const next = path.indexOf('/', at + 1);
    starts.push(at + 1);
    ends.push(next === -1 ? path.length : next);
    at = next;
  }
  const count = starts.length;
  for (const c of bySegments[count] ?? []) {
    const { segments, names } = c;
    let ok = true;
    for (let i = 0; i < count; i++) {
      if (names[i] !== undefined) continue;
      const literal = segments[i]!;
      if (ends[i]! - starts[i]! !== literal.length || !path.startsWith(literal, starts[i])) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < count; i++) {
      const name = names[i];
      if (name !== undefined) params[name] = decode(path.slice(starts[i], ends[i]));
    }
    return { route: c.route, params };
  }
  return undefined;
}

function literalCount(segments: string[]): number {
  return segments.filter((s) => !s.startsWith('{')).length;
}

function decode(segment: string): string {
  // Most segments hold no percent-encoding: nothing to decode.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'The request path holds an invalid percent-encoding.');
  }
}

/**
 * The Link field values every answer carries, to the routes that ask for it (`linkedFromEveryAnswer`),
 * for a base URL: made once per base URL (the last one is kept; with trustProxy it may change per request).
 *
 * @example
 * const links = linksToEveryAnswer(routes);
 * links('https://api.example.com'); // ['<https://api.example.com/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"']
 */
export function linksToEveryAnswer(routes: readonly Route[]): (baseUrl: string) => readonly string[] {
  const linked = routes.filter((r) => r.linkedFromEveryAnswer !== undefined).map((r) => ({ path: r.path, rel: r.linkedFromEveryAnswer! }));
  let lastBase: string | undefined;
  let last: readonly string[] = [];
  return (baseUrl) => {
    if (baseUrl !== lastBase) {
      last = linked.map(({ path, rel }) => `<${baseUrl}${path}>; rel="${rel}"`);
      lastBase = baseUrl;
    }
    return last;
  };
}

/**
 * The methods a route answers, for Allow (RFC 9110 section 10.2.1): HEAD with GET, OPTIONS always.
 *
 * @example
 * allowedMethods({ path: '/x', methods: { GET: h } }); // ['GET', 'HEAD', 'OPTIONS']
 */
export function allowedMethods(route: Route): string[] {
  const methods = Object.keys(route.methods);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  if (!methods.includes('OPTIONS')) methods.push('OPTIONS');
  return methods;
}

/**
 * The endpoints of a route table: each path with the methods it allows, for the service's descriptions.
 *
 * @example
 * endpointsOf([{ path: '/x', methods: { GET: h } }]); // [{ path: '/x', methods: ['GET', 'HEAD', 'OPTIONS'] }]
 */
export function endpointsOf(routes: readonly Route[]): Endpoint[] {
  return routes.map((route) => ({ path: route.path, methods: allowedMethods(route) }));
}
