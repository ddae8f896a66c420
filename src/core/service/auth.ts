// The authentication policy: credentials are checked when sent (401 when invalid), and writes need a principal.
import type { RequestContext } from './context.js';
import { HttpError } from '../http/problem.js';
import { BEARER_CHALLENGE, readsHeadOnly, type Principal } from './credentials.js';
import { andThen, type Awaitable } from './awaitable.js';

/**
 * Runs the hook for a request that carries credentials. docs/decisions.md: a request that sends invalid
 * credentials is 401 even on a public read; a request without credentials is anonymous (undefined).
 * At once when the hook answers at once (`bearerTokens`), else when its promise settles; invalid
 * credentials are thrown, or rejected.
 *
 * @example
 * ctx.principal = await identify(ctx);
 */
export function identify(ctx: RequestContext): Awaitable<Principal | undefined> {
  if (!ctx.head.headers.has('authorization')) return undefined;
  const authenticate = ctx.config.authenticate;
  // A hook that reads only header fields is given the head: no Request is built for it.
  const principal = authenticate ? authenticate(readsHeadOnly(authenticate) ? (ctx.head as unknown as Request) : ctx.request) : null;
  return andThen(principal, (found) => {
    if (!found) throw unauthorized('The credentials in Authorization are not valid.');
    return found;
  });
}

/**
 * Requires a principal (writes): 401 with a challenge when the request is anonymous.
 *
 * @example
 * requirePrincipal(ctx);
 */
export function requirePrincipal(ctx: RequestContext): Principal {
  if (!ctx.principal) throw unauthorized('This request changes data and needs credentials (Authorization: Bearer <token>).');
  return ctx.principal;
}

function unauthorized(detail: string): HttpError {
  // RFC 9110 section 12.5.5: the answer depends on Authorization (its absence or its value).
  return new HttpError(401, detail, { headers: { 'WWW-Authenticate': BEARER_CHALLENGE, Vary: 'Authorization' } });
}
