// A value now or later: the request path stays synchronous where nothing it needs is I/O.

/**
 * A value, or a promise of it. The request path returns values where it can: every promise and every
 * `await` costs a turn of the microtask queue, measured at a tenth of a computed read's server time
 * (docs/scaling.md, "Reads without a turn of the event loop").
 *
 * @example
 * const stored: Awaitable<StoredItem | undefined> = currentItem(ctx, type, 'alice');
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * Calls `next` with `value`: at once when it is a value, when it settles when it is a promise (a
 * rejection passes through, and so does anything `next` throws, as a rejection or synchronously).
 * Not named `then`: a module exporting `then` is a thenable, and `import()` of it would call it.
 *
 * @example
 * andThen(loadPage(ctx, friends, 'alice', 1), (page) => respond(ctx, plan(page)));
 */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
