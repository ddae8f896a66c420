// The answers of bench/realistic's hand-written baselines (memory and PostgreSQL): the same bodies as the
// library for the requests the bench makes, each built per request with JSON.stringify.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BASE_URL, type SeedPlayer } from './realistic-data.js';

/** A player as a baseline keeps it. */
export interface Stored extends SeedPlayer {
  revision: number | string;
  modifiedAt: number;
}

const CURIES = [{ name: 'ph', href: 'https://w3id.org/player-hypermedia/vocab#{rel}', templated: true }];
/** The HAL media type. */
export const HAL = 'application/hal+json';

export const urlOf = (id: string): string => `${BASE_URL}/player/${encodeURIComponent(id)}`;

/** A player in plain JSON. */
export const plain = (p: Stored): object =>
  p.displayName === undefined
    ? { playerId: p.playerId, alias: p.alias, profilePhotoUrl: `${urlOf(p.playerId)}/avatar.png` }
    : { playerId: p.playerId, alias: p.alias, displayName: p.displayName, profilePhotoUrl: `${urlOf(p.playerId)}/avatar.png` };

const halFields = (p: Stored, url: string) =>
  p.displayName === undefined
    ? { playerId: p.playerId, alternateName: p.alias, image: `${url}/avatar.png` }
    : { playerId: p.playerId, name: p.displayName, alternateName: p.alias, image: `${url}/avatar.png` };

const halPlayer = (p: Stored) => {
  const url = urlOf(p.playerId);
  return {
    _links: {
      self: { href: url },
      curies: CURIES,
      friends: { href: `${url}/friends` },
      avatar: { href: `${url}/avatar.png`, type: 'image/png' },
      search: { href: `${url}/friends/search{?search}`, templated: true },
    },
    ...halFields(p, url),
  };
};

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

/** GET /player/{id}. */
export function sendPlayer(res: ServerResponse, p: Stored, hal: boolean): void {
  const body = JSON.stringify(hal ? halPlayer(p) : plain(p));
  const url = urlOf(p.playerId);
  send(res, 200, hal ? HAL : 'application/json', body, {
    etag: `"${p.revision}-${hal ? 'h' : 'j'}"`,
    'last-modified': new Date(p.modifiedAt).toUTCString(),
    'cache-control': 'public, max-age=60',
    link: `<${url}>; rel="self", <${url}/friends>; rel="friends", <${url}/avatar.png>; rel="avatar"`,
  });
}

/** GET /player/{id}/friends?page=N: `items` are the page's players of a list of `total`. */
export function sendPage(res: ServerResponse, owner: Stored, items: Stored[], total: number, page: number, pageSize: number, hal: boolean): void {
  const last = Math.max(1, Math.ceil(total / pageSize));
  if (!(page >= 1 && page <= last)) return fail(res, 404);
  const ownerUrl = urlOf(owner.playerId);
  const at = (n: number) => `${ownerUrl}/friends?page=${n}`;
  const links: [string, string][] = [['self', at(page)], ['first', at(1)]];
  if (page > 1) links.push(['prev', at(page - 1)]);
  if (page < last) links.push(['next', at(page + 1)]);
  links.push(['last', at(last)], ['up', ownerUrl]);
  let body: string;
  if (hal) {
    const _links: Record<string, unknown> = {};
    for (const [rel, href] of links) {
      _links[rel] = { href };
      if (rel === 'self') _links.curies = CURIES;
    }
    _links.search = { href: `${ownerUrl}/friends/search{?search}`, templated: true };
    const embedded = items.map((p) => {
      const url = urlOf(p.playerId);
      return { _links: { self: { href: url }, friends: { href: `${url}/friends` } }, ...halFields(p, url) };
    });
    body = JSON.stringify({ _links, size: String(items.length), total, page, _embedded: { player: embedded } });
  } else body = JSON.stringify(items.map(plain));
  send(res, 200, hal ? HAL : 'application/json', body, {
    etag: `"p${owner.revision}-${page}-${hal ? 'h' : 'j'}"`,
    'cache-control': 'public, max-age=10',
    link: links.map(([rel, href]) => `<${href}>; rel="${rel}"`).join(', '),
    'total-count': String(total),
  });
}

/** The parts of a request both baselines route on. */
export function route(req: IncomingMessage): { parts: string[]; page: number; hal: boolean; id: string } {
  const [path, query] = (req.url ?? '/').split('?');
  const parts = path!.split('/');
  const page = Number(/(?:^|&)page=(\d+)/.exec(query ?? '')?.[1] ?? 1);
  return { parts, page, hal: req.headers.accept === HAL, id: parts[1] === 'player' ? decodeURIComponent(parts[2] ?? '') : '' };
}
