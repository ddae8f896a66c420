// The answers of bench/realistic's hand-written baselines (memory and PostgreSQL): the same status, body
// and header fields as the library for the requests the bench makes, each built per request with
// JSON.stringify (bench/support/realistic-parity.ts compares them).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BASE_URL } from './realistic-data.js';
import { contentTypeOf, FORMATS, pageBody, plain, playerBody, urlOf, type Format, type Stored } from './realistic-formats.js';

export { plain, urlOf, type Stored, type Format } from './realistic-formats.js';
/** The HAL media type. */
export const HAL = 'application/hal+json';

/** The Link of every answer of the library: where its API documentation is (Hydra). */
const API_DOCUMENTATION = `<${BASE_URL}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`;
/** Vary of the answers that are the same for everyone (writes, errors), and of reads (a read may need credentials). */
const VARY = 'Accept, Api-Version';
const VARY_READ = 'Accept, Authorization, Api-Version';

/**
 * Writes an answer with the header fields the library sends on it: the same names and values (but for
 * the ETag, which is the library's own hash), so that both servers build and send the same bytes.
 */
export function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string>, vary = VARY): void {
  res.writeHead(status, {
    'api-version': '1.0',
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    date: new Date().toUTCString(),
    vary,
    ...extra,
  });
  res.end(body);
}

const TITLES: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 405: 'Method Not Allowed', 412: 'Precondition Failed', 500: 'Internal Server Error' };
const DETAILS: Record<number, string> = { 412: 'A precondition of the request (If-Match, If-Unmodified-Since or If-None-Match) does not hold; nothing was written.' };

/** A problem (RFC 9457) as the library words it for the bench's requests: `detail` as it says it. */
export const fail = (res: ServerResponse, status: number, detail = DETAILS[status] ?? ''): void =>
  send(res, status, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: TITLES[status], status, detail }), { 'cache-control': 'no-store', link: API_DOCUMENTATION });

/** 404 for a player that is not there, worded as the library words it. */
export const noPlayer = (res: ServerResponse, id: string): void => fail(res, 404, `There is no player "${id}".`);

/** The fields of a cacheable read: its freshness (Cache-Control and, for HTTP/1.0 caches, Expires). */
const fresh = (maxAge: number): Record<string, string> => ({ 'cache-control': `public, max-age=${maxAge}`, expires: new Date(Date.now() + maxAge * 1000).toUTCString() });

/** The Link header of a player: itself, its friends, its avatar, and the API documentation. */
const playerLinks = (url: string): string => `<${url}>; rel="self", <${url}/friends>; rel="friends", <${url}/avatar.png>; rel="avatar", ${API_DOCUMENTATION}`;

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}

/** GET /player/{id} in `format`; `linkage` the first page of its friends (JSON:API shows it). */
export function sendPlayer(res: ServerResponse, p: Stored, format: Format, linkage: { ids: string[]; total: number; pageSize: number }): void {
  const body = playerBody(format, p, linkage);
  const url = urlOf(p.playerId);
  send(res, 200, contentTypeOf(format), body, {
    etag: `"${p.revision}-${FORMATS[format]}"`,
    'last-modified': new Date(p.modifiedAt).toUTCString(),
    ...fresh(60),
    link: playerLinks(url),
  }, VARY_READ);
}

/** GET /player/{id}/friends?page=N: `items` are the page's players of a list of `total`. */
export function sendPage(res: ServerResponse, owner: Stored, items: Stored[], total: number, page: number, pageSize: number, format: Format): void {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (!(page >= 1 && page <= last)) return fail(res, 404);
  const ownerUrl = urlOf(owner.playerId);
  const at = (n: number) => `${ownerUrl}/friends?page=${n}`;
  const links: [string, string][] = [['self', at(page)], ['first', at(1)]];
  if (page > 1) links.push(['prev', at(page - 1)]);
  if (page < last) links.push(['next', at(page + 1)]);
  links.push(['last', at(last)], ['up', ownerUrl]);
  let modifiedAt = owner.modifiedAt;
  for (const item of items) modifiedAt = Math.max(modifiedAt, item.modifiedAt);
  send(res, 200, contentTypeOf(format), pageBody(format, owner.playerId, items, total, page, pageSize, links), {
    etag: `"p${owner.revision}-${page}-${FORMATS[format]}"`,
    'last-modified': new Date(modifiedAt).toUTCString(),
    ...fresh(10),
    link: `${links.map(([rel, href]) => `<${href}>; rel="${rel}"`).join(', ')}, ${API_DOCUMENTATION}`,
    'total-count': String(total),
  }, VARY_READ);
}

/** The answer to a write: the player in plain JSON with its validators and links, `location` when created. */
export function sendWritten(res: ServerResponse, status: number, p: Stored): void {
  const url = urlOf(p.playerId);
  const fields: Record<string, string> = {
    link: playerLinks(url),
    etag: `"${p.revision}-j"`,
    'last-modified': new Date(p.modifiedAt).toUTCString(),
    'cache-control': 'no-store',
    'content-location': url,
  };
  if (status === 201) fields.location = url;
  send(res, status, 'application/json', JSON.stringify(plain(p)), fields);
}

/** The parts of a request both baselines route on; the format from Accept (one of FORMATS, else JSON). */
export function route(req: IncomingMessage): { parts: string[]; page: number; format: Format; id: string } {
  const [path, query] = (req.url ?? '/').split('?');
  const parts = path!.split('/');
  const page = Number(/(?:^|&)page=(\d+)/.exec(query ?? '')?.[1] ?? 1);
  const accept = req.headers.accept ?? '';
  const format: Format = accept in FORMATS ? (accept as Format) : 'application/json';
  return { parts, page, format, id: parts[1] === 'player' ? decodeURIComponent(parts[2] ?? '') : '' };
}

/** A change of a player read from a body: JSON Patch replaces, a merge patch, or a whole player (PUT). */
export function changeOf(type: string, body: string): { alias?: string; displayName?: string | null } {
  const value = JSON.parse(body) as unknown;
  if (type === 'application/json-patch+json') {
    const change: { alias?: string; displayName?: string | null } = {};
    for (const op of value as { op: string; path: string; value?: string }[]) {
      if (op.op === 'replace' && op.path === '/alias' && typeof op.value === 'string') change.alias = op.value;
      else if (op.op === 'replace' && op.path === '/displayName' && typeof op.value === 'string') change.displayName = op.value;
    }
    return change;
  }
  const object = value as { alias?: string; displayName?: string | null };
  const change: { alias?: string; displayName?: string | null } = {};
  if (typeof object.alias === 'string') change.alias = object.alias;
  if (object.displayName === null || typeof object.displayName === 'string') change.displayName = object.displayName;
  // PUT replaces: a display name left out is removed.
  if (type === 'application/json' && !('displayName' in object)) change.displayName = null;
  return change;
}
