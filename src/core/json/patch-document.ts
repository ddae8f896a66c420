// JSON Patch documents (RFC 6902 sections 3-4): operation types, validation, and the typed error.
import { stackTraceBack, stackTraceOff } from '../http/stack-trace.js';
import { hasPrototypeToken, parseJsonPointer } from './pointer.js';
import type { JsonValue } from './value.js';

/**
 * One JSON Patch operation (RFC 6902 section 4). Members not defined for an operation are ignored.
 *
 * @example
 * const ops: JsonPatchOperation[] = [
 *   { op: 'test', path: '/alias', value: 'bo' },
 *   { op: 'replace', path: '/alias', value: 'bobby' },
 * ];
 */
export type JsonPatchOperation =
  | { op: 'add'; path: string; value: JsonValue }
  | { op: 'remove'; path: string }
  | { op: 'replace'; path: string; value: JsonValue }
  | { op: 'move'; from: string; path: string }
  | { op: 'copy'; from: string; path: string }
  | { op: 'test'; path: string; value: JsonValue };

/**
 * Why a patch failed:
 * - `invalid-patch`: the patch document is malformed (not an array, an unknown `op`, a missing or
 *   malformed `path`/`from`, a missing `value`, a move into its own child, removing the whole document);
 * - `prototype-path`: a `path` or `from` holds a `__proto__`, `constructor` or `prototype` token;
 * - `path-not-found`: a location that must exist does not (RFC 6902 sections 4.2-4.6), or its parent
 *   is missing or not a container (section 4.1);
 * - `invalid-index`: an array token that is not an index (`01`, `1e0`, a member name, `-` outside add),
 *   or an add index past the end of the array;
 * - `test-failed`: a `test` found a different value (section 4.6);
 * - `too-many-operations`, `too-large`, `too-deep`: the patch goes past a JsonPatchLimits bound (more
 *   operations than allowed, more bytes added, a result nested too deep).
 *
 * @example
 * if (error instanceof JsonPatchError && error.reason === 'test-failed') return 409;
 */
export type JsonPatchErrorReason =
  | 'invalid-patch'
  | 'prototype-path'
  | 'path-not-found'
  | 'invalid-index'
  | 'test-failed'
  | 'too-many-operations'
  | 'too-large'
  | 'too-deep';

/**
 * The error `applyPatch` throws: which operation failed (`index`, `operation`), why (`reason`), and
 * where in the patch document (`pointer`, e.g. `/2/path`). Nothing was changed.
 *
 * @example
 * try { applyPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]); }
 * catch (e) { if (e instanceof JsonPatchError) console.log(e.index, e.reason); } // 0 'test-failed'
 */
export class JsonPatchError extends Error {
  readonly reason: JsonPatchErrorReason;
  /** The position of the failing operation in the patch, or undefined when the patch is not an array. */
  readonly index: number | undefined;
  /** The failing operation as given. */
  readonly operation: unknown;
  /** JSON Pointer into the patch document to the offending member (`/1/path`) or operation (`/1`). */
  readonly pointer: string;

  constructor(reason: JsonPatchErrorReason, message: string, details: { index?: number; operation?: unknown; pointer?: string } = {}) {
    const limit = stackTraceOff(); // a refused patch is an answer, not a fault: no stack (docs/decisions.md)
    super(message);
    stackTraceBack(limit);
    this.name = 'JsonPatchError';
    this.reason = reason;
    this.index = details.index;
    this.operation = details.operation;
    this.pointer = details.pointer ?? (details.index === undefined ? '' : `/${details.index}`);
  }
}

/**
 * The name of a JSON Patch operation.
 *
 * @example
 * const op: OpName = 'move';
 */
export type OpName = JsonPatchOperation['op'];
const OPS: ReadonlySet<string> = new Set<OpName>(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** One validated operation, with its pointers parsed (internal to applyPatch). */
export interface Step {
  op: OpName;
  index: number;
  raw: object;
  path: string[];
  pathText: string;
  from: string[] | undefined;
  fromText: string;
  value: unknown;
}

/** Throws the JsonPatchError of a failing operation (internal to applyPatch). */
export function fail(step: Step, reason: JsonPatchErrorReason, detail: string, member?: 'path' | 'from'): never {
  const where = step.op === 'move' || step.op === 'copy' ? `${step.fromText} to ${step.pathText}` : step.pathText;
  throw new JsonPatchError(reason, `Operation ${step.index} (${step.op} ${JSON.stringify(where)}) failed: ${detail}`, {
    index: step.index,
    operation: step.raw,
    pointer: `/${step.index}${member ? `/${member}` : ''}`,
  });
}

function invalid(index: number, operation: unknown, detail: string, member?: string): never {
  throw new JsonPatchError('invalid-patch', `Operation ${index} is invalid: ${detail}`, {
    index,
    operation,
    pointer: `/${index}${member ? `/${member}` : ''}`,
  });
}

function readPointer(raw: Record<string, unknown>, member: 'path' | 'from', index: number): { tokens: string[]; text: string } {
  const text = Object.hasOwn(raw, member) ? raw[member] : undefined;
  if (typeof text !== 'string') invalid(index, raw, `"${member}" must be a JSON Pointer string`, member);
  let tokens: string[];
  try {
    tokens = parseJsonPointer(text);
  } catch (error) {
    invalid(index, raw, (error as Error).message, member);
  }
  if (hasPrototypeToken(tokens)) {
    throw new JsonPatchError('prototype-path', `Operation ${index} is refused: "${member}" ${JSON.stringify(text)} names __proto__, constructor or prototype`, {
      index,
      operation: raw,
      pointer: `/${index}/${member}`,
    });
  }
  return { tokens, text };
}

/**
 * Validates a whole patch document before anything is applied (RFC 6902 section 3: an array of
 * operation objects; section 4: `op`, `path`, and `from`/`value` where the operation needs them; other
 * members are ignored) and parses its pointers. Throws a JsonPatchError (`invalid-patch` or
 * `prototype-path`) for the first bad operation, or `too-many-operations` for a patch longer than
 * `maxOperations`, before reading any.
 *
 * @example
 * compilePatch([{ op: 'remove', path: '/a~1b' }])[0]!.path; // ['a/b']
 */
export function compilePatch(operations: unknown, maxOperations = Infinity): Step[] {
  if (!Array.isArray(operations)) {
    throw new JsonPatchError('invalid-patch', 'A JSON Patch document must be an array of operations (RFC 6902 section 3).', { operation: operations });
  }
  if (operations.length > maxOperations) {
    throw new JsonPatchError('too-many-operations', `The patch has ${operations.length} operations; at most ${maxOperations} are applied.`, {
      index: maxOperations,
    });
  }
  const steps: Step[] = new Array(operations.length);
  for (let index = 0; index < operations.length; index++) {
    const raw: unknown = operations[index];
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) invalid(index, raw, 'an operation must be an object');
    const record = raw as Record<string, unknown>;
    const op = Object.hasOwn(record, 'op') ? record.op : undefined;
    if (typeof op !== 'string' || !OPS.has(op)) {
      invalid(index, raw, `"op" must be one of add, remove, replace, move, copy, test (got ${JSON.stringify(op) ?? 'nothing'})`, 'op');
    }
    const path = readPointer(record, 'path', index);
    const from = op === 'move' || op === 'copy' ? readPointer(record, 'from', index) : undefined;
    const needsValue = op === 'add' || op === 'replace' || op === 'test';
    if (needsValue && (!Object.hasOwn(record, 'value') || record.value === undefined)) invalid(index, raw, `"${op}" needs a "value"`, 'value');
    if (op === 'remove' && path.tokens.length === 0) invalid(index, raw, 'the whole document cannot be removed', 'path');
    // RFC 6902 section 4.4: "from" must not be a proper prefix of "path".
    if (op === 'move' && from!.tokens.length < path.tokens.length && from!.tokens.every((t, i) => t === path.tokens[i])) {
      invalid(index, raw, 'a value cannot be moved into one of its own children', 'path');
    }
    steps[index] = {
      op: op as OpName,
      index,
      raw: record,
      path: path.tokens,
      pathText: path.text,
      from: from?.tokens,
      fromText: from?.text ?? '',
      value: needsValue ? record.value : undefined,
    };
  }
  return steps;
}
