// Test helper: what every hostile case asserts (a problem answer, no hang, the connection reusable or closed, nothing changed).
import * as assert from 'uvu/assert';
import type { AdapterServer } from './adapter-servers.js';
import { RawConnection, type RawAnswer, type RawRequest } from './raw-http.js';

/** The paths whose state `stateOf` compares: players, a friends page, and one that must not exist. */
const WATCHED = ['/player/alice', '/player/bob', '/player/alice/friends?page=1', '/player/zed'];

/** A server of `startAdapterServers`, or one whose service is mounted under `prefix`. */
export type HostileServer = AdapterServer & { prefix?: string };

/**
 * The state a follow-up GET sees: status and ETag of a few resources, read on a fresh connection.
 *
 * @example
 * const before = await stateOf(server.origin);
 */
export async function stateOf(origin: string, prefix = ''): Promise<string[]> {
  const c = await RawConnection.open(origin);
  try {
    const state: string[] = [];
    for (const target of WATCHED) {
      const a = await c.request({ method: 'GET', target: prefix + target });
      state.push(`${target} ${a.status} ${a.headers.etag ?? ''}`);
    }
    return state;
  } finally {
    c.close();
  }
}

/**
 * Asserts an answer is `status` with a problem document whose status says the same.
 *
 * @example
 * assertProblem(answer, 405, 'node TRACE');
 */
export function assertProblem(answer: RawAnswer, status: number, label: string): Record<string, unknown> {
  assert.is(answer.status, status, `${label}: status`);
  assert.match(answer.headers['content-type'] ?? '', /^application\/problem\+json/, `${label}: content-type`);
  assert.is(answer.headers['content-length'], String(answer.body.length), `${label}: content-length`);
  const problem = JSON.parse(answer.body.toString()) as Record<string, unknown>;
  assert.is(problem.status, status, `${label}: problem status`);
  assert.type(problem.title, 'string', `${label}: problem title`);
  return problem;
}

/**
 * After a hostile request on `c`: either the server closed the connection (it must have said
 * `Connection: close`), or the same connection answers a GET.
 *
 * @example
 * const how = await reusableOrClosed(c, answer, 'node 413');
 */
export async function reusableOrClosed(c: RawConnection, answer: RawAnswer, label: string, prefix = ''): Promise<'reused' | 'closed'> {
  if (answer.headers.connection?.toLowerCase() === 'close') {
    assert.ok(await c.closed(2000), `${label}: said Connection: close but kept the connection`);
    return 'closed';
  }
  const next = await c.request({ method: 'GET', target: prefix + '/player/alice' });
  assert.is(next.status, 200, `${label}: follow-up GET on the same connection`);
  assert.is(JSON.parse(next.body.toString()).playerId, 'alice', `${label}: follow-up body`);
  return 'reused';
}

/**
 * Sends one hostile request on a new raw connection of each server and checks the whole contract:
 * `check` inspects the answer (read within 2 s), then the connection is reused or closed, and a
 * follow-up GET on a fresh connection shows nothing changed. Returns how each connection ended.
 *
 * @example
 * await eachServer(servers, { method: 'TRACE', target: '/player/alice' }, (a, label) => assertProblem(a, 405, label));
 */
export async function eachServer(
  servers: readonly HostileServer[],
  request: RawRequest | Buffer,
  check: (answer: RawAnswer, label: string) => void,
  name = '',
): Promise<Record<string, 'reused' | 'closed'>> {
  const outcomes: Record<string, 'reused' | 'closed'> = {};
  for (const s of servers) {
    const label = `${s.adapter} ${name || (Buffer.isBuffer(request) ? request.subarray(0, 40).toString('latin1') : `${request.method} ${request.target}`)}`;
    const before = await stateOf(s.origin, s.prefix);
    const c = await RawConnection.open(s.origin);
    try {
      if (Buffer.isBuffer(request)) c.send(request);
      else c.send(c.format(request), request.method);
      const answer = await c.next(2000);
      check(answer, label);
      outcomes[s.adapter] = await reusableOrClosed(c, answer, label, s.prefix);
    } finally {
      c.close();
    }
    assert.equal(await stateOf(s.origin, s.prefix), before, `${label}: nothing changed`);
  }
  return outcomes;
}

/**
 * Asserts that a server cuts a connection whose headers never end (a request line and one header,
 * then nothing) within `timeoutMs` plus a second, with a 408 problem.
 *
 * @example
 * await assertHeadersTimeout(origin, 1000);
 */
export async function assertHeadersTimeout(origin: string, timeoutMs: number, label = origin): Promise<void> {
  const c = await RawConnection.open(origin);
  try {
    c.send('GET /player/alice HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const answer = await c.next(timeoutMs + 1000);
    assertProblem(answer, 408, label);
    assert.is(answer.headers.connection, 'close', label);
    assert.ok(await c.closed(1000), `${label}: closed after the 408`);
  } finally {
    c.close();
  }
}
