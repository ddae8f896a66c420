// JSON Patch (RFC 6902): validated, atomic and non-mutating, copying only the containers it changes.
import { isArrayIndexToken } from './pointer.js';
import { compilePatch, fail, type JsonPatchOperation, type Step } from './patch-document.js';
import { DEFAULT_JSON_PATCH_LIMITS, JsonMeter, type JsonPatchLimits } from './patch-budget.js';
import { jsonEqual, type JsonValue } from './value.js';

export { JsonPatchError, type JsonPatchErrorReason, type JsonPatchOperation } from './patch-document.js';
export { DEFAULT_JSON_PATCH_LIMITS, type JsonPatchLimits } from './patch-budget.js';

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return value !== null && typeof value === 'object';
}

/** The working state of one application: the current root, the containers this call created, the budget spent. */
class Draft {
  root: unknown;
  readonly owned = new Set<object>();
  readonly #limits: Required<JsonPatchLimits>;
  #meter: JsonMeter | undefined;
  #added = 0;

  constructor(root: unknown, limits: Required<JsonPatchLimits>) {
    this.root = root;
    this.#limits = limits;
  }

  /**
   * Counts a value about to be put at `path` against the limits: its nesting there, and (for values
   * the patch adds, not moves) its size against what the patch may still add.
   */
  #admit(step: Step, value: unknown, adds: boolean): void {
    const { maxDepth, maxAddedBytes } = this.#limits;
    const depthRoom = maxDepth - step.path.length;
    const sizeRoom = adds ? maxAddedBytes - this.#added : Infinity;
    const measure = (this.#meter ??= new JsonMeter((container) => this.owned.has(container))).measure(value, sizeRoom, depthRoom);
    if (measure.depth > depthRoom) fail(step, 'too-deep', `the result would be nested deeper than ${maxDepth} levels`, 'path');
    if (measure.size > sizeRoom) fail(step, 'too-large', `the patch would add more than ${maxAddedBytes} bytes of JSON`);
    if (adds) this.#added += measure.size;
  }

  /** A shallow copy of a container, owned by this draft (copy-on-write). */
  private own<T extends Container>(container: T): T {
    if (this.owned.has(container)) return container;
    const copy = (Array.isArray(container) ? container.slice() : { ...container }) as T;
    this.owned.add(copy);
    return copy;
  }

  /** RFC 6901 section 4 array tokens: an index, or `-` (past the end) where `insert` allows it. */
  private arrayIndex(array: unknown[], token: string, step: Step, member: 'path' | 'from', insert: boolean): number {
    if (insert && token === '-') return array.length;
    if (!isArrayIndexToken(token)) fail(step, 'invalid-index', `"${token}" is not an index of an array`, member);
    const index = Number(token);
    if (insert ? index > array.length : index >= array.length) {
      fail(step, insert ? 'invalid-index' : 'path-not-found', `index ${index} is past the end of an array of ${array.length}`, member);
    }
    return index;
  }

  /** The value a pointer names, own members only; fails when it does not exist. */
  read(tokens: string[], step: Step, member: 'path' | 'from'): unknown {
    let current = this.root;
    for (const token of tokens) {
      if (Array.isArray(current)) current = current[this.arrayIndex(current, token, step, member, false)];
      else if (isContainer(current) && Object.hasOwn(current, token)) current = (current as Record<string, unknown>)[token];
      else fail(step, 'path-not-found', `${JSON.stringify(token)} does not exist`, member);
    }
    return current;
  }

  /** The parent container of a non-root location, copied (with its ancestors) into this draft. */
  private parentOf(tokens: string[], step: Step, member: 'path' | 'from'): Container {
    if (!isContainer(this.root)) fail(step, 'path-not-found', 'the document is not an object or array', member);
    let parent: Container = (this.root = this.own(this.root));
    for (let i = 0; i < tokens.length - 1; i++) {
      const token = tokens[i]!;
      const key: string | number = Array.isArray(parent) ? this.arrayIndex(parent, token, step, member, false) : token;
      if (!Array.isArray(parent) && !Object.hasOwn(parent, token)) fail(step, 'path-not-found', `${JSON.stringify(token)} does not exist`, member);
      const child = (parent as Record<string | number, unknown>)[key];
      if (!isContainer(child)) fail(step, 'path-not-found', `${JSON.stringify(token)} is not an object or array`, member);
      const owned = this.own(child);
      (parent as Record<string | number, unknown>)[key] = owned;
      parent = owned;
    }
    return parent;
  }

  /**
   * RFC 6902 sections 4.1 and 4.3: `add` (insert) puts a value into an array (shifting later elements)
   * or creates or replaces an object member; `replace` needs an existing location. An empty path
   * stands for the whole document, which both replace.
   */
  put(tokens: string[], value: unknown, step: Step, insert: boolean): void {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const parent = this.parentOf(tokens, step, 'path');
    const token = tokens[tokens.length - 1]!;
    if (Array.isArray(parent)) {
      const index = this.arrayIndex(parent, token, step, 'path', insert);
      if (!insert) parent[index] = value;
      else if (index === parent.length) parent.push(value);
      else parent.splice(index, 0, value);
      return;
    }
    if (!insert && !Object.hasOwn(parent, token)) fail(step, 'path-not-found', `${JSON.stringify(token)} does not exist`, 'path');
    parent[token] = value;
  }

  /** RFC 6902 section 4.2: removes an existing location (later array elements shift left); returns its value. */
  remove(tokens: string[], step: Step, member: 'path' | 'from'): unknown {
    const parent = this.parentOf(tokens, step, member);
    const token = tokens[tokens.length - 1]!;
    if (Array.isArray(parent)) return parent.splice(this.arrayIndex(parent, token, step, member, false), 1)[0];
    if (!Object.hasOwn(parent, token)) fail(step, 'path-not-found', `${JSON.stringify(token)} does not exist`, member);
    const value = parent[token];
    delete parent[token];
    return value;
  }

  /** Runs one operation on the draft. */
  apply(step: Step): void {
    switch (step.op) {
      case 'add':
        this.#admit(step, step.value, true);
        return this.put(step.path, step.value, step, true);
      case 'remove':
        this.remove(step.path, step, 'path');
        return;
      case 'replace':
        this.#admit(step, step.value, true);
        return this.put(step.path, step.value, step, false);
      case 'move': {
        // Section 4.4: remove from "from", then add at "path"; moving a location onto itself changes nothing.
        if (step.fromText === step.pathText) {
          this.read(step.from!, step, 'from');
          return;
        }
        // (compile refused a "from" that is a proper prefix of "path", the whole document included)
        const value = this.remove(step.from!, step, 'from');
        // Moving a value no deeper than it was cannot nest the document deeper than it was.
        if (step.path.length > step.from!.length) this.#admit(step, value, false);
        return this.put(step.path, value, step, true);
      }
      case 'copy': {
        // Section 4.5. Both locations share the value; forgetting which containers this draft owns makes
        // every later change copy what it changes, so neither location ever sees the other's changes.
        const value = this.read(step.from!, step, 'from');
        this.#admit(step, value, true);
        this.put(step.path, value, step, true);
        this.owned.clear();
        return;
      }
      case 'test':
        // Section 4.6: JSON equality of the value at "path" and "value".
        if (!jsonEqual(this.read(step.path, step, 'path'), step.value)) fail(step, 'test-failed', 'the value at the path is not equal to "value"', 'path');
        return;
    }
  }
}

/**
 * Applies a JSON Patch (RFC 6902) to a JSON document and returns the patched document. The input is
 * never changed: the containers on the changed paths are copied, everything else is shared with the
 * input (so treat both as immutable, or deep-copy the result before mutating it). The root of the
 * result is always a new container when it is an object or array. The patch is validated as a whole
 * first, then applied in order, atomically: when any operation fails, a JsonPatchError says which and
 * why, and nothing is changed. Paths through `__proto__`, `constructor` or `prototype` are refused, and
 * only own members are ever read. `limits` bound the work (JsonPatchLimits: operations, bytes added,
 * nesting), so that a short hostile patch cannot exhaust memory or time.
 *
 * @example
 * import { applyPatch } from 'player-hypermedia';
 * const doc = { alias: 'bo', friends: ['al', 'cy'] };
 * const next = applyPatch(doc, [
 *   { op: 'replace', path: '/alias', value: 'bobby' },
 *   { op: 'add', path: '/friends/-', value: 'di' },
 *   { op: 'remove', path: '/friends/0' },
 * ]);
 * // next: { alias: 'bobby', friends: ['cy', 'di'] }; doc is unchanged
 */
export function applyPatch(document: JsonValue, operations: readonly JsonPatchOperation[], limits: JsonPatchLimits = {}): JsonValue {
  const bounds = { ...DEFAULT_JSON_PATCH_LIMITS, ...definedMembers(limits) };
  return applySteps(document, compilePatch(operations, bounds.maxOperations), bounds);
}

/**
 * `applyPatch` of a patch already validated and parsed by `compilePatch` (with `limits.maxOperations`):
 * a service checks a patch before it reads the item, and applies those steps, not the patch again.
 *
 * @example
 * const steps = compilePatch(body, 1000);
 * applyCompiledPatch({ alias: 'bo' }, steps, { maxAddedBytes: 65536 }); // { alias: 'bobby' } for a replace of /alias
 */
export function applyCompiledPatch(document: JsonValue, steps: readonly Step[], limits: JsonPatchLimits = {}): JsonValue {
  return applySteps(document, steps, { ...DEFAULT_JSON_PATCH_LIMITS, ...definedMembers(limits) });
}

function applySteps(document: JsonValue, steps: readonly Step[], bounds: Required<JsonPatchLimits>): JsonValue {
  const draft = new Draft(document, bounds);
  for (const step of steps) draft.apply(step);
  const root = draft.root;
  if (isContainer(root) && !draft.owned.has(root)) return (Array.isArray(root) ? root.slice() : { ...root }) as JsonValue;
  return root as JsonValue;
}

/** The members of `limits` that are set (an explicit `undefined` keeps the default). */
function definedMembers(limits: JsonPatchLimits): JsonPatchLimits {
  const defined: JsonPatchLimits = {};
  if (limits.maxOperations !== undefined) defined.maxOperations = limits.maxOperations;
  if (limits.maxAddedBytes !== undefined) defined.maxAddedBytes = limits.maxAddedBytes;
  if (limits.maxDepth !== undefined) defined.maxDepth = limits.maxDepth;
  return defined;
}
