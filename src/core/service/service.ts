// createService: the one entry point, a WHATWG fetch handler serving a declared API. The request path,
// in stages, each a function below (each returns an Answer, synchronously when it can):
//   answer     health probes and metrics, outside the API; the rate limit by address; CORS on the way out
//   coded      the content coding (compression), chosen before anything else reads the validators
//   apiAnswer  a kept answer (the caches layer, core/caches), preconditions evaluated, when one holds
//   compute    the Host and target checks, forwarding fields, the rate limit by principal, then handle;
//              purging shared caches after a write; any failure rendered as an error answer
//   handle     method, base path, version, route, credentials, then the route's handler (core/resources)
import { Answer, type Fields } from '../respond/answer.js';
import { attachAnswerer } from './answerer.js';
import { identify } from './auth.js';
import { addField, mergeFields } from '../respond/fields.js';
import { errorAnswer, toHttpError } from './errors.js';
import { forwardedBaseUrl } from '../http/forwarded.js';
import { isValidHost } from '../http/host.js';
import type { ServiceOptions } from './options.js';
import { resolveOptions, type ServiceConfig } from './config.js';
import { HttpError } from '../http/problem.js';
import { normalizedHead, type RequestHead } from '../http/request-head.js';
import { answerSelected } from '../respond/selected.js';
import { healthProbes } from './health.js';
import { withCors } from './cors.js';
import { chooseCoding, decodedPreconditions, encodedAnswer } from '../respond/compression.js';
import { ServiceMetrics } from './metrics.js';
import { purgeAfterWrite, WRITES } from './cache-tags.js';
import { addressKey, countByPrincipal, countRequest, isPreflight, rateLimited, withRateFields, type RateVerdict } from './rate-limit.js';
import { Context, targetOf } from './request-context.js';
import { requestTarget } from '../http/request-target.js';
import { StoreError } from '../../stores/contract.js';
import { MemoWatch } from '../caches/memo-watch.js';
import { routesOf } from '../resources/routes.js';
import { descriptionRoutes } from '../descriptions/routes.js';
import { allowedMethods, createRouter, endpointsOf, linksToEveryAnswer, type Route } from './router.js';
import { API_VERSION_HEADER, selectVersion, useVersion } from './versioning.js';
import { andThen, type Awaitable } from './awaitable.js';
import type { RouteHandler } from './context.js';

/**
 * The service: a fetch handler, usable as is in any runtime with Request and Response (Node 20+,
 * Deno, Bun, Workers) and through the adapters.
 *
 * @example
 * const res = await service.fetch(new Request('https://api.example.com/player/alice'));
 */
export interface Service {
  /** Answers a request: the whole API. Every Response is a standard one, readable by any runtime. */
  fetch(request: Request): Promise<Response>;
  /** The resolved options (API, base URL, store, page size, formats...). */
  readonly config: ServiceConfig;
}

/**
 * The routes a service answers: every route its API's declarations imply (`routesOf`), its
 * extensions' routes, and the descriptions (Swagger, Hydra ApiDocumentation, entry point).
 *
 * @example
 * serviceRoutes(options).map((r) => r.path); // ['/player/{id}', ..., '/swagger.json', '/docs.jsonld', '/']
 */
export function serviceRoutes(options: Pick<ServiceOptions, 'api' | 'extensions'>): Route[] {
  return [...routesOf(options.api), ...(options.extensions ?? []).flatMap((e) => e.routes ?? []), ...descriptionRoutes];
}

/**
 * Creates a service answering a declared API with the given options (resolved once): the core, with
 * the formats given in `representations`. The package's `createService` fills in the built-in formats,
 * and `createPlayerService` the Player API.
 *
 * @example
 * const service = createService({ api, baseUrl: 'https://api.example.com', representations: defaultRepresentations });
 */
export function createService(options: ServiceOptions): Service {
  if (!options || typeof options !== 'object' || !options.api || typeof options.api.type !== 'function') {
    throw new TypeError('createService: options.api (an API from defineApi) is required');
  }
  const routes = serviceRoutes(options);
  const config = resolveOptions(options, endpointsOf(routes));
  const match = createRouter(routes);
  // Links every answer carries (RFC 8288), to resources of routes without parameters.
  const everywhereLinks = linksToEveryAnswer(routes);

  function handle(ctx: Context): Awaitable<Answer> {
    const head = ctx.head;
    // RFC 9110 section 15.6.2: a method this server does not recognize, for any resource, is 501.
    if (!KNOWN_METHODS.has(head.method)) throw new HttpError(501, `${head.method} is not a method this server implements.`);
    const path = ctx.target.pathname;
    if (!path.startsWith(config.basePath + '/') && path !== config.basePath) {
      throw new HttpError(404, `Nothing is served at ${path}.`);
    }
    const selection = selectVersion(config.versioning, path.slice(config.basePath.length), head.headers.get(API_VERSION_HEADER), config.now());
    // The canonical non-versioned URL of this request, query string kept (made when it is needed).
    const canonical = () => `${ctx.baseUrl}${selection.path}${ctx.target.search}`;
    if (selection.kind === 'redirect') {
      // RFC 9110 section 15.4.9: 308 keeps the method and body, so writes follow it too. A 308 is
      // cacheable by default (section 15.1); with trustProxy its Location comes from forwarding fields,
      // which a shared cache would not key it by: never stored then.
      const fields: Fields = new Map([['location', canonical()]]);
      if (config.trustProxy) fields.set('cache-control', 'no-store');
      return new Answer(308, fields, null);
    }
    useVersion(ctx, selection, canonical);
    for (const link of everywhereLinks(ctx.baseUrl)) addField(ctx.responseHeaders, 'link', link);
    const found = match(selection.path || '/');
    if (!found) throw new HttpError(404, `Nothing is served at ${path}.`);
    ctx.params = found.params;
    ctx.route = found.route.path;
    const method = head.method; // upper case (normalizedHead)
    const handler = found.route.methods[method] ?? (method === 'HEAD' ? found.route.methods.GET : undefined);
    // RFC 9110 section 15.5.6: a method the resource does not support is 405 with Allow, decided from
    // the head alone (before credentials, which a method like TRACE never gets to present).
    if (!handler && method !== 'OPTIONS') {
      const allow = allowedMethods(found.route).join(', ');
      throw new HttpError(405, `${method} is not allowed here; allowed: ${allow}.`, { headers: { Allow: allow } });
    }
    // Identified already when the rate limit counted the request by its principal; a request without
    // credentials is anonymous, known without a turn of the event loop.
    if (ctx.principal === undefined && head.headers.has('authorization')) {
      return andThen(identify(ctx), (principal) => {
        ctx.principal = principal;
        return dispatch(ctx, found.route, handler);
      });
    }
    return dispatch(ctx, found.route, handler);
  }

  /** The route's handler, or for OPTIONS (RFC 9110 section 9.3.7) what the resource allows. */
  function dispatch(ctx: Context, route: Route, handler: RouteHandler | undefined): Awaitable<Answer> {
    if (handler) return handler(ctx);
    const fields: Fields = route.optionsFields?.(config, route) ?? new Map();
    fields.set('allow', allowedMethods(route).join(', '));
    return new Answer(204, fields, null);
  }

  // Kept answers are forgotten as the store tells which items changed (a store that cannot tell keeps
  // none), and the store let go while nothing asks the memo (MemoWatch).
  const watch = config.answerMemo && MemoWatch.start(config.answerMemo, config.store);
  const memo = watch ? config.answerMemo : undefined;
  config.answerMemo = memo;
  config.memoWatch = watch;
  const changesLive = memo && (() => (watch!.asleep ? undefined : memo.trusted(Date.now()))); // asleep: no feed to report on
  const probe = config.health ? healthProbes(config.basePath, { store: config.store, type: config.api.types[0]!, changesLive }) : undefined;
  const poolStats = (config.store as { poolStats?: () => { total: number; idle: number; waiting: number; max: number } }).poolStats;
  const metrics = config.metrics
    ? new ServiceMetrics({
        memo: memo && (() => memo.stats),
        bodyCache: config.bodyCache && (() => config.bodyCache!.stats),
        pool: poolStats && (() => poolStats.call(config.store)),
      })
    : undefined;

  /**
   * The one request path: a kept answer when one holds (synchronously), else the request handled
   * (synchronously too where nothing it needs is I/O), any failure rendered as an error answer.
   */
  function answer(given: RequestHead, request: () => Request): Answer | Promise<Answer> {
    const head = normalizedHead(given);
    // Health probes and metrics are answered outside the API (no negotiation, no versioning, never kept).
    // Their last path segments have 6 or 7 characters: a test that costs nothing for every other request.
    const segment = lastSegmentLength(head.url);
    if (segment === 6 || segment === 7) {
      const probed = probe?.(head);
      if (probed) return probed;
      const scrape = metrics && metricsAnswer(head, request);
      if (scrape) return scrape;
    }
    const cors = config.cors;
    const limit = config.rateLimit;
    if (!metrics && !cors && !config.compression && !limit) return apiAnswer(head, request);
    const started = metrics ? performance.now() : 0;
    let answered: Answer | Promise<Answer>;
    // A request without credentials is counted by its address here, before a kept answer can be
    // given; one with credentials by its principal once identified (compute).
    if (limit && !isPreflight(head) && !head.headers.has('authorization')) {
      const verdict = countRequest(limit, addressKey(head, config.trustProxy, limit.clientAddress), Date.now());
      const admit = (v: RateVerdict | undefined) => (v?.limited ? tooManyRequests(head, request, v) : withRateFields(coded(head, request), v));
      answered = verdict instanceof Promise ? verdict.then(admit) : admit(verdict);
    } else answered = coded(head, request);
    const source = answered instanceof Promise ? 'computed' : 'kept';
    // CORS fields depend on Origin, which kept answers are not keyed by: added on the way out.
    const finish = (a: Answer): Answer => {
      metrics?.observe(routeOf(head.url), head.method, a.status, (performance.now() - started) / 1000, source);
      return cors ? withCors(a, head, cors) : a;
    };
    return answered instanceof Promise ? answered.then(finish) : finish(answered);
  }

  /** The API's answer, in the content coding the request accepts when compression is on. */
  function coded(head: RequestHead, request: () => Request): Answer | Promise<Answer> {
    const compression = config.compression;
    if (!compression) return apiAnswer(head, request);
    // The coding is chosen first: a tag the client holds names a representation in one coding.
    const coding = chooseCoding(head.headers.get('accept-encoding'), compression);
    const { head: decoded, held } = decodedPreconditions(head, coding, compression);
    const computed = apiAnswer(decoded, request);
    const encode = (a: Answer) => encodedAnswer(a, head, coding, held, compression, config.bodyCache, () => routeOf(head.url));
    return computed instanceof Promise ? computed.then(encode) : encode(computed);
  }

  /** RFC 6585 section 4: 429, in the format the request would get its errors in. */
  function tooManyRequests(head: RequestHead, request: () => Request, verdict: RateVerdict): Answer {
    const ctx = new Context(head, request, config, targetOf(head.url, config.baseUrl));
    return errorAnswer(rateLimited(verdict), ctx);
  }

  /** The route template of a URL (for metrics labels), or `unmatched`. */
  function routeOf(url: string): string {
    const start = url.indexOf('/', url.indexOf('//') + 2);
    const query = url.indexOf('?');
    const path = start === -1 ? '/' : url.slice(start, query === -1 ? undefined : query);
    if (!path.startsWith(config.basePath)) return 'unmatched';
    return match(path.slice(config.basePath.length) || '/')?.route.path ?? 'unmatched';
  }

  /** GET {basePath}/metrics, behind credentials when the option says so; undefined for other requests. */
  function metricsAnswer(head: RequestHead, request: () => Request): Answer | Promise<Answer> | undefined {
    const scrape = metrics!.answer(head, config.basePath);
    if (!scrape || config.metrics !== 'authenticated') return scrape;
    const ctx = new Context(head, request, config, targetOf(head.url, config.baseUrl));
    // Through a promise: a hook that throws at once is answered like one that rejects.
    return Promise.resolve(ctx)
      .then(identify)
      .then(
        (principal) => (principal ? scrape : errorAnswer(new HttpError(401, 'The metrics need credentials.', { headers: { 'WWW-Authenticate': 'Bearer realm="player-api"' } }), ctx)),
        (error: unknown) => errorAnswer(toHttpError(error), ctx),
      );
  }

  function apiAnswer(head: RequestHead, request: () => Request): Answer | Promise<Answer> {
    const key = memo?.keyFor(head);
    if (key !== undefined) {
      watch!.use();
      const now = Date.now();
      const kept = memo!.lookup(key, now);
      const hit = kept && answerSelected(head, kept, now);
      if (hit && hit !== 'failed') return hit;
    }
    return compute(head, request, key);
  }

  function compute(head: RequestHead, request: () => Request, key: string | undefined): Awaitable<Answer> {
    // Changes told from here on keep this answer out of the memo (its reads may predate them).
    const since = memo?.epoch ?? 0;
    const target = requestTarget(head.url);
    const ctx = new Context(head, request, config, target ?? targetOf(config.baseUrl, config.baseUrl));
    ctx.memoized = key !== undefined;
    const finish = (answered: Answer): Answer => {
      mergeFields(answered.fields, ctx.responseHeaders, API_VERSION_HEADER, answered.status);
      if (key !== undefined && ctx.selected) memo!.record(key, ctx.selected, Date.now(), since, ctx.route);
      return answered;
    };
    const failed = (error: unknown): Answer => {
      if (error instanceof StoreError) metrics?.storeError(error.code);
      return finish(errorAnswer(toHttpError(error), ctx));
    };
    let answered: Awaitable<Answer>;
    try {
      // RFC 9112 section 3.2: an invalid Host field value, or more than one Host line, is 400.
      const host = head.headers.get('host');
      if (host !== null && !isValidHost(host)) throw new HttpError(400, 'The Host header field is not a valid host[:port] (RFC 9110 section 7.2).');
      // An adapter builds the URL from the Host field and the request target, either may be malformed;
      // a Host has no userinfo (RFC 9112 section 3.2), and Fetch refuses a URL with credentials.
      if (!target) throw new HttpError(400, 'The request target and Host do not form a valid http(s) URL.');
      if (config.trustProxy) ctx.baseUrl = forwardedBaseUrl(head.headers, config.baseUrl, config.trustProxy.fields);
      const limit = config.rateLimit;
      answered = limit && head.headers.has('authorization') && !isPreflight(head) ? countByPrincipal(ctx, limit, config.trustProxy).then(() => handle(ctx)) : handle(ctx);
      // Awaited: the writer then reads its write back through the cache (bounded by the purger's timeout).
      const purge = config.cacheTags?.purge;
      if (purge && WRITES.has(head.method)) {
        answered = andThen(answered, async (a) => {
          if (!ctx.unchanged) await purgeAfterWrite(purge, head.method, a.status, ctx.item);
          return a;
        });
      }
    } catch (error) {
      return failed(error);
    }
    // A handler that needed no I/O answered at once: so does the service.
    return answered instanceof Promise ? answered.then(finish, failed) : finish(answered);
  }

  const service: Service = {
    config,
    async fetch(request: Request): Promise<Response> {
      return (await answer(request, () => request)).toResponse();
    },
  };
  return attachAnswerer(service, answer);
}

/**
 * The methods of RFC 9110 section 9 and PATCH (RFC 5789): any other is 501 (section 15.6.2); these are
 * 405 with Allow where a resource does not support them.
 */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** The length of the last path segment of an absolute URL (before any query), without allocating. */
function lastSegmentLength(url: string): number {
  const query = url.indexOf('?');
  const end = query === -1 ? url.length : query;
  return end - url.lastIndexOf('/', end - 1) - 1;
}
