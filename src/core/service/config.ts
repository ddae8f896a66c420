// The options of createService after checks and defaults: what the handlers read.
import { resolveCors, type CorsPolicy } from './cors.js';
import type { Authenticate } from './credentials.js';
import { AnswerMemo } from '../caches/answer-memo.js';
import type { MemoWatch } from '../caches/memo-watch.js';
import { BodyCache } from '../caches/body-cache.js';
import { resolveCompression, type CompressionPolicy } from '../respond/compression.js';
import { resolveCacheTags, type CacheTagPolicy } from './cache-tags.js';
import { resolveRateLimit, type RateLimitPolicy } from './rate-limit.js';
import { DEFAULT_CACHE_POLICIES, resolveCacheOptions, type CacheConfig, type CachePolicy } from '../respond/cache-policy.js';
import { MemoryStore } from '../../stores/memory.js';
import { createNegotiation, type Negotiation } from '../http/negotiate.js';
import { resolveTrustProxy, type TrustProxyPolicy } from '../http/forwarded.js';
import type { Representation } from '../model/representation.js';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_BODY_DEPTH } from '../http/request-body.js';
import type { ReadsNow, Store, WritesNow } from '../../stores/contract.js';
import type { Api } from '../model/api.js';
import type { DescriptionExtension } from '../descriptions/extension.js';
import { checkOptionNames, checkServiceOptions, SERVICE_OPTION_NAMES } from './option-checks.js';
import { resolveVersions, type ApiVersionOptions, type VersionPolicy } from './versioning.js';
import { DEFAULT_ANSWER_MEMO_BYTES, DEFAULT_BODY_CACHE_BYTES, type Endpoint, type ServiceExtension, type ServiceOptions } from './options.js';

/**
 * Options after defaults, as the handlers use them.
 *
 * @example
 * createService({ api, baseUrl: 'https://x.test/api' }).config.basePath; // '/api'
 */
export interface ServiceConfig {
  /** The API served. */
  api: Api;
  /** Every path the service answers, with its methods. */
  endpoints: readonly Endpoint[];
  /** The extensions' additions to the descriptions. */
  describe: readonly DescriptionExtension[];
  origin: string;
  basePath: string;
  baseUrl: string;
  store: Store;
  /** The store's synchronous reads (`Store.readsNow`), asked once; undefined when its reads need I/O. */
  readsNow: ReadsNow | undefined;
  /** The store's synchronous writes (`Store.writesNow`), asked once; undefined when its writes need I/O. */
  writesNow: WritesNow | undefined;
  pageSize: number;
  cors: CorsPolicy | undefined;
  compression: CompressionPolicy | undefined;
  rateLimit: RateLimitPolicy | undefined;
  cacheTags: CacheTagPolicy | undefined;
  metrics: boolean | 'authenticated';
  health: boolean;
  searchCountLimit: number;
  representations: readonly Representation[];
  negotiate: Negotiation;
  cache: CacheConfig;
  authenticate: Authenticate | undefined;
  maxBodyBytes: number;
  maxBodyDepth: number;
  requireIfMatch: boolean;
  versioning: VersionPolicy;
  now: () => number;
  /** The trusted proxies (see `TrustProxyOptions`), or false. */
  trustProxy: TrustProxyPolicy | false;
  /** Rendered bodies by strong ETag; undefined when turned off. */
  bodyCache: BodyCache | undefined;
  /** Complete GET/HEAD answers until an item they show changes; undefined where that would not be exact. */
  answerMemo: AnswerMemo | undefined;
  /** The memo's watch of the store's changes, which what asks the memo wakes (set by the service). */
  memoWatch?: MemoWatch | undefined;
}

/** How many matches a search counts by default before it reports its total as a lower bound. */
const DEFAULT_SEARCH_COUNT_LIMIT = 1000;

/**
 * Validates options (a TypeError for misuse) and applies defaults.
 *
 * @example
 * resolveOptions({ baseUrl: 'https://x.test/api/', representations }).basePath; // '/api'
 */
export function resolveOptions(options: ServiceOptions, endpoints: readonly Endpoint[] = []): ServiceConfig {
  if (!options || typeof options !== 'object') throw new TypeError('createService: options (an object with api and baseUrl) are required');
  checkOptionNames(options, SERVICE_OPTION_NAMES, 'createService');
  checkServiceOptions(options as unknown as Record<string, unknown>);
  const api = options.api;
  if (!api || typeof api.type !== 'function' || !Array.isArray(api.types)) throw new TypeError('createService: options.api (an API from defineApi) is required');
  if (typeof options.baseUrl !== 'string') throw new TypeError('createService: options.baseUrl (an absolute URL) is required');
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`createService: baseUrl "${options.baseUrl}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('createService: baseUrl must be http or https');
  const pageSize = options.pageSize ?? 10;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) throw new TypeError('createService: pageSize must be an integer from 1 to 1000');
  const representations = dedupe(options.representations ?? []);
  if (representations.length === 0) throw new TypeError('createService: at least one representation is required');
  const basePath = url.pathname.replace(/\/+$/, '');
  const extensions = options.extensions ?? [];
  if (!Array.isArray(extensions)) throw new TypeError('createService: extensions must be an array');
  const store = options.store ?? new MemoryStore();
  const versioning = resolveVersions(options.versions ?? [versionOf(api.version)], options.gracePeriodDays);
  const bodyCache = bodyCacheOf(options.bodyCacheBytes ?? DEFAULT_BODY_CACHE_BYTES);
  const memoBytes = options.answerMemoBytes ?? DEFAULT_ANSWER_MEMO_BYTES;
  if (!Number.isSafeInteger(memoBytes) || memoBytes < 0) throw new TypeError('createService: answerMemoBytes must be a non-negative integer');
  const trustProxy = resolveTrustProxy(options.trustProxy);
  // Where keeping answers is exact; the service also needs the store to tell about changes (watch).
  const memoize = memoBytes > 0 && options.memoizeAnswers !== false && typeof store.watch === 'function' && options.now === undefined && trustProxy === false;
  const sunsets = versioning.versions.flatMap((v) => (v.sunsetAt === undefined ? [] : [v.sunsetAt]));
  return {
    api,
    endpoints,
    describe: extensions.flatMap((e) => (e.describe ? [e.describe] : [])),
    origin: url.origin,
    basePath,
    baseUrl: url.origin + basePath,
    store,
    readsNow: store.readsNow?.(),
    writesNow: store.writesNow?.(),
    pageSize,
    cors: resolveCors(options.cors),
    compression: resolveCompression(options.compression),
    rateLimit: resolveRateLimit(options.rateLimit),
    cacheTags: resolveCacheTags(options.cacheTags),
    metrics: options.metrics ?? false,
    health: options.health ?? true,
    searchCountLimit: positiveInteger(options.searchCountLimit ?? DEFAULT_SEARCH_COUNT_LIMIT, 'searchCountLimit'),
    representations,
    negotiate: createNegotiation(representations),
    cache: resolveCacheOptions(options.cache, cacheKindsOf(api, extensions)),
    authenticate: options.authenticate,
    maxBodyBytes: positiveInteger(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    maxBodyDepth: positiveInteger(options.maxBodyDepth ?? DEFAULT_MAX_BODY_DEPTH, 'maxBodyDepth'),
    requireIfMatch: options.requireIfMatch ?? false,
    versioning,
    now: options.now ?? Date.now,
    trustProxy,
    bodyCache,
    answerMemo: memoize ? new AnswerMemo(memoBytes, sunsets) : undefined,
  };
}

/** The version an API declares (`1.0.1`), as the one version served by default. */
function versionOf(version: string): ApiVersionOptions {
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
  if (!m) throw new TypeError(`createService: the API version "${version}" does not start with major[.minor[.patch]]; pass options.versions`);
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0) };
}

/**
 * The kinds of answers a service's `cache` option names, with their default policies: each type's items
 * (60 s), each to-many relation's pages (10 s), search pages (10 s), and the extensions' own kinds.
 */
function cacheKindsOf(api: Api, extensions: readonly ServiceExtension[]): Record<string, CachePolicy> {
  const kinds: Record<string, CachePolicy> = {};
  for (const type of api.types) {
    kinds[type.name] = DEFAULT_CACHE_POLICIES.item;
    for (const r of type.relations) if (r.kind === 'to-many') kinds[r.name] = DEFAULT_CACHE_POLICIES.list;
  }
  kinds.search = DEFAULT_CACHE_POLICIES.search;
  for (const extension of extensions) Object.assign(kinds, extension.cache);
  return kinds;
}

function bodyCacheOf(bytes: number): BodyCache | undefined {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new TypeError('createService: bodyCacheBytes must be a non-negative integer');
  return bytes === 0 ? undefined : new BodyCache(bytes);
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createService: ${name} must be a positive integer`);
  return value;
}

function dedupe(list: readonly Representation[]): Representation[] {
  const byType = new Map<string, Representation>();
  for (const r of list) {
    if (!r || typeof r.render !== 'function' || typeof r.mediaType !== 'string' || typeof r.name !== 'string') {
      throw new TypeError('createService: every representation needs name, mediaType and render()');
    }
    const key = r.mediaType.toLowerCase();
    // A later entry with the same media type replaces the earlier one, keeping its position.
    byType.set(key, r);
  }
  const kept = [...byType.values()];
  // The name is part of every ETag (and of the body cache's keys): two formats must not share one.
  const names = new Set<string>();
  for (const r of kept) {
    if (names.has(r.name)) throw new TypeError(`createService: two representations are named "${r.name}"; names must be unique`);
    names.add(r.name);
  }
  return kept;
}
