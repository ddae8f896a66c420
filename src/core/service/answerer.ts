// The one internal step behind `fetch`: answering a request from its head, for adapters that avoid web objects.
import type { Answer } from '../respond/answer.js';
import type { RequestHead } from '../http/request-head.js';

/**
 * Answers a request given by its head (method, absolute URL, header fields); `request()` builds the web
 * Request, called at most once and only when something needs it (a body, the `authenticate` hook).
 * Synchronous when the answer is kept (see AnswerMemo), or computed from a store that reads without I/O
 * (`Store.readsNow`: the memory store). `service.fetch(request)` is
 * `answer(request, () => request)` turned into a Response; a Node adapter calls it directly and writes
 * the Answer without building a Request or a Response.
 *
 * @example
 * const answered = answerer(head, () => toRequest(req));
 */
export type Answerer = (head: RequestHead, request: () => Request) => Answer | Promise<Answer>;

/**
 * Where a service keeps its Answerer: a registered symbol, so an adapter from another installed copy of
 * the package finds it too. Not part of the public API: adapters of this package read it, nothing else.
 */
const ANSWERER = Symbol.for('player-hypermedia.answerer');

/**
 * Attaches a service's Answerer to it (not enumerable: invisible to spreads and JSON).
 *
 * @example
 * attachAnswerer(service, answer);
 */
export function attachAnswerer<T extends object>(service: T, answerer: Answerer): T {
  Object.defineProperty(service, ANSWERER, { value: answerer });
  return service;
}

/**
 * The Answerer of a fetch handler made by `createPlayerService`, or undefined for any other handler
 * (which is then served through its `fetch`).
 *
 * @example
 * const answer = answererOf(handler);
 * if (answer) writeAnswer(await answer(head, () => toRequest(req)), res);
 */
export function answererOf(handler: object): Answerer | undefined {
  const answerer = (handler as { [ANSWERER]?: unknown })[ANSWERER];
  return typeof answerer === 'function' ? (answerer as Answerer) : undefined;
}
