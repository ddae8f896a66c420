// createService options and their defaults, resolved once.
import type { CorsOptions } from './cors.js';
import type { Authenticate } from './credentials.js';
import type { CompressionOptions } from '../respond/compression.js';
import type { CacheTagOptions } from './cache-tags.js';
import type { RateLimitOptions } from './rate-limit.js';
import type { CacheOptions, CachePolicy } from '../respond/cache-policy.js';
import type { TrustProxyOptions } from '../http/forwarded.js';
import type { Representation } from '../model/representation.js';
import type { Store } from '../../stores/contract.js';
import type { Api } from '../model/api.js';
import type { Route } from './router.js';
import type { DescriptionExtension } from '../descriptions/extension.js';
import type { ApiVersionOptions } from './versioning.js';

/**
 * Default size of the rendered-body cache, in bytes (8 MiB). Where answers are kept (the answer memo)
 * it makes no difference beyond the noise between runs; where they cannot be (a store that does not
 * tell about changes, `trustProxy`, requests with credentials) it spares rendering a repeated read
 * (docs/decisions.md).
 */
export const DEFAULT_BODY_CACHE_BYTES = 8 * 1024 * 1024;

/** Default size of the kept answers, in bytes (32 MiB). */
export const DEFAULT_ANSWER_MEMO_BYTES = 32 * 1024 * 1024;

/**
 * What a part of an API that the declarations do not cover brings to a service (the Player API's
 * avatars): its routes, answered beside the API's own; the default cache policies of the kinds its
 * routes answer with (`cache` option keys); and additions to the descriptions.
 *
 * @example
 * const avatars: ServiceExtension = { routes: [avatarRoute], cache: { avatar: { scope: 'public', maxAge: 86400 } } };
 */
export interface ServiceExtension {
  readonly routes?: readonly Route[];
  readonly cache?: Readonly<Record<string, CachePolicy>>;
  readonly describe?: DescriptionExtension;
}

/**
 * Options of `createService`. `api` (what is served) and `baseUrl` are required; the package entry
 * point's `createService` fills `representations` with the eight built-in formats.
 *
 * @example
 * const options: ServiceOptions = { api: playerApi, baseUrl: 'https://api.example.com', pageSize: 20 };
 */
export interface ServiceOptions {
  /** The API served: its resource types, from `defineApi`. */
  api: Api;
  /** Absolute URL the service is reachable at; every link is built from it. A path prefix is allowed. */
  baseUrl: string;
  /** Where the items live. Default: a new MemoryStore. */
  store?: Store;
  /** Members per page of every list (default 10). */
  pageSize?: number;
  /** What parts outside the declarations bring: routes, cache kinds, description additions. */
  extensions?: readonly ServiceExtension[];
  /** Cross-origin access for browsers (CORS); none by default. See `CorsOptions`. */
  cors?: CorsOptions;
  /**
   * Compress text answers by Accept-Encoding (default off; `true`: gzip above 1 KiB). See
   * `CompressionOptions`; on Node, `compression: { codings: nodeContentCodings() }` adds br.
   */
  compression?: boolean | CompressionOptions;
  /**
   * `GET {basePath}/metrics` in the Prometheus text format: true, or `'authenticated'` to answer it only
   * to requests whose credentials the `authenticate` hook accepts (401 otherwise). Default false:
   * counting every request costs about a tenth of the throughput of the fastest answers.
   */
  metrics?: boolean | 'authenticated';
  /**
   * Answer `{basePath}/healthz` and `{basePath}/readyz` (default true): health probes outside the API,
   * in `application/health+json`; /readyz is 503 while the store does not answer (README, "Running in production").
   */
  health?: boolean;
  /**
   * Searches stop counting matches past this many (default 1,000, or past the requested page's end when
   * that is further), so a search costs at most that much of the list; beyond it the total is reported
   * as a lower bound (README, "Search totals").
   */
  searchCountLimit?: number;
  /** The formats served; the first is the default for a missing Accept or `*\/*`. Later entries with the same media type replace earlier ones. */
  representations?: readonly Representation[];
  /**
   * Caching: policies per kind of answer, each merged field by field over the documented defaults
   * (docs/caching.md): a type's items by its name (`player`, 60 s), a list by its relation's name
   * (`friends`, 10 s), `search` (10 s), and the kinds of the extensions (`avatar`, a day); and
   * `authorized` ('revalidate' by default, or 'private') for responses to requests that carry
   * credentials. See docs/caching.md.
   */
  cache?: CacheOptions;
  /** Checks the credentials of requests that carry Authorization. Without it, any credentials are invalid (401) and writes are refused. */
  authenticate?: Authenticate;
  /** Largest request body accepted, in bytes (default 64 KiB); larger ones are 413. */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects accepted in a JSON body (default 32); deeper is 400. */
  maxBodyDepth?: number;
  /** When true, writes without If-Match are 428 Precondition Required (RFC 6585 section 3). Default false. */
  requireIfMatch?: boolean;
  /** The API versions served (default: 1.0.1 only). The highest current one is the latest. */
  versions?: readonly ApiVersionOptions[];
  /** Days a deprecated major keeps working before its URLs redirect (default 180). */
  gracePeriodDays?: number;
  /**
   * The clock (epoch milliseconds) of every date the service writes (Date, Expires, the cap on
   * Last-Modified) and of deprecation and sunset decisions; for tests, with the same clock given to the
   * store (`new MemoryStore({ now })`) for Last-Modified. With it, no answer is kept between requests.
   */
  now?: () => number;
  /**
   * Trust the proxies in front of the service (default false: forwarding fields are ignored). Name the
   * family of fields they set and how many of them append to the address list: `{ fields: 'x-forwarded',
   * hops: 1 }` (what `true` means: one nginx-style proxy sending X-Forwarded-For/-Proto/-Host/-Prefix) or
   * `{ fields: 'forwarded' }` (RFC 7239). Links are then built from the scheme, host and prefix they
   * report, and the rate limit counts the address `hops` from the end of the list; the other family
   * is ignored. See `TrustProxyOptions` and docs/scaling.md.
   */
  trustProxy?: boolean | TrustProxyOptions;
  /**
   * Bytes of rendered bodies kept by strong ETag, so that a repeated GET of unchanged data is not
   * rendered again (default 8 MiB; 0 turns the cache off); a route whose bodies go unread is kept
   * sparsely. See `BodyCache`.
   */
  bodyCacheBytes?: number;
  /**
   * Keep complete GET and HEAD answers until an item they show changes (default true). It applies only
   * where it is exact: the store tells about its changes (`watch`: MemoryStore does, and
   * PostgresStore across instances), the clock is the system clock (no `now` option),
   * `trustProxy` is off, and the request carries no Authorization. With a store whose reads make a new
   * record each time (not `sharesRecords`: PostgreSQL), the records it reads are kept the same
   * way, for reads in another format and the first attempt of a write's compare-and-set (which still
   * checks the revision in the store). See `AnswerMemo`. While nobody asks it anything over a thousand
   * change notices (an instance that only writes), it keeps nothing and stops watching the store, and
   * watches again at the next read (`MemoWatch`).
   */
  memoizeAnswers?: boolean;
  /** Bytes of kept answers (default 32 MiB; 0 turns keeping answers off). */
  answerMemoBytes?: number;
  /**
   * Requests per window per client (a principal, else an address), then 429 with Retry-After; every
   * counted answer carries the RateLimit and RateLimit-Policy fields. Off by default. See
   * `RateLimitOptions`; share `counter` between instances to share the limit.
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * Name in a header (`xkey` by default) the items each answer shows, and purge a shared cache by
   * them after every write, so that it can hold answers for minutes and still show a write at once.
   * `true` tags without purging. See `CacheTagOptions` and `httpPurger`.
   */
  cacheTags?: CacheTagOptions | boolean;
}

/**
 * One path the service answers and the methods it allows there (HEAD with GET, OPTIONS everywhere),
 * as the Swagger description and the Hydra documentation describe it.
 *
 * @example
 * const endpoint: Endpoint = { path: '/player/{id}', methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] };
 */
export interface Endpoint {
  path: string;
  methods: readonly string[];
}
