// Errors as responses: any thrown value to an HttpError, and that error rendered without ever throwing.
import type { RequestContext } from './context.js';
import { Answer, type Fields } from '../respond/answer.js';
import { appendVary, fieldsOf } from '../respond/fields.js';
import { HttpError, PROBLEM_MEDIA_TYPE } from '../http/problem.js';
import { httpDate } from '../http/date.js';
import type { Representation } from '../model/representation.js';
import { StoreError } from '../../stores/contract.js';

/** Problem types (RFC 9457 section 3.1.1) of the 503s, tag URIs (RFC 4151): documented in docs/errors.md. */
export const STORE_UNREACHABLE = 'tag:player-hypermedia,2026:store-unreachable';
export const STORE_BUSY = 'tag:player-hypermedia,2026:store-busy';
export const WRITE_CONTENTION = 'tag:player-hypermedia,2026:write-contention';

/**
 * Maps any thrown value to an HttpError: store errors to their statuses, anything unexpected to 500.
 *
 * @example
 * toHttpError(new StoreError('not-found', 'no player')).status; // 404
 */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof StoreError) {
    switch (error.code) {
      // A store's own words reach the client only when it marked them for clients (StoreError.expose).
      case 'not-found':
        return new HttpError(404, error.expose ? error.message : 'The resource, or an item the request names, does not exist.');
      case 'revision-mismatch':
        return new HttpError(412, 'The resource has changed since the version named in the precondition.');
      case 'conflict':
        return new HttpError(409, error.expose ? error.message : 'The request conflicts with the current state of the resource.');
      case 'idempotency-mismatch':
        return new HttpError(422, error.expose ? error.message : 'This Idempotency-Key was used with a different request.');
      case 'unstorable':
        return new HttpError(422, error.expose ? error.message : 'The request holds a value the store cannot keep.');
      case 'unavailable':
        return new HttpError(503, 'The store is unreachable; try again shortly.', { headers: { 'Retry-After': '5' }, type: STORE_UNREACHABLE });
      case 'busy':
        return new HttpError(503, 'The store is busy: every connection stayed in use; try again in a moment.', { headers: { 'Retry-After': '1' }, type: STORE_BUSY });
    }
  }
  console.error('player-hypermedia: unexpected error', error);
  return new HttpError(500, 'An unexpected error occurred.');
}

/**
 * The error as an answer: in the negotiated format's own error document when it has one (JSON:API),
 * else problem+json (RFC 9457), never stored (`no-store`), with the error's own fields (Allow,
 * WWW-Authenticate, Retry-After...). An error raised before negotiation is rendered in the format Accept
 * would get; a failed negotiation (406) is always problem+json, so an error answer is never itself a
 * 406. Rendering an error never throws: when the format cannot be chosen or its error document cannot
 * be written, the answer is plain problem+json.
 *
 * @example
 * const answer = errorAnswer(new HttpError(404, 'no player "zed"'), ctx);
 */
export function errorAnswer(error: HttpError, ctx: RequestContext): Answer {
  const representation = ctx.negotiated ? ctx.representation : errorFormat(ctx);
  let rendered: { body: string; contentType: string } | undefined;
  try {
    if (representation?.renderProblem) {
      rendered = { body: representation.renderProblem(error.toProblem(), ctx.type), contentType: representation.contentType ?? representation.mediaType };
    }
  } catch (failure) {
    console.error(`player-hypermedia: the ${representation!.name} format failed to render an error`, failure);
  }
  rendered ??= { body: JSON.stringify(error.toProblem()), contentType: PROBLEM_MEDIA_TYPE };
  const fields: Fields = fieldsOf(error.headers);
  fields.set('content-type', rendered.contentType);
  fields.set('cache-control', 'no-store');
  // RFC 9110 section 6.6.1: a 4xx carries Date; from the service's clock (the `now` option), so that
  // answers are the same from run to run under a fixed clock.
  fields.set('date', httpDate(ctx.config.now()));
  // RFC 9110 section 12.5.5: the error body's format depends on Accept.
  appendVary(fields, 'Accept');
  return new Answer(error.status, fields, ctx.head.method === 'HEAD' ? null : rendered.body);
}

/** The format Accept would get, for an error raised before negotiation; undefined when negotiation fails. */
function errorFormat(ctx: RequestContext): Representation | undefined {
  try {
    return ctx.config.negotiate(ctx.head.headers.get('accept'));
  } catch {
    // A negotiation hook that throws must not turn an error into an unanswered request.
    return undefined;
  }
}
