// Health endpoints for load balancers and orchestrators: /healthz (the process answers) and /readyz
// (its store answers too), outside the API: no negotiation, no versioning, not in the Swagger document.
import { Answer, type Fields } from '../respond/answer.js';
import type { RequestHead } from '../http/request-head.js';
import type { PlayerStore } from '../stores/contract.js';

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

/** Whether the store answers within READY_TIMEOUT_MS: its `ping` when it has one, else a read. */
async function storeAnswers(store: PlayerStore): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the store did not answer within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
  });
  const check = (async () => {
    try {
      if (store.ping) await store.ping();
      else await store.getPlayer('readyz');
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
 * The answer to a health probe, or undefined when `head` is not one: GET or HEAD of
 * `{basePath}/healthz` (200 while the process answers) or `{basePath}/readyz` (200 when the store
 * answers too, else 503 with Retry-After: PostgreSQL unreachable or its pool saturated). Query
 * strings are ignored; other methods fall through to the API (404/405).
 *
 * @example
 * const probe = healthProbe(head, '/games/api', store); // undefined for any other request
 */
export function healthProbe(head: RequestHead, basePath: string, store: PlayerStore): Answer | Promise<Answer> | undefined {
  if (head.method !== 'GET' && head.method !== 'HEAD') return undefined;
  const url = head.url;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.endsWith(`${basePath}/healthz`) && pathOf(path) === `${basePath}/healthz`) return healthAnswer(200, { status: 'pass' }, head.method);
  if (!path.endsWith(`${basePath}/readyz`) || pathOf(path) !== `${basePath}/readyz`) return undefined;
  return storeAnswers(store).then((problem) =>
    problem === undefined
      ? healthAnswer(200, { status: 'pass', checks: { 'store:responds': [{ status: 'pass' }] } }, head.method)
      : healthAnswer(503, { status: 'fail', output: problem, checks: { 'store:responds': [{ status: 'fail', output: problem }] } }, head.method),
  );
}

/** The path of an absolute URL without its query (or the string itself when it is not one). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}
