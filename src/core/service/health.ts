// Health endpoints for load balancers and orchestrators: /healthz (the process answers) and /readyz
// (its store answers too), outside the API: no negotiation, no versioning, not in the Swagger document.
import { Answer, type Fields } from '../respond/answer.js';
import type { RequestHead } from '../http/request-head.js';
import type { Store } from '../../stores/contract.js';
import type { ResourceType } from '../model/api.js';

/**
 * The media type of the answers: the Health Check Response Format for HTTP APIs
 * (draft-inadarei-api-health-check), JSON with a `status` of "pass" or "fail".
 *
 * @example
 * res.headers.get('content-type'); // 'application/health+json'
 */
export const HEALTH_MEDIA_TYPE = 'application/health+json';

/** How long /readyz waits for the store before it says "fail" (a hung database is not ready). */
const READY_TIMEOUT_MS = 2000;

function healthAnswer(status: 200 | 503, body: Record<string, unknown>, method: string): Answer {
  // Never stored by a cache: each probe must reach the process (RFC 9111 section 5.2.2.5).
  const fields: Fields = new Map([
    ['content-type', HEALTH_MEDIA_TYPE],
    ['cache-control', 'no-store'],
  ]);
  if (status === 503) fields.set('retry-after', '5');
  const text = JSON.stringify(body);
  if (method === 'HEAD') {
    fields.set('content-length', String(new TextEncoder().encode(text).byteLength));
    return new Answer(status, fields, null);
  }
  return new Answer(status, fields, text);
}

/** Whether the store answers within READY_TIMEOUT_MS: its `ping` when it has one, else a read of an item of `type`. */
async function storeAnswers(store: Store, type: ResourceType): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the store did not answer within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
  });
  const check = (async () => {
    try {
      if (store.ping) await store.ping();
      else await store.get(type, 'readyz');
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : 'the store failed';
    }
  })();
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long a check that found the store answering answers every /readyz probe: a flood of probes costs
 * the store one query a second, not one per probe. A failed check is not reused (probes that arrive
 * while one runs share it), so an instance is back in rotation as soon as its store is.
 */
const READY_CHECK_MS = 1000;

/**
 * What /readyz reads: the store (checked at most once per READY_CHECK_MS, concurrent probes sharing a
 * check) and, when answers are kept from the store's change notices, whether those are live now.
 */
export interface Readiness {
  store: Store;
  /** The type read when the store has no `ping`. */
  type: ResourceType;
  /** Whether the store's change notices are trusted now (undefined when nothing is kept from them, as while the memo sleeps). */
  changesLive?: (() => boolean | undefined) | undefined;
}

/**
 * The probes of one service: a function answering GET or HEAD of `{basePath}/healthz` (200 while the
 * process answers) and `{basePath}/readyz` (200 when the store answers too, else 503 with Retry-After:
 * PostgreSQL unreachable or its pool saturated), undefined for any other request. /readyz also reports
 * `changes:live`: "warn" (still 200) while the store's change feed is not known to be live, when the
 * instance reads the store for every answer instead of trusting what it kept. Query strings are
 * ignored; other methods fall through to the API (404/405).
 *
 * @example
 * const probe = healthProbes('/games/api', { store, type: api.types[0] });
 * probe(head); // undefined for any other request
 */
export function healthProbes(basePath: string, readiness: Readiness): (head: RequestHead) => Answer | Promise<Answer> | undefined {
  let checked: { at: number; result: Promise<string | undefined>; done: boolean; failed: boolean } | undefined;
  const storeCheck = (): Promise<string | undefined> => {
    const now = Date.now();
    if (checked === undefined || (checked.done && (checked.failed || now - checked.at >= READY_CHECK_MS))) {
      const check = { at: now, result: storeAnswers(readiness.store, readiness.type), done: false, failed: false };
      void check.result.then((problem) => {
        check.done = true;
        check.failed = problem !== undefined;
      });
      checked = check;
    }
    return checked.result;
  };
  return (head) => {
    if (head.method !== 'GET' && head.method !== 'HEAD') return undefined;
    const url = head.url;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path.endsWith(`${basePath}/healthz`) && pathOf(path) === `${basePath}/healthz`) return healthAnswer(200, { status: 'pass' }, head.method);
    if (!path.endsWith(`${basePath}/readyz`) || pathOf(path) !== `${basePath}/readyz`) return undefined;
    return storeCheck().then((problem) => {
      const checks: Record<string, unknown[]> = { 'store:responds': [problem === undefined ? { status: 'pass' } : { status: 'fail', output: problem }] };
      if (problem !== undefined) return healthAnswer(503, { status: 'fail', output: problem, checks }, head.method);
      const live = readiness.changesLive?.();
      if (live === undefined) return healthAnswer(200, { status: 'pass', checks }, head.method);
      const output = 'the change feed is not known to be live: answers are read from the store, not kept';
      checks['changes:live'] = [live ? { status: 'pass' } : { status: 'warn', output }];
      return healthAnswer(200, live ? { status: 'pass', checks } : { status: 'warn', output, checks }, head.method);
    });
  };
}

/** The path of an absolute URL without its query (or the string itself when it is not one). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
