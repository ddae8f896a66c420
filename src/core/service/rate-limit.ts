// Rate limiting: a fixed window of requests per client (a principal, else an address), announced with the
// IETF RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers-10) and 429 (RFC 6585).
import type { RequestHead } from '../http/request-head.js';
import { forwardedClient, type TrustProxyPolicy } from '../http/forwarded.js';
import { addressBucket } from '../http/ip-address.js';
import { HttpError } from '../http/problem.js';
import { Answer, type Fields } from '../respond/answer.js';
import { identify } from './auth.js';
import type { RequestContext } from './context.js';

/**
 * Counts requests per key in fixed windows. Several instances share a limit by sharing a counter
 * (`PostgresPlayerStore.rateLimitCounter()`); `MemoryRateLimitCounter` counts in one process.
 *
 * @example
 * const counter: RateLimitCounter = { increment: (key, window) => redisIncrement(`${key}:${window}`) };
 */
export interface RateLimitCounter {
  /**
   * Adds one request of `key` to the window numbered `window` (windows of `windowSeconds` counted from
   * the Unix epoch) and returns the window's count after adding. A count may land in a later window the
   * counter already moved to (clocks of instances differ a little); it never goes back.
   */
  increment(key: string, window: number, windowSeconds: number): number | Promise<number>;
}

/**
 * The `rateLimit` option: `limit` requests per `windowSeconds` per client, then 429 until the window
 * ends. A client is the principal the `authenticate` hook names, else the client's address.
 *
 * @example
 * createPlayerService({ baseUrl, rateLimit: { limit: 600, windowSeconds: 60 } });
 */
export interface RateLimitOptions {
  /** Requests a client may make in one window (a positive integer). */
  limit: number;
  /** The window's length in seconds (default 60). */
  windowSeconds?: number;
  /** Where counts are kept (default: a `MemoryRateLimitCounter` of this service). */
  counter?: RateLimitCounter;
  /**
   * The client's address for a request without credentials, where the adapter cannot tell it (Bun's
   * `server.requestIP`, Deno's `info.remoteAddr`, Cloudflare's `CF-Connecting-IP`). Default: the address
   * the Node adapters give, or with `trustProxy` the last hop of `Forwarded` / `X-Forwarded-For`.
   */
  clientAddress?: (head: RequestHead) => string | null | undefined;
}

/** The `rateLimit` option after defaults. */
export interface RateLimitPolicy {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly counter: RateLimitCounter;
  readonly clientAddress: ((head: RequestHead) => string | null | undefined) | undefined;
  /** The RateLimit-Policy field value, the same on every answer. */
  readonly policyField: string;
  /**
   * The clients known to be over the limit in the window `limitedWindow`: their requests are refused
   * without asking the counter again (a 429 costs no write to a shared counter's database).
   */
  readonly limited: Set<string>;
  limitedWindow: number;
}

/** What counting one request decided: the fields to send, and whether it is over the limit. */
export interface RateVerdict {
  readonly limited: boolean;
  /** Seconds until the window ends (Retry-After and the RateLimit `t` parameter). */
  readonly reset: number;
  readonly fields: readonly (readonly [string, string])[];
}

/** The problem type of a 429 (RFC 9457 section 3.1.1), documented in docs/errors.md. */
export const RATE_LIMITED = 'tag:player-hypermedia,2026:rate-limited';

// draft-ietf-httpapi-ratelimit-headers-10 section 3: policies are named; the service has one.
const POLICY_NAME = '"default"';

/** The key that clients past a memory counter's `maxKeys` share (see MemoryRateLimitCounter). */
const OVERFLOW_KEY = 'overflow';

/**
 * Counts in this process: one map of the current window, replaced when a later window begins, so it
 * holds only the clients of the last window, and at most `maxKeys` of them (default 100,000, about
 * 10 MB): clients first seen after that share one count until the window ends, so a flood of
 * distinct clients costs bounded memory and is limited as one.
 *
 * @example
 * createPlayerService({ baseUrl, rateLimit: { limit: 60, counter: new MemoryRateLimitCounter() } });
 */
export class MemoryRateLimitCounter implements RateLimitCounter {
  readonly #maxKeys: number;
  #window = -Infinity;
  #counts = new Map<string, number>();

  constructor(maxKeys = 100_000) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new TypeError('MemoryRateLimitCounter: maxKeys must be a positive integer');
    this.#maxKeys = maxKeys;
  }

  /** Keys counted in the current window (for tests and monitoring). */
  get size(): number {
    return this.#counts.size;
  }

  increment(key: string, window: number): number {
    if (window > this.#window) {
      this.#window = window;
      this.#counts = new Map();
    }
    let counted = key;
    if (!this.#counts.has(key) && this.#counts.size >= this.#maxKeys) counted = OVERFLOW_KEY;
    const count = (this.#counts.get(counted) ?? 0) + 1;
    this.#counts.set(counted, count);
    return count;
  }
}

/** The most clients remembered as over the limit in one window (past it, the memory is started again). */
const MAX_LIMITED_KEYS = 10_000;

/**
 * Validates the option (a TypeError for misuse) and applies defaults; undefined when it is off.
 *
 * @example
 * resolveRateLimit({ limit: 60 })?.policyField; // '"default";q=60;w=60'
 */
export function resolveRateLimit(options: RateLimitOptions | false | undefined): RateLimitPolicy | undefined {
  if (options === undefined || options === false) return undefined;
  const limit = options.limit;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError('createService: rateLimit.limit must be a positive integer');
  const windowSeconds = options.windowSeconds ?? 60;
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) throw new TypeError('createService: rateLimit.windowSeconds must be a positive integer');
  const counter = options.counter ?? new MemoryRateLimitCounter();
  if (typeof counter.increment !== 'function') throw new TypeError('createService: rateLimit.counter needs increment()');
  if (options.clientAddress !== undefined && typeof options.clientAddress !== 'function') {
    throw new TypeError('createService: rateLimit.clientAddress must be a function');
  }
  // Section 3.1: q is the quota, w the window in seconds.
  return {
    limit,
    windowSeconds,
    counter,
    clientAddress: options.clientAddress,
    policyField: `${POLICY_NAME};q=${limit};w=${windowSeconds}`,
    limited: new Set(),
    limitedWindow: -Infinity,
  };
}

/**
 * Counts one request of `key` at `now` (ms) and says whether it is over the limit. A counter that fails
 * (the database is away) lets the request through without fields: the limit protects the service, it
 * must not take it down with the counter.
 *
 * @example
 * const verdict = await countRequest(policy, 'address:192.0.2.1', Date.now());
 */
export function countRequest(policy: RateLimitPolicy, key: string, now: number): RateVerdict | undefined | Promise<RateVerdict | undefined> {
  const span = policy.windowSeconds * 1000;
  const window = Math.floor(now / span);
  const reset = Math.max(1, Math.ceil(((window + 1) * span - now) / 1000));
  const verdict = (count: number): RateVerdict => {
    const limited = count > policy.limit;
    // Section 3.2 (RateLimit): r is the quota left, t the seconds until it is restored.
    const fields: [string, string][] = [
      ['ratelimit-policy', policy.policyField],
      ['ratelimit', `${POLICY_NAME};r=${Math.max(0, policy.limit - count)};t=${reset}`],
    ];
    // RFC 6585 section 4 and RFC 9110 section 10.2.3: when to try again.
    if (limited) fields.push(['retry-after', String(reset)]);
    return { limited, reset, fields };
  };
  if (window !== policy.limitedWindow) {
    policy.limitedWindow = window;
    policy.limited.clear();
  }
  // A client over the limit stays over it until the window ends: no need to count it again.
  if (policy.limited.has(key)) return verdict(policy.limit + 1);
  const judged = (count: number): RateVerdict => {
    const v = verdict(count);
    if (v.limited && window === policy.limitedWindow) {
      if (policy.limited.size >= MAX_LIMITED_KEYS) policy.limited.clear();
      policy.limited.add(key);
    }
    return v;
  };
  let counted: number | Promise<number>;
  try {
    counted = policy.counter.increment(key, window, policy.windowSeconds);
  } catch {
    return undefined;
  }
  return typeof counted === 'number' ? judged(counted) : counted.then(judged, () => undefined);
}

/**
 * The key of a request without credentials: its client's address, parsed (`addressBucket`: IPv4,
 * IPv4-mapped IPv6 as IPv4, other IPv6 by their /64), never the text a client wrote; `unknown` when
 * nothing tells it or what tells it is not an address. Under `trustProxy` the address is the one the
 * trusted proxies report (`forwardedClient`), else the socket's.
 *
 * @example
 * addressKey({ method: 'GET', url: 'http://x.test/', headers: new Headers(), clientAddress: '2001:db8::1' }, false, undefined);
 * // 'address:2001:db8:0:0::/64'
 */
export function addressKey(head: RequestHead, trust: TrustProxyPolicy | false, clientAddress: RateLimitPolicy['clientAddress']): string {
  const address = clientAddress?.(head) ?? (trust ? forwardedClient(head.headers, trust) : undefined) ?? head.clientAddress;
  return `address:${(address && addressBucket(address)) ?? 'unknown'}`;
}

/**
 * True for a CORS preflight (Fetch standard, "CORS-preflight request": OPTIONS with Origin and
 * Access-Control-Request-Method): never counted, a browser sends one before the request it asks about,
 * and a 429 to it would hide the real answer from the page. Without Origin it is no preflight, and
 * counted like any request.
 */
export function isPreflight(head: RequestHead): boolean {
  return head.method === 'OPTIONS' && head.headers.has('access-control-request-method') && head.headers.has('origin');
}

/**
 * The `rateLimit` option from the environment of the example servers and `serve`: RATE_LIMIT requests
 * per minute per client (unset or empty: off), counted in the store's database when it offers a shared
 * counter (`PostgresPlayerStore.rateLimitCounter`), else in the process.
 *
 * @example
 * rateLimitOptionFromEnv({ RATE_LIMIT: '600' }, store); // { limit: 600, windowSeconds: 60, counter: ... }
 */
export function rateLimitOptionFromEnv(env: Readonly<Record<string, string | undefined>>, store: object): RateLimitOptions | undefined {
  const given = env.RATE_LIMIT?.trim();
  if (!given) return undefined;
  const limit = Number(given);
  if (!/^\d+$/.test(given) || !Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`RATE_LIMIT "${env.RATE_LIMIT}" is not a positive whole number of requests per minute`);
  const shared = (store as { rateLimitCounter?: () => RateLimitCounter }).rateLimitCounter;
  return { limit, windowSeconds: 60, ...(typeof shared === 'function' ? { counter: shared.call(store) } : {}) };
}

/**
 * The 429 of a verdict over the limit (RFC 6585 section 4), with its RateLimit fields and Retry-After.
 *
 * @example
 * throw rateLimited(verdict);
 */
export function rateLimited(verdict: RateVerdict): HttpError {
  return new HttpError(429, `Too many requests: this client has used its quota; try again in ${verdict.reset} s.`, {
    headers: Object.fromEntries(verdict.fields),
    type: RATE_LIMITED,
  });
}

/**
 * The answer with the RateLimit fields of a counted request (a copy: a kept answer is shared).
 *
 * @example
 * return withRateFields(answered, verdict);
 */
export function withRateFields(answered: Answer | Promise<Answer>, verdict: RateVerdict | undefined): Answer | Promise<Answer> {
  if (!verdict) return answered;
  const add = (a: Answer): Answer => {
    const fields: Fields = new Map(a.fields);
    for (const [name, value] of verdict.fields) fields.set(name, value);
    return a.withFields(fields);
  };
  return answered instanceof Promise ? answered.then(add) : add(answered);
}

/**
 * Counts a request with credentials by its principal (by its address when they are not valid: a flood
 * of bad tokens is limited too), before routing; the principal is set on `ctx`, and the RateLimit
 * fields go with the answer. Throws 429 past the limit, or the credentials' 401 once counted.
 *
 * @example
 * await countByPrincipal(ctx, config.rateLimit, config.trustProxy);
 */
export async function countByPrincipal(ctx: RequestContext, limit: RateLimitPolicy, trust: TrustProxyPolicy | false): Promise<void> {
  let key: string;
  let refused: unknown;
  try {
    ctx.principal = await identify(ctx);
    key = `principal:${ctx.principal!.id}`;
  } catch (error) {
    refused = error;
    key = addressKey(ctx.head, trust, limit.clientAddress);
  }
  const verdict = await countRequest(limit, key, Date.now());
  if (verdict?.limited) throw rateLimited(verdict);
  for (const [name, value] of verdict?.fields ?? []) ctx.responseHeaders.set(name, value);
  if (refused !== undefined) throw refused;
}
