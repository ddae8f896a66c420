// Metrics of a service in the Prometheus text exposition format, kept in plain counters (no dependency,
// no runtime-specific API, so /metrics works on every runtime the service runs on).
import { Answer, type Fields } from '../respond/answer.js';
import type { RequestHead } from '../http/request-head.js';

/** Upper bounds (seconds) of the latency histogram's buckets. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What the service reports besides its own counters: caches and the store's pool, read when scraped. */
export interface MetricSources {
  memo?: () => { size: number; bytes: number; hits: number; misses: number };
  bodyCache?: () => { hits: number; misses: number; bytes: number };
  pool?: () => { total: number; idle: number; waiting: number; max: number };
}

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

/** A label value as the text format writes it (section "Text format details": \\, \" and \n escaped). */
function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** The methods counted by name (RFC 9110 section 9, and PATCH); any other is `OTHER`. */
const STANDARD_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/**
 * The service's metrics: requests by route, method and status, a latency histogram by route and
 * method, answers by where they came from (kept or computed), store errors by code, and, when
 * scraped, the answer memo, the body cache and the store's connection pool.
 *
 * @example
 * const metrics = new ServiceMetrics({});
 * metrics.observe('/player/{id}', 'GET', 200, 0.002, 'computed');
 * metrics.text(); // '# HELP player_hypermedia_requests_total ...'
 */
export class ServiceMetrics {
  /** By route, then method: the counts by status and the latency histogram (nested maps: nothing built per request). */
  readonly #series = new Map<string, Map<string, { statuses: Map<number, number>; histogram: Histogram }>>();
  readonly #sources = { kept: 0, computed: 0 };
  readonly #storeErrors = new Map<string, number>();
  readonly #from: MetricSources;

  constructor(from: MetricSources) {
    this.#from = from;
  }

  /**
   * Counts one answered request (`route` is its path template, or `unmatched`). A method outside RFC
   * 9110's and PATCH is counted as `OTHER`: a client inventing methods must not add series without end.
   */
  observe(route: string, given: string, status: number, seconds: number, source: 'kept' | 'computed'): void {
    const method = STANDARD_METHODS.has(given) ? given : 'OTHER';
    let byMethod = this.#series.get(route);
    if (!byMethod) this.#series.set(route, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) byMethod.set(method, (series = { statuses: new Map(), histogram: { counts: BUCKETS.map(() => 0), sum: 0, count: 0 } }));
    series.statuses.set(status, (series.statuses.get(status) ?? 0) + 1);
    const h = series.histogram;
    for (let i = BUCKETS.length - 1; i >= 0 && seconds <= BUCKETS[i]!; i--) h.counts[i]!++;
    h.sum += seconds;
    h.count++;
    this.#sources[source]++;
  }

  /** Counts a store error (StoreError's code: unavailable, busy, ...). */
  storeError(code: string): void {
    this.#storeErrors.set(code, (this.#storeErrors.get(code) ?? 0) + 1);
  }

  /** The metrics in the Prometheus text exposition format (version 0.0.4). */
  text(): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    family('player_hypermedia_requests_total', 'counter', 'Requests answered, by route template, method and status.');
    for (const [route, byMethod] of this.#series) {
      for (const [method, { statuses }] of byMethod) {
        for (const [status, n] of statuses) out.push(`player_hypermedia_requests_total{route="${label(route)}",method="${label(method)}",status="${status}"} ${n}`);
      }
    }
    family('player_hypermedia_request_duration_seconds', 'histogram', 'Time from a request reaching the service to its answer, by route and method.');
    for (const [route, byMethod] of this.#series) {
      for (const [method, { histogram: h }] of byMethod) {
        const labels = `route="${label(route)}",method="${label(method)}"`;
        BUCKETS.forEach((le, i) => out.push(`player_hypermedia_request_duration_seconds_bucket{${labels},le="${le}"} ${h.counts[i]}`));
        out.push(`player_hypermedia_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
        out.push(`player_hypermedia_request_duration_seconds_sum{${labels}} ${h.sum}`);
        out.push(`player_hypermedia_request_duration_seconds_count{${labels}} ${h.count}`);
      }
    }
    family('player_hypermedia_answers_total', 'counter', 'Answers by source: kept (the answer memo) or computed.');
    out.push(`player_hypermedia_answers_total{source="kept"} ${this.#sources.kept}`, `player_hypermedia_answers_total{source="computed"} ${this.#sources.computed}`);
    family('player_hypermedia_store_errors_total', 'counter', 'Store errors by code (unavailable, busy, ...).');
    for (const [code, n] of this.#storeErrors) out.push(`player_hypermedia_store_errors_total{code="${label(code)}"} ${n}`);
    const memo = this.#from.memo?.();
    if (memo) {
      family('player_hypermedia_answer_memo_lookups_total', 'counter', 'Lookups of the answer memo, by result.');
      out.push(`player_hypermedia_answer_memo_lookups_total{result="hit"} ${memo.hits}`, `player_hypermedia_answer_memo_lookups_total{result="miss"} ${memo.misses}`);
      family('player_hypermedia_answer_memo_bytes', 'gauge', 'Bytes the answer memo holds.');
      out.push(`player_hypermedia_answer_memo_bytes ${memo.bytes}`);
    }
    const bodies = this.#from.bodyCache?.();
    if (bodies) {
      family('player_hypermedia_body_cache_lookups_total', 'counter', 'Lookups of the rendered-body cache, by result.');
      out.push(`player_hypermedia_body_cache_lookups_total{result="hit"} ${bodies.hits}`, `player_hypermedia_body_cache_lookups_total{result="miss"} ${bodies.misses}`);
    }
    const pool = this.#from.pool?.();
    if (pool) {
      family('player_hypermedia_store_pool_connections', 'gauge', 'Connections of the store pool, by state.');
      out.push(`player_hypermedia_store_pool_connections{state="total"} ${pool.total}`, `player_hypermedia_store_pool_connections{state="idle"} ${pool.idle}`);
      out.push(`player_hypermedia_store_pool_connections{state="max"} ${pool.max}`);
      family('player_hypermedia_store_pool_waiting', 'gauge', 'Queries waiting for a connection (the pool is saturated when above 0 for long).');
      out.push(`player_hypermedia_store_pool_waiting ${pool.waiting}`);
    }
    return `${out.join('\n')}\n`;
  }

  /** The answer to `GET {basePath}/metrics`, or undefined for any other request. */
  answer(head: RequestHead, basePath: string): Answer | undefined {
    if (head.method !== 'GET' && head.method !== 'HEAD') return undefined;
    const path = head.url.split('?')[0]!;
    if (!path.endsWith(`${basePath}/metrics`) || new URL(path).pathname !== `${basePath}/metrics`) return undefined;
    const body = this.text();
    const fields: Fields = new Map([
      ['content-type', 'text/plain; version=0.0.4; charset=utf-8'],
      ['cache-control', 'no-store'],
    ]);
    return new Answer(200, fields, head.method === 'HEAD' ? null : body);
  }
}

/**
 * The `metrics` option from the environment of the example servers and `serve`: METRICS=1 (or `on`)
 * serves /metrics, METRICS=authenticated serves it behind the write tokens; unset: none.
 *
 * @example
 * metricsOptionFromEnv({ METRICS: '1' }); // true
 */
export function metricsOptionFromEnv(env: Readonly<Record<string, string | undefined>>): boolean | 'authenticated' {
  const value = (env.METRICS ?? '').trim().toLowerCase();
  if (value === 'authenticated') return 'authenticated';
  return value === '1' || value === 'on' || value === 'true';
}
