// JSON:API error documents (section "Errors") from the service's problems.
import type { ProblemDetails } from '../core/http/problem.js';
import type { ResourceType } from '../core/model/api.js';
import { pointerToken } from './term-input.js';

/** Per type, plain-JSON pointers of validation errors as pointers into a JSON:API request document. */
const problemPointers = new WeakMap<ResourceType, ReadonlyMap<string, string>>();

function pointersOf(type: ResourceType): ReadonlyMap<string, string> {
  let map = problemPointers.get(type);
  if (map === undefined) {
    const entries: [string, string][] = type.fields.map((f) => [`/${f.name}`, f.name === type.idField ? '/data/id' : `/data/attributes/${pointerToken(f.term)}`]);
    problemPointers.set(type, (map = new Map(entries)));
  }
  return map;
}

/**
 * A problem as a JSON:API errors document (section "Error Objects"): one error object per field-level
 * failure, its pointer moved into the request document's shape.
 *
 * @example
 * problemDocument({ type: 'about:blank', title: 'Not Found', status: 404 }); // '{"errors":[{"status":"404",...}],...}'
 */
export function problemDocument(problem: ProblemDetails, type?: ResourceType): string {
  const base: Record<string, unknown> = { status: String(problem.status), title: problem.title };
  if (problem.type !== 'about:blank') base.links = { about: problem.type };
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(problem)) {
    if (!['type', 'title', 'status', 'detail', 'instance', 'errors'].includes(k) && /^[a-zA-Z0-9](?:[-\w]*[a-zA-Z0-9])?$/.test(k)) meta[k] = v;
  }
  if (Object.keys(meta).length) base.meta = meta;
  const pointers = type ? pointersOf(type) : undefined;
  const errors = problem.errors?.length
    ? problem.errors.map((e) => {
        const source = e.parameter !== undefined ? { parameter: e.parameter } : e.pointer !== undefined ? { pointer: pointers?.get(e.pointer) ?? e.pointer } : undefined;
        return { ...base, detail: e.detail, ...(source ? { source } : {}) };
      })
    : [{ ...base, ...(problem.detail !== undefined ? { detail: problem.detail } : {}) }];
  return JSON.stringify({ errors, jsonapi: { version: '1.0' } });
}
