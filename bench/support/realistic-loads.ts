// The loads of bench/realistic, as autocannon request generators: mixed reads and writes (over every format,
// and weighted to HAL and JSON:API pages), reads over many URLs, a computed page of 50 in each format, and
// each kind of write alone.
import { PLAYERS, TOKEN, playerId } from './realistic-data.js';
import { FORMATS, type Format } from './realistic-formats.js';

/** Every format the bench asks for, by media type. */
export const ALL_FORMATS = Object.keys(FORMATS) as Format[];
/** Each format's short name in the loads' keys (BENCH_LOADS=c:jsonapi). */
export const FORMAT_KEYS: Readonly<Record<Format, string>> = { 'application/json': 'json', 'application/ld+json': 'jsonld', 'application/hal+json': 'hal', 'application/prs.hal-forms+json': 'hal-forms', 'application/vnd.collection+json': 'collection', 'application/vnd.siren+json': 'siren', 'application/vnd.api+json': 'jsonapi', 'text/html': 'html' };
const HAL = 'application/hal+json';
const JSON_API = 'application/vnd.api+json';
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
  current?: { kind: 'read-player' | 'other' | 'write'; id: string };
}

/** One load: its autocannon requests, connections, and the statuses that count as answered. */
export interface Load {
  name: string;
  connections: number;
  pageSize: number;
  requests: unknown[];
  ok: (status: number) => boolean;
}

/** A kind of write: JSON Patch or merge patch of a player, PUT of a player, POST of a new friend. */
export type WriteKind = 'json-patch' | 'merge-patch' | 'put' | 'post';
/** Every kind of write, in the order the loads take them. */
export const WRITE_KINDS: readonly WriteKind[] = ['json-patch', 'merge-patch', 'put', 'post'];

const pick = (n: number) => Math.floor(Math.random() * n);
const any = <T>(list: readonly T[]): T => list[pick(list.length)]!;

/** A generated request over autocannon's defaults for the connection (host and the like). */
const over = (defaults: Request, r: Request): Request => ({ ...defaults, ...r, headers: { ...defaults.headers, ...r.headers } });
const auth = { authorization: `Bearer ${TOKEN}` };

/** A write of `kind` to player `id` (`etag`: its If-Match, when known); `n` makes values distinct. */
function write(kind: WriteKind, id: string, n: number, etag?: string): Request {
  const conditional: Record<string, string> = etag === undefined ? {} : { 'if-match': etag };
  const headers = (type: string): Record<string, string> => ({ ...auth, ...conditional, 'content-type': type, accept: JSON_TYPE });
  switch (kind) {
    case 'json-patch':
      return { method: 'PATCH', path: `/player/${id}`, headers: headers('application/json-patch+json'), body: JSON.stringify([{ op: 'replace', path: '/alias', value: `alias-${n}` }]) };
    case 'merge-patch':
      return { method: 'PATCH', path: `/player/${id}`, headers: headers('application/merge-patch+json'), body: JSON.stringify({ alias: `merged-${n}`, displayName: `Merged ${n}` }) };
    case 'put':
      return { method: 'PUT', path: `/player/${id}`, headers: headers(JSON_TYPE), body: JSON.stringify({ playerId: id, alias: `put-${n}`, displayName: `Put ${n}` }) };
    case 'post':
      return { method: 'POST', path: `/player/${id}/friends`, headers: { ...auth, 'content-type': JSON_TYPE, accept: JSON_TYPE }, body: JSON.stringify({ name: `New ${n}`, alternateName: `new-${n}` }) };
  }
}

interface MixedShape {
  name: string;
  /** Of the reads, the share of players (the rest are friends pages 1-5). */
  players: number;
  formats: readonly Format[];
  /** The writes, taking turns: 10% of the requests. */
  writes: readonly WriteKind[];
}

/**
 * A mixed load: 90% reads (players and friends pages 1-5 in `formats`), 10% writes of `writes` with
 * If-Match (the ETag this load last saw of the player; a 412 when another connection changed it
 * meanwhile is an answer too). 10 connections.
 */
function mixed(shape: MixedShape): Load {
  let counter = 0;
  // The last ETag the clients saw of each player, in whichever format they read it (from reads and from
  // write answers): both servers take the revision an ETag starts with as the If-Match's.
  // The players with one are also listed, so that a write picks one in constant time (the load's core
  // is shared with PostgreSQL: the load's own cost must not grow with what it has seen).
  const etags = new Map<string, { etag: string; at: number }>();
  const known: string[] = [];
  const remember = (status: number, _body: string, context: Context, headers: Record<string, string>) => {
    const current = context.current;
    if (!current || current.kind === 'other') return;
    const seen = etags.get(current.id);
    if (status === 200 && headers.etag) {
      if (seen) seen.etag = headers.etag;
      else etags.set(current.id, { etag: headers.etag, at: known.push(current.id) - 1 });
    } else if (status === 412 && seen) {
      // Out of the list: the last one takes its place.
      const last = known.pop()!;
      if (last !== current.id) (known[seen.at] = last), (etags.get(last)!.at = seen.at);
      etags.delete(current.id);
    }
  };
  const next = (context: Context): Request => {
    const r = Math.random();
    const id = playerId(pick(PLAYERS));
    if (r >= 0.9) {
      const kind = shape.writes[++counter % shape.writes.length]!;
      if (kind === 'post') {
        context.current = { kind: 'other', id };
        return write(kind, id, counter);
      }
      // A conditional write names an ETag seen; before any was seen (the first requests), a read instead.
      if (known.length > 0) {
        const chosen = known[pick(known.length)]!;
        context.current = { kind: 'write', id: chosen };
        return write(kind, chosen, counter, etags.get(chosen)!.etag);
      }
    }
    const reads = r < 0.9 ? r / 0.9 : Math.random();
    if (reads < shape.players) {
      context.current = { kind: 'read-player', id };
      return { method: 'GET', path: `/player/${id}`, headers: { accept: any(shape.formats) } };
    }
    context.current = { kind: 'other', id };
    return { method: 'GET', path: `/player/${id}/friends?page=${1 + pick(5)}`, headers: { accept: any(shape.formats) } };
  };
  return {
    name: shape.name,
    connections: 10,
    pageSize: 10,
    ok: (status) => status === 200 || status === 201 || status === 412,
    requests: [{ setupRequest: (defaults: Request, context: Context) => over(defaults, next(context)), onResponse: remember }],
  };
}

/** (a) reads over all eight formats, writes by JSON Patch, merge patch, PUT and POST. */
export const mixedLoad = (): Load =>
  mixed({ name: '(a) 90% reads in all 8 formats / 10% writes (JSON Patch, merge patch, PUT, POST)', players: 0.5, formats: ALL_FORMATS, writes: ['json-patch', 'merge-patch', 'put', 'post'] });

/** (a') reads mostly friends pages in HAL and JSON:API, writes by merge patch and POST. */
export const mixedPagesLoad = (): Load =>
  mixed({ name: "(a') 90% reads, mostly pages in HAL and JSON:API / 10% writes (merge patch, POST)", players: 0.2, formats: [HAL, JSON_API], writes: ['merge-patch', 'post'] });

/** The URLs of a many-URL load: per player, itself and pages 1-5 in each of `formats`. */
function manyUrls(formats: readonly Format[]): Request[] {
  const list: Request[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const id = playerId(i);
    for (const accept of formats) {
      list.push({ method: 'GET', path: `/player/${id}`, headers: { accept } });
      for (let page = 1; page <= 5; page++) list.push({ method: 'GET', path: `/player/${id}/friends?page=${page}`, headers: { accept } });
    }
  }
  return list;
}

function manyUrlsOf(name: string, formats: readonly Format[]): Load {
  const urls = manyUrls(formats);
  return {
    name: `${name}: reads over ${urls.length.toLocaleString('en')} distinct URLs`,
    connections: 10,
    pageSize: 10,
    ok: (status) => status === 200,
    requests: [{ setupRequest: (defaults: Request): Request => over(defaults, urls[pick(urls.length)]!) }],
  };
}

/** (b) reads only, uniformly over every player and its pages 1-5 in all eight formats. */
export const manyUrlsLoad = (): Load => manyUrlsOf('(b) all 8 formats', ALL_FORMATS);

/** (b') the same in HAL and JSON:API only. */
export const manyUrlsPagesLoad = (): Load => manyUrlsOf("(b') HAL and JSON:API", [HAL, JSON_API]);

/**
 * (c) the first page of 50 friends of a random player in `format`: a big document, computed for every
 * answer (each request's URL is its own, by a query parameter both servers ignore, camel case as JSON:API
 * wants an implementation's own parameters, so no cache can
 * answer it: what it costs to compute, and what keeping answers costs when they are never asked again).
 * 100 connections.
 */
export function bigPageLoad(format: Format): () => Load {
  return () => {
    let counter = 0;
    return {
      name: `(c) ${format} page of 50 friends, every answer computed, 100 connections`,
      connections: 100,
      pageSize: 50,
      ok: (status) => status === 200,
      requests: [{ setupRequest: (defaults: Request): Request => over(defaults, { method: 'GET', path: `/player/${playerId(pick(PLAYERS))}/friends?page=1&cacheBuster=${++counter}`, headers: { accept: format } }) }],
    };
  };
}

/**
 * (e) a random player in `format`, every answer computed as in (c) (a query parameter both servers
 * ignore makes each URL its own): what an item costs to compute in each format, the reads that (a) makes
 * of items whose writes keep changing them. 10 connections; JSON:API's linkage shows the first page of 10.
 */
export function itemLoad(format: Format): () => Load {
  return () => {
    let counter = 0;
    return {
      name: `(e) ${format} player, every answer computed`,
      connections: 10,
      pageSize: 10,
      ok: (status) => status === 200,
      requests: [{ setupRequest: (defaults: Request): Request => over(defaults, { method: 'GET', path: `/player/${playerId(pick(PLAYERS))}?cacheBuster=${++counter}`, headers: { accept: format } }) }],
    };
  };
}

/** (d) one kind of write alone, on random players, without If-Match (every answer a 200 or 201). 10 connections. */
export function writeLoad(kind: WriteKind): () => Load {
  return () => {
    let counter = 0;
    return {
      name: `(d) ${kind} writes only`,
      connections: 10,
      pageSize: 10,
      ok: (status) => status === 200 || status === 201,
      requests: [{ setupRequest: (defaults: Request): Request => over(defaults, write(kind, playerId(pick(PLAYERS)), ++counter)) }],
    };
  };
}

/**
 * (f) answers that are errors: half reads of players that do not exist (404) in any format, half merge
 * patches of existing players with an If-Match naming a revision they never had (412, the body unread
 * or read and dropped). What a crawler's misses and a client's lost races cost. 10 connections.
 */
export function errorLoad(): Load {
  let counter = 0;
  return {
    name: '(f) errors: 404 reads of missing players in all 8 formats / 412 stale merge patches',
    connections: 10,
    pageSize: 10,
    ok: (status) => status === 404 || status === 412,
    requests: [
      {
        setupRequest: (defaults: Request): Request => {
          const n = ++counter;
          if (n % 2 === 0) return over(defaults, { method: 'GET', path: `/player/missing-${n}`, headers: { accept: any(ALL_FORMATS) } });
          return over(defaults, write('merge-patch', playerId(pick(PLAYERS)), n, '"0-stale"'));
        },
      },
    ],
  };
}

/** The URLs whose bodies must be the same in both servers before anything is measured: every format. */
export function sampleRequests(): Request[] {
  const out: Request[] = [];
  for (const accept of ALL_FORMATS) {
    for (const path of ['/player/p0000', '/player/p0001', '/player/p0002/friends?page=1', '/player/p0003/friends?page=3', '/player/p0999/friends?page=5']) out.push({ method: 'GET', path, headers: { accept } });
  }
  return out;
}

/**
 * Requests beyond the sample reads that both servers must answer alike (bench/realistic compares them
 * before measuring): a missing player, each kind of write without If-Match, one with a stale If-Match.
 *
 * @example
 * sampleWrites().map((r) => r.method); // ['GET', 'PATCH', 'PATCH', 'PUT', 'POST', 'PATCH']
 */
export function sampleWrites(): Request[] {
  return [
    { method: 'GET', path: '/player/p9999', headers: { accept: JSON_TYPE } },
    ...WRITE_KINDS.map((kind, n) => write(kind, 'p0004', n)),
    write('merge-patch', 'p0004', 9, '"0-stale"'),
  ];
}

/**
 * A load by its key in bench/realistic: a, a', b, b', c:FORMAT, d:KIND, e:FORMAT, f (FORMAT as in
 * FORMAT_KEYS, KIND a WriteKind); undefined for another key.
 *
 * @example
 * loadOf('d:post')?.().name; // '(d) post writes only'
 */
export function loadOf(key: string): (() => Load) | undefined {
  const named: Record<string, () => Load> = { a: mixedLoad, "a'": mixedPagesLoad, b: manyUrlsLoad, "b'": manyUrlsPagesLoad, f: errorLoad };
  if (named[key]) return named[key];
  const [letter, name] = key.split(':');
  const format = ALL_FORMATS.find((f) => FORMAT_KEYS[f] === name);
  if (letter === 'c' && format) return bigPageLoad(format);
  if (letter === 'e' && format) return itemLoad(format);
  if (letter === 'd' && (WRITE_KINDS as readonly string[]).includes(name ?? '')) return writeLoad(name as WriteKind);
  return undefined;
}
