// Errors that are answers, not faults (a 404, a 412, a refused patch), are made without a stack trace.

// V8 (Node, Deno, workerd) and JavaScriptCore (Bun) read Error.stackTraceLimit when an error is made;
// where it is absent or cannot be written, errors are made as usual.
// Not a web standard, hence typed here rather than from a runtime's types.
const errors = Error as { stackTraceLimit?: number };
const settable = Object.getOwnPropertyDescriptor(errors, 'stackTraceLimit')?.writable === true;

/**
 * Turns the capture of stack traces off until `stackTraceBack` is given what this returned. An error
 * a client's request causes (HttpError, a StoreError of a refused write, a refused patch) is an answer:
 * its stack is never shown or logged, and capturing it was a fifth of a 404's CPU time in a busy
 * server (docs/decisions.md, "Errors that are answers carry no stack"). Call it just before `super(...)`
 * of such an error's constructor, with nothing in between that can throw.
 *
 * @example
 * class Refused extends Error {
 *   constructor(message: string) {
 *     const limit = stackTraceOff();
 *     super(message);
 *     stackTraceBack(limit);
 *   }
 * }
 */
export function stackTraceOff(): number | undefined {
  if (!settable) return undefined;
  const limit = errors.stackTraceLimit;
  errors.stackTraceLimit = 0;
  return limit;
}

/**
 * Restores what `stackTraceOff` turned off.
 *
 * @example
 * stackTraceBack(stackTraceOff());
 */
export function stackTraceBack(limit: number | undefined): void {
  if (limit !== undefined) errors.stackTraceLimit = limit;
}
