// The loads of bench/realistic, as autocannon request generators: mixed reads and writes, many URLs, big HAL pages.
import { PLAYERS, TOKEN, playerId } from './realistic-data.js';

const HAL = 'application/hal+json';
const JSON_TYPE = 'application/json';

/** What an autocannon request generator returns. */
interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** autocannon's per-request context (it is reset before each request): the request in flight. */
interface Context {
  current?: { kind: 'read-player' | 'other' | 'patch'; id: string };
}

/** One load: its autocannon requests, connections, and the statuses that count as answered. */
export interface Load {
  name: string;
  connections: number;
  pageSize: number;
  requests: unknown[];
  ok: (status: number) => boolean;
}

const pick = (n: number) => Math.floor(Math.random() * n);

/** A generated request over autocannon's defaults for the connection (host and the like). */
const over = (defaults: Request, r: Request): Request => ({ ...defaults, ...r, headers: { ...defaults.headers, ...r.headers } });
const auth = { authorization: `Bearer ${TOKEN}` };

/**
 * (a) 90% reads (players and friends pages, plain JSON and HAL), 10% writes: a JSON Patch of a player's
 * alias with If-Match (the ETag this connection last saw of it; a 412 when another connection changed it
 * meanwhile is an answer too), and a POST of a new friend. 10 connections.
 */
export function mixedLoad(): Load {
  let counter = 0;
  // The last ETag the clients saw of each player (from reads and from PATCH answers).
  const etags = new Map<string, string>();
  const remember = (status: number, _body: string, context: Context, headers: Record<string, string>) => {
    const current = context.current;
    if (!current || current.kind === 'other') return;
    if (status === 200 && headers.etag) etags.set(current.id, headers.etag);
    else if (status === 412) etags.delete(current.id);
  };
  const next = (context: Context): Request => {
    const r = Math.random();
    const id = playerId(pick(PLAYERS));
    const accept = Math.random() < 0.5 ? JSON_TYPE : HAL;
    if (r < 0.45) {
      context.current = { kind: 'read-player', id };
      return { method: 'GET', path: `/player/${id}`, headers: { accept } };
    }
    if (r < 0.9 || (r < 0.95 && etags.size === 0)) {
      context.current = { kind: 'other', id };
      return { method: 'GET', path: `/player/${id}/friends?page=${1 + pick(5)}`, headers: { accept } };
    }
    if (r < 0.95) {
      // A player the clients have read: its last ETag (a 412 when another client changed it since).
      const known = [...etags.keys()][pick(etags.size)]!;
      const etag = etags.get(known)!;
      context.current = { kind: 'patch', id: known };
      const body = JSON.stringify([{ op: 'replace', path: '/alias', value: `alias-${++counter}` }]);
      return { method: 'PATCH', path: `/player/${known}`, headers: { ...auth, 'content-type': 'application/json-patch+json', 'if-match': etag }, body };
    }
    context.current = { kind: 'other', id };
    const body = JSON.stringify({ name: `New ${++counter}`, alternateName: `new-${counter}` });
    return { method: 'POST', path: `/player/${id}/friends`, headers: { ...auth, 'content-type': 'application/json', accept: JSON_TYPE }, body };
  };
  return {
    name: '(a) 90% reads / 10% writes over 1,000 players x 50 friends',
    connections: 10,
    pageSize: 10,
    ok: (status) => status === 200 || status === 201 || status === 412,
    requests: [{ setupRequest: (defaults: Request, context: Context) => over(defaults, next(context)), onResponse: remember }],
  };
}

/** The 10,000 URLs of load (b): per player, itself in JSON and HAL, pages 1-5 in JSON and 1-3 in HAL. */
function manyUrls(): Request[] {
  const list: Request[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const id = playerId(i);
    list.push({ method: 'GET', path: `/player/${id}`, headers: { accept: JSON_TYPE } });
    list.push({ method: 'GET', path: `/player/${id}`, headers: { accept: HAL } });
    for (let page = 1; page <= 5; page++) list.push({ method: 'GET', path: `/player/${id}/friends?page=${page}`, headers: { accept: JSON_TYPE } });
    for (let page = 1; page <= 3; page++) list.push({ method: 'GET', path: `/player/${id}/friends?page=${page}`, headers: { accept: HAL } });
  }
  return list;
}

/** (b) reads only, uniformly over 10,000 distinct URLs. 10 connections. */
export function manyUrlsLoad(): Load {
  const urls = manyUrls();
  return {
    name: '(b) reads over 10,000 distinct URLs',
    connections: 10,
    pageSize: 10,
    ok: (status) => status === 200,
    requests: [{ setupRequest: (defaults: Request): Request => over(defaults, urls[pick(urls.length)]!) }],
  };
}

/**
 * (c) the first page of 50 friends of a random player, in HAL: a big document, computed for every
 * answer (each request's URL is its own, by a query parameter both servers ignore, so no cache can
 * answer it: what it costs to compute, and what keeping answers costs when they are never asked again).
 * 100 connections.
 */
export function bigPageLoad(): Load {
  let counter = 0;
  return {
    name: '(c) HAL page of 50 friends, every answer computed, 100 connections',
    connections: 100,
    pageSize: 50,
    ok: (status) => status === 200,
    requests: [{ setupRequest: (defaults: Request): Request => over(defaults, { method: 'GET', path: `/player/${playerId(pick(PLAYERS))}/friends?page=1&n=${++counter}`, headers: { accept: HAL } }) }],
  };
}

/** The URLs whose bodies must be the same in both servers before anything is measured. */
export function sampleRequests(): Request[] {
  const urls = manyUrls();
  return [0, 1, 2, 3, 6, 7, 9, 5003, 9999].map((i) => urls[i]!);
}
