// The hand-written baseline of bench/realistic: a node:http Player API that builds each answer's JSON per
// request with JSON.stringify (no caching), serving the same bodies as the library for the requests the
// bench makes: players and friends pages in plain JSON and HAL, PATCH with If-Match, POST of a new friend.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BASE_URL, FRIENDS, PLAYERS, TOKEN, friendIndexes, seedPlayer, type SeedPlayer } from './realistic-data.js';

interface Stored extends SeedPlayer {
  revision: number;
  modifiedAt: number;
}

const CURIES = [{ name: 'ph', href: 'https://w3id.org/player-hypermedia/vocab#{rel}', templated: true }];
const HAL = 'application/hal+json';

/** A request listener over its own copy of the data set, `pageSize` friends a page. */
export function baselineListener(pageSize: number): (req: IncomingMessage, res: ServerResponse) => void {
  const players = new Map<string, Stored>();
  const friends = new Map<string, string[]>();
  let revision = 0;
  const now = Date.now();
  for (let i = 0; i < PLAYERS; i++) {
    const p = seedPlayer(i);
    players.set(p.playerId, { ...p, revision: ++revision, modifiedAt: now });
  }
  for (let i = 0; i < PLAYERS; i++) friends.set(seedPlayer(i).playerId, friendIndexes(i).map((f) => seedPlayer(f).playerId));
  if (FRIENDS < pageSize) throw new Error('page size larger than a list');

  const urlOf = (id: string) => `${BASE_URL}/player/${encodeURIComponent(id)}`;
  const plain = (p: Stored) =>
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

  function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string>): void {
    res.writeHead(status, {
      'content-type': type,
      'content-length': Buffer.byteLength(body),
      date: new Date().toUTCString(),
      vary: 'Accept, Authorization',
      ...extra,
    });
    res.end(body);
  }
  const fail = (res: ServerResponse, status: number) => send(res, status, 'application/problem+json', JSON.stringify({ status }), { 'cache-control': 'no-store' });

  function getPlayer(res: ServerResponse, p: Stored, hal: boolean): void {
    const body = JSON.stringify(hal ? halPlayer(p) : plain(p));
    const url = urlOf(p.playerId);
    send(res, 200, hal ? HAL : 'application/json', body, {
      etag: `"${p.revision}-${hal ? 'h' : 'j'}"`,
      'last-modified': new Date(p.modifiedAt).toUTCString(),
      'cache-control': 'public, max-age=60',
      link: `<${url}>; rel="self", <${url}/friends>; rel="friends", <${url}/avatar.png>; rel="avatar"`,
    });
  }

  function getPage(res: ServerResponse, owner: Stored, page: number, hal: boolean): void {
    const list = friends.get(owner.playerId)!;
    const last = Math.max(1, Math.ceil(list.length / pageSize));
    if (!(page >= 1 && page <= last)) return fail(res, 404);
    const items = list.slice((page - 1) * pageSize, page * pageSize).map((id) => players.get(id)!);
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
      body = JSON.stringify({ _links, size: String(items.length), total: list.length, page, _embedded: { player: embedded } });
    } else body = JSON.stringify(items.map(plain));
    send(res, 200, hal ? HAL : 'application/json', body, {
      etag: `"p${owner.revision}-${page}-${hal ? 'h' : 'j'}"`,
      'cache-control': 'public, max-age=10',
      link: links.map(([rel, href]) => `<${href}>; rel="${rel}"`).join(', '),
      'total-count': String(list.length),
    });
  }

  function readBody(req: IncomingMessage): Promise<string> {
    return new Promise((resolve) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => resolve(text));
    });
  }

  async function patch(req: IncomingMessage, res: ServerResponse, p: Stored): Promise<void> {
    const ops = JSON.parse(await readBody(req)) as { op: string; path: string; value: string }[];
    const ifMatch = req.headers['if-match'];
    if (ifMatch && /^"(\d+)-/.exec(ifMatch)?.[1] !== String(p.revision)) return fail(res, 412);
    for (const op of ops) if (op.op === 'replace' && op.path === '/alias' && typeof op.value === 'string') p.alias = op.value;
    p.revision = ++revision;
    p.modifiedAt = Date.now();
    const body = JSON.stringify(plain(p));
    send(res, 200, 'application/json', body, { etag: `"${p.revision}-j"`, 'cache-control': 'no-store', 'content-location': urlOf(p.playerId) });
  }

  async function post(req: IncomingMessage, res: ServerResponse, owner: Stored): Promise<void> {
    const input = JSON.parse(await readBody(req)) as { name?: string; alternateName: string };
    const friend: Stored = { playerId: randomUUID(), alias: input.alternateName, revision: ++revision, modifiedAt: Date.now() };
    if (input.name !== undefined) friend.displayName = input.name;
    players.set(friend.playerId, friend);
    friends.set(friend.playerId, []);
    friends.get(owner.playerId)!.push(friend.playerId);
    owner.revision = ++revision;
    const url = urlOf(friend.playerId);
    send(res, 201, 'application/json', JSON.stringify(plain(friend)), { etag: `"${friend.revision}-j"`, location: url, 'cache-control': 'no-store' });
  }

  return (req, res) => {
    const [path, query] = (req.url ?? '/').split('?');
    const parts = path!.split('/');
    const p = parts[1] === 'player' ? players.get(decodeURIComponent(parts[2] ?? '')) : undefined;
    if (!p) return fail(res, 404);
    const hal = req.headers.accept === HAL;
    if (req.method === 'GET' && parts.length === 3) return getPlayer(res, p, hal);
    if (req.method === 'GET' && parts.length === 4 && parts[3] === 'friends') {
      return getPage(res, p, Number(/(?:^|&)page=(\d+)/.exec(query ?? '')?.[1] ?? 1), hal);
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return fail(res, 401);
    if (req.method === 'PATCH' && parts.length === 3) return void patch(req, res, p);
    if (req.method === 'POST' && parts.length === 4) return void post(req, res, p);
    fail(res, 405);
  };
}
