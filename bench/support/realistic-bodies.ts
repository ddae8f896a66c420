// The answers of bench/realistic's hand-written baselines (memory and PostgreSQL): the same bodies as the
// library for the requests the bench makes, each built per request with JSON.stringify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contentTypeOf, FORMATS, pageBody, plain, playerBody, urlOf, type Format, type Stored } from './realistic-formats.js';

export { plain, urlOf, type Stored, type Format } from './realistic-formats.js';
/** The HAL media type. */
export const HAL = 'application/hal+json';

export function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string>): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    date: new Date().toUTCString(),
    vary: 'Accept, Authorization',
    ...extra,
  });
  res.end(body);
}

export const fail = (res: ServerResponse, status: number): void =>
  send(res, status, 'application/problem+json', JSON.stringify({ status }), { 'cache-control': 'no-store' });

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
    'cache-control': 'public, max-age=60',
    link: `<${url}>; rel="self", <${url}/friends>; rel="friends", <${url}/avatar.png>; rel="avatar"`,
  });
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
  send(res, 200, contentTypeOf(format), pageBody(format, owner.playerId, items, total, page, pageSize, links), {
    etag: `"p${owner.revision}-${page}-${FORMATS[format]}"`,
    'cache-control': 'public, max-age=10',
    link: links.map(([rel, href]) => `<${href}>; rel="${rel}"`).join(', '),
    'total-count': String(total),
  });
}

/** The answer to a write: the player in plain JSON, its ETag, `location` when created. */
export function sendWritten(res: ServerResponse, status: number, p: Stored, extra: Record<string, string> = {}): void {
  send(res, status, 'application/json', JSON.stringify(plain(p)), { etag: `"${p.revision}-j"`, 'cache-control': 'no-store', ...extra });
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
