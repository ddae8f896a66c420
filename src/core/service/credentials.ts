// Credentials: the pluggable `authenticate` hook, the principal it names, and the Bearer-token helper.

/**
 * Who made a request, as the `authenticate` hook says. Any non-null value; `id` is conventional.
 *
 * @example
 * const p: Principal = { id: 'token-1' };
 */
export type Principal = { id: string; [key: string]: unknown };

/**
 * The authentication hook: a principal for valid credentials, null for invalid or missing ones. It is
 * called only for requests that carry an Authorization header.
 *
 * @example
 * const authenticate: Authenticate = (req) => req.headers.get('authorization') === 'Bearer s3cret' ? { id: 'me' } : null;
 */
export type Authenticate = (request: Request) => Principal | null | Promise<Principal | null>;

/**
 * The challenge sent with 401 (RFC 9110 section 11.6.1; RFC 6750 section 3 for Bearer).
 *
 * @example
 * res.headers.get('www-authenticate') === BEARER_CHALLENGE; // on a 401
 */
export const BEARER_CHALLENGE = 'Bearer realm="player-api"';

/**
 * An `authenticate` hook accepting `Authorization: Bearer <token>` for any of `tokens`
 * (RFC 6750 section 2.1). The principal's id is a short, non-secret label of the token: `token-N` for
 * the Nth token given. A token outside the b64token syntax (a space in it, say) is never accepted.
 *
 * @example
 * createPlayerService({ baseUrl, authenticate: bearerTokens(['s3cret', 'other-token']) });
 */
export function bearerTokens(tokens: Iterable<string>): Authenticate {
  // Only tokens of the token68 syntax (RFC 6750 section 2.1) can ever be presented: the others are left out.
  const known = new Map<string, number>();
  let i = 0;
  for (const t of tokens) {
    if (!t) continue;
    if (TOKEN68.test(t)) known.set(t, i);
    i++;
  }
  const ids = Array.from({ length: i }, (_, n) => `token-${n + 1}`);
  const authenticate = (request: { headers: { get(name: string): string | null } }) => {
    const header = request.headers.get('authorization');
    // `Bearer`, any case, then one or more spaces, the token and optional trailing white space: the
    // token looked up as it stands (a known one is token68), no regular expression per request.
    if (header === null || header.length < 8 || header.charCodeAt(6) !== 0x20) return null;
    for (let k = 0; k < 6; k++) if ((header.charCodeAt(k) | 0x20) !== BEARER.charCodeAt(k)) return null;
    let start = 7;
    while (header.charCodeAt(start) === 0x20) start++;
    const index = known.get(header.slice(start).trimEnd());
    return index === undefined ? null : { id: ids[index]! };
  };
  // It reads nothing but a header field: the service may call it with the request's head.
  return Object.assign(authenticate, { [HEAD_ONLY]: true });
}

const BEARER = 'bearer';

/** The syntax of a Bearer token (RFC 6750 section 2.1, b64token). */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Marks a hook that reads only header fields, so that no Request is built to call it. */
const HEAD_ONLY = Symbol.for('player-hypermedia.authenticate-reads-head-only');

/**
 * Whether an `authenticate` hook reads only header fields (as `bearerTokens`' does), so that it may be
 * given the request's head instead of a Request.
 *
 * @example
 * readsHeadOnly(bearerTokens(['t'])); // true
 */
export function readsHeadOnly(authenticate: Authenticate): boolean {
  return (authenticate as { [HEAD_ONLY]?: unknown })[HEAD_ONLY] === true;
}
