// CORS (Fetch standard, "CORS protocol"): which other origins' pages may read the answers and send writes.
import { Answer, type Fields } from '../respond/answer.js';
import { appendVary, copyFields } from '../respond/fields.js';
import type { RequestHead } from '../http/request-head.js';

/**
 * Cross-origin access for browsers: `origins` lists the origins granted (`https://game.example`,
 * exactly as browsers send them), or is `'*'`: any origin, for reads only (GET and HEAD, no
 * credentials). `credentials` lets pages send cookies and HTTP authentication along
 * (`Access-Control-Allow-Credentials`), only with listed origins. `maxAge`: seconds a browser may keep a
 * preflight's answer (default 600).
 *
 * @example
 * createPlayerService({ baseUrl, cors: { origins: ['https://game.example'] } });
 */
export interface CorsOptions {
  origins: readonly string[] | '*';
  credentials?: boolean;
  maxAge?: number;
}

/** The request fields the API reads that a page may send (a preflight grants them). */
const REQUEST_HEADERS = 'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, Idempotency-Key, Api-Version';
/** The answer fields a page may read beyond the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'ETag, Link, Location, Total-Count, Api-Version, Deprecation, Sunset, Retry-After, Allow, Accept-Patch, Accept-Post, WWW-Authenticate, RateLimit, RateLimit-Policy';
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** A validated CORS configuration. */
export interface CorsPolicy {
  origins: ReadonlySet<string> | '*';
  credentials: boolean;
  maxAge: number;
}

/**
 * Validates CORS options (a TypeError for misuse: an origin that is not a serialized origin, or `'*'`
 * with credentials, which the Fetch standard forbids).
 *
 * @example
 * resolveCors({ origins: ['https://game.example'] })?.credentials; // false
 */
export function resolveCors(options: CorsOptions | undefined): CorsPolicy | undefined {
  if (options === undefined) return undefined;
  const { origins, credentials = false, maxAge = 600 } = options;
  if (origins === '*') {
    if (credentials) throw new TypeError("createService: cors.credentials cannot go with origins '*' (Fetch standard, CORS protocol)");
  } else {
    for (const origin of origins) {
      let serialized: string | undefined;
      try {
        serialized = new URL(origin).origin;
      } catch {
        serialized = undefined;
      }
      if (serialized !== origin) throw new TypeError(`createService: cors origin "${origin}" is not an origin like https://game.example`);
    }
  }
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new TypeError('createService: cors.maxAge must be a non-negative integer');
  return { origins: origins === '*' ? '*' : new Set(origins), credentials, maxAge };
}

/**
 * The answer with the CORS fields its request earns. Every answer of a policy with listed origins says
 * `Vary: Origin` (it differs by Origin); a granted origin gets `Access-Control-Allow-Origin` (and
 * `-Credentials`), and the fields it may read (`Access-Control-Expose-Headers`); a preflight (OPTIONS
 * with `Access-Control-Request-Method`) of a resource gets the methods it allows and the request
 * fields the API reads. An origin not granted gets none of them, so the browser keeps the answer from
 * the page. Errors are granted too, so pages can read their problem documents.
 *
 * @example
 * const answer = withCors(await compute(head), head, policy);
 */
export function withCors(answer: Answer, head: RequestHead, policy: CorsPolicy): Answer {
  const fields: Fields = copyFields(answer.fields);
  const requested = head.method === 'OPTIONS' ? head.headers.get('access-control-request-method') : null;
  if (policy.origins !== '*') appendVary(fields, 'Origin');
  if (requested !== null) {
    appendVary(fields, 'Access-Control-Request-Method');
    appendVary(fields, 'Access-Control-Request-Headers');
  }
  const origin = head.headers.get('origin');
  const method = requested?.toUpperCase() ?? head.method;
  const granted = origin !== null && (policy.origins === '*' ? READS.has(method) : policy.origins.has(origin));
  if (granted) {
    fields.set('access-control-allow-origin', policy.origins === '*' ? '*' : origin);
    if (policy.credentials) fields.set('access-control-allow-credentials', 'true');
    const allow = fields.get('allow');
    if (requested === null) fields.set('access-control-expose-headers', EXPOSED_HEADERS);
    else if (answer.status === 204 && allow !== undefined) {
      const methods = allow.split(/\s*,\s*/).filter((m) => policy.origins !== '*' || READS.has(m));
      fields.set('access-control-allow-methods', methods.join(', '));
      fields.set('access-control-allow-headers', REQUEST_HEADERS);
      fields.set('access-control-max-age', String(policy.maxAge));
    }
  }
  return answer.withFields(fields);
}

/**
 * The `cors` option from the environment of the example servers and `serve`: CORS_ORIGINS, a
 * comma-separated list of origins, or `*` (reads only); CORS_CREDENTIALS=1 lets listed origins send
 * credentials. Undefined when CORS_ORIGINS is unset or empty.
 *
 * @example
 * corsOptionsFromEnv({ CORS_ORIGINS: 'https://game.example' }); // { origins: ['https://game.example'], credentials: false }
 */
export function corsOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): CorsOptions | undefined {
  const given = (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  if (given.length === 0) return undefined;
  if (given.includes('*')) return { origins: '*' };
  return { origins: given, credentials: env.CORS_CREDENTIALS === '1' };
}
