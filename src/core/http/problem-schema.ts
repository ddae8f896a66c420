// The JSON Schema of the RFC 9457 problem documents the service answers errors with.

/**
 * The JSON Schema (draft-07 keywords that Swagger 2.0 shares) of a problem details document as
 * `HttpError.toProblem()` writes it: RFC 9457 section 3.1 members plus `errors` for field-level
 * failures. Tests validate every error body against it; the Swagger `Problem` definition is made from it.
 *
 * @example
 * import { PROBLEM_SCHEMA } from 'player-hypermedia';
 * new Ajv().compile(PROBLEM_SCHEMA)({ type: 'about:blank', title: 'Not Found', status: 404 }); // true
 */
export const PROBLEM_SCHEMA = {
  title: 'Problem',
  description: 'RFC 9457 problem details (application/problem+json)',
  type: 'object',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', description: 'A URI reference identifying the problem type; about:blank for plain HTTP statuses' },
    title: { type: 'string', description: 'The reason phrase of the status' },
    status: { type: 'integer', minimum: 400, maximum: 599, description: 'The HTTP status code' },
    detail: { type: 'string', description: 'What went wrong with this request' },
    instance: { type: 'string', description: 'A URI reference identifying this occurrence' },
    errors: {
      type: 'array',
      description: 'Field-level failures',
      items: {
        type: 'object',
        required: ['detail'],
        properties: {
          pointer: { type: 'string', description: 'JSON Pointer (RFC 6901) into the request body' },
          parameter: { type: 'string', description: 'The query, path or header parameter at fault' },
          detail: { type: 'string' },
        },
      },
    },
    supported: { type: 'array', items: { type: 'string' }, description: 'The API versions a client may ask for (unsupported version)' },
    available: { type: 'array', items: { type: 'string' }, description: 'The media types available (406)' },
  },
  additionalProperties: true,
} as const;
