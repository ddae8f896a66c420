// Rate limiting: a fixed window of requests per client (a principal, else an address), announced with the
// IETF RateLimit and RateLimit-Policy fields (draft-ietf-httpapi-ratelimit-headers-10) and 429 (RFC 6585).
import type { RequestHead } from '../http/request-head.js';
import { splitOutsideQuotes } from '../http/forwarded.js';
import { HttpError } from '../http/problem.js';
import { Answer, type Fields } from '../respond/answer.js';

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

/**
 * Counts in this process: one map of the current window, replaced when a later window begins, so it
 * holds only the clients of the last window.
 *
 * @example
 * createPlayerService({ baseUrl, rateLimit: { limit: 60, counter: new MemoryRateLimitCounter() } });
 */
export class MemoryRateLimitCounter implements RateLimitCounter {
  #window = -Infinity;
  #counts = new Map<string, number>();

  increment(key: string, window: number): number {
    if (window > this.#window) {
      this.#window = window;
      this.#counts = new Map();
    }
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count;
  }
}

/**
 * Validates the option (a TypeError for misuse) and applies defaults; undefined when it is off.
 *
 * @example
 * resolveRateLimit({ limit: 60 })?.policyField; // '"default";q=60;w=60'
 */
export function resolveRateLimit(options: RateLimitOptions | false | undefined): RateLimitPolicy | undefined {
  if (options === undefined || options === false) return undefined;
  const limit = options.limit;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError('createPlayerService: rateLimit.limit must be a positive integer');
  const windowSeconds = options.windowSeconds ?? 60;
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) throw new TypeError('createPlayerService: rateLimit.windowSeconds must be a positive integer');
  const counter = options.counter ?? new MemoryRateLimitCounter();
  if (typeof counter.increment !== 'function') throw new TypeError('createPlayerService: rateLimit.counter needs increment()');
  if (options.clientAddress !== undefined && typeof options.clientAddress !== 'function') {
    throw new TypeError('createPlayerService: rateLimit.clientAddress must be a function');
  }
  // Section 3.1: q is the quota, w the window in seconds.
  return { limit, windowSeconds, counter, clientAddress: options.clientAddress, policyField: `${POLICY_NAME};q=${limit};w=${windowSeconds}` };
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
  let counted: number | Promise<number>;
  try {
    counted = policy.counter.increment(key, window, policy.windowSeconds);
  } catch {
    return undefined;
  }
  return typeof counted === 'number' ? verdict(counted) : counted.then(verdict, () => undefined);
}

/**
 * The key of a request without credentials: its client's address, IPv6 addresses by their /64 (one
 * subscriber's network, whose addresses it may rotate at will); `unknown` when nothing tells it.
 *
 * @example
 * addressKey({ method: 'GET', url: 'http://x.test/', headers: new Headers(), clientAddress: '2001:db8::1' }, false, undefined);
 * // 'address:2001:db8:0:0::/64'
 */
export function addressKey(head: RequestHead, trustProxy: boolean, clientAddress: RateLimitPolicy['clientAddress']): string {
  const address = clientAddress?.(head) ?? (trustProxy ? forwardedFor(head) : undefined) ?? head.clientAddress;
  return `address:${address ? addressBucket(address) : 'unknown'}`;
}

/**
 * The address a trusted gateway saw (the last hop it added): the last `for=` of Forwarded (RFC 7239
 * section 5.2), else the last element of X-Forwarded-For. Earlier elements come from the client and
 * prove nothing. Undefined when neither is there or it cannot be read.
 */
function forwardedFor(head: RequestHead): string | undefined {
  const forwarded = head.headers.get('forwarded');
  if (forwarded !== null) {
    try {
      const last = splitOutsideQuotes(forwarded, ',').at(-1)!;
      for (const pair of splitOutsideQuotes(last, ';')) {
        const [name, value] = [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()];
        if (name.toLowerCase() === 'for' && value !== '') return value.replace(/^"(.*)"$/, '$1');
      }
    } catch {
      // An unreadable Forwarded field: the socket's address is used.
    }
  }
  const xff = head.headers.get('x-forwarded-for');
  const last = xff?.slice(xff.lastIndexOf(',') + 1).trim();
  return last || undefined;
}

/**
 * An address as a counting bucket: brackets and port removed (RFC 7239 section 6 node syntax), an
 * IPv4-mapped IPv6 address as IPv4, other IPv6 addresses by their first 64 bits.
 *
 * @example
 * addressBucket('[2001:db8::7]:4711'); // '2001:db8:0:0::/64'
 * addressBucket('::ffff:192.0.2.1');   // '192.0.2.1'
 */
export function addressBucket(address: string): string {
  let a = address.trim();
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(a);
  if (bracket) a = bracket[1]!;
  else if (/^[\d.]+:\d+$/.test(a)) a = a.slice(0, a.indexOf(':'));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1]!;
  if (!a.includes(':')) return a;
  const halves = a.split('::');
  if (halves.length > 2) return a;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const groups = halves.length === 2 ? [...head, ...Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail] : head;
  const prefix = groups.slice(0, 4);
  if (prefix.length < 4 || !prefix.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return a;
  return `${prefix.map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/**
 * True for a CORS preflight (Fetch standard, "CORS-preflight request"): never counted, a browser sends
 * one before the request it asks about, and a 429 to it would hide the real answer from the page.
 */
export function isPreflight(head: RequestHead): boolean {
  return head.method === 'OPTIONS' && head.headers.has('access-control-request-method');
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
