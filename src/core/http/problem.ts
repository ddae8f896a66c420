// HTTP failures: one error type that renders itself as RFC 9457 problem details.
import { stackTraceBack, stackTraceOff } from './stack-trace.js';

/**
 * The media type of RFC 9457 problem details.
 *
 * @example
 * res.headers.get('content-type') === PROBLEM_MEDIA_TYPE; // an RFC 9457 problem
 */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * One field-level validation failure, in the `errors` member of a problem document.
 *
 * @example
 * const e: FieldError = { pointer: '/alias', detail: 'must have at least 1 character' };
 */
export interface FieldError {
  /** JSON Pointer (RFC 6901) into the request body, or the name of a query parameter. */
  pointer?: string;
  parameter?: string;
  detail: string;
}

/**
 * An RFC 9457 problem details object (section 3.1 members plus `errors`).
 *
 * @example
 * const p: ProblemDetails = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'no player "zed"' };
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/**
 * Reason phrases of the statuses the service answers (RFC 9110 section 15).
 *
 * @example
 * STATUS_TITLES[404]; // 'Not Found'
 */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * The one error type of HTTP failures. Throw it anywhere in request handling; the service catches it
 * and answers with its problem document (or the negotiated format's own error document).
 * An answer, not a fault: it is made without a stack trace (its `stack` is its name and message).
 *
 * @example
 * throw new HttpError(404, `no player "zed"`);
 * throw new HttpError(405, 'use GET', { headers: { Allow: 'GET, HEAD' } });
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly errors: FieldError[] | undefined;
  readonly type: string;
  readonly extensions: Record<string, unknown>;

  constructor(
    status: number,
    detail: string,
    options: { headers?: Record<string, string>; errors?: FieldError[]; type?: string; extensions?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    const limit = stackTraceOff(); // an answer, not a fault: no stack (docs/decisions.md)
    super(detail, { cause: options.cause });
    stackTraceBack(limit);
    this.name = 'HttpError';
    this.status = status;
    this.headers = options.headers ?? {};
    this.errors = options.errors;
    this.type = options.type ?? 'about:blank';
    this.extensions = options.extensions ?? {};
  }

  /** The problem details of this error. */
  toProblem(): ProblemDetails {
    const problem: ProblemDetails = {
      type: this.type,
      title: STATUS_TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.message,
      ...this.extensions,
    };
    if (this.errors?.length) problem.errors = this.errors;
    return problem;
  }
}
