// Bounds on the work a JSON Patch may do: operations, bytes added, and nesting of the result.
// Without them, `copy` chains double a document per operation (28 copies of /x into /x/cN reach
// gigabytes), and deep results overflow the stack of whatever reads them next.

/**
 * Limits `applyPatch` enforces while it applies a patch, each failing with a JsonPatchError:
 * - `maxOperations` (default 10,000): a longer patch is refused before anything is applied (`too-many-operations`);
 * - `maxAddedBytes` (default 16 MiB): the estimated JSON text length (UTF-16 code units) of every value
 *   the patch puts into the document by `add`, `replace` and `copy`, summed; removals give nothing back,
 *   so this bounds the work of the whole patch as well as the growth of the result (`too-large`);
 * - `maxDepth` (default 1,000): the nesting of every value where it is put (its path's length plus
 *   its own depth), for `add`, `replace`, `copy` and `move` (`too-deep`).
 *
 * @example
 * applyPatch(doc, ops, { maxOperations: 100, maxAddedBytes: 64 * 1024, maxDepth: 32 });
 */
export interface JsonPatchLimits {
  maxOperations?: number;
  maxAddedBytes?: number;
  maxDepth?: number;
}

/**
 * The limits used where a JsonPatchLimits member is not given.
 *
 * @example
 * DEFAULT_JSON_PATCH_LIMITS.maxOperations; // 10000
 */
export const DEFAULT_JSON_PATCH_LIMITS: Readonly<Required<JsonPatchLimits>> = Object.freeze({
  maxOperations: 10_000,
  maxAddedBytes: 16 * 1024 * 1024,
  maxDepth: 1_000,
});

/** The estimated JSON text length and nesting depth of a value (a scalar has depth 0). */
export interface Measure {
  size: number;
  depth: number;
}

const SCALAR: Measure = { size: 4, depth: 0 };

/**
 * Measures JSON values without recursing past `depthRoom` levels or adding past `sizeRoom`, so a
 * measure costs at most what it is allowed to find. Containers that can no longer change (those the
 * patch has not copied for writing) keep their measure, so a value shared by `copy` is measured once.
 */
export class JsonMeter {
  /** Made at the first container measured: a patch of scalars (most) measures none. */
  #known: WeakMap<object, Measure> | undefined;
  readonly #mutable: (container: object) => boolean;

  constructor(mutable: (container: object) => boolean) {
    this.#mutable = mutable;
  }

  /** The measure of `value`, or a partial one with `size > sizeRoom` or `depth > depthRoom` when it is over. */
  measure(value: unknown, sizeRoom: number, depthRoom: number): Measure {
    if (typeof value === 'string') return { size: value.length + 2, depth: 0 };
    if (typeof value === 'number') return { size: String(value).length, depth: 0 };
    if (value === null || typeof value !== 'object') return SCALAR;
    const known = this.#known?.get(value);
    if (known) return known;
    if (depthRoom < 1) return { size: 2, depth: 1 };
    let size = 2;
    let depth = 0;
    const room = () => size > sizeRoom || depth + 1 > depthRoom;
    if (Array.isArray(value)) {
      for (const item of value) {
        const m = this.measure(item, sizeRoom - size, depthRoom - 1);
        size += m.size + 1;
        if (m.depth > depth) depth = m.depth;
        if (room()) return { size, depth: depth + 1 };
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const m = this.measure(record[key], sizeRoom - size, depthRoom - 1);
        size += key.length + 4 + m.size;
        if (m.depth > depth) depth = m.depth;
        if (room()) return { size, depth: depth + 1 };
      }
    }
    const whole = { size, depth: depth + 1 };
    if (!this.#mutable(value)) (this.#known ??= new WeakMap()).set(value, whole);
    return whole;
  }
}
