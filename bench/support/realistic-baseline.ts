// The hand-written baseline of bench/realistic on the memory: a node:http Player API over two Maps that
// builds each answer's JSON per request with JSON.stringify (no caching): players and friends pages in
// plain JSON and HAL, PATCH with If-Match, POST of a new friend.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FRIENDS, PLAYERS, TOKEN, friendIndexes, seedPlayer } from './realistic-data.js';
import { fail, plain, readBody, route, send, sendPage, sendPlayer, urlOf, type Stored } from './realistic-bodies.js';

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

  async function patch(req: IncomingMessage, res: ServerResponse, p: Stored): Promise<void> {
    const ops = JSON.parse(await readBody(req)) as { op: string; path: string; value: string }[];
    const ifMatch = req.headers['if-match'];
    if (ifMatch && /^"(\d+)-/.exec(ifMatch)?.[1] !== String(p.revision)) return fail(res, 412);
    for (const op of ops) if (op.op === 'replace' && op.path === '/alias' && typeof op.value === 'string') p.alias = op.value;
    p.revision = ++revision;
    p.modifiedAt = Date.now();
    send(res, 200, 'application/json', JSON.stringify(plain(p)), { etag: `"${p.revision}-j"`, 'cache-control': 'no-store', 'content-location': urlOf(p.playerId) });
  }

  async function post(req: IncomingMessage, res: ServerResponse, owner: Stored): Promise<void> {
    const input = JSON.parse(await readBody(req)) as { name?: string; alternateName: string };
    const friend: Stored = { playerId: randomUUID(), alias: input.alternateName, revision: ++revision, modifiedAt: Date.now() };
    if (input.name !== undefined) friend.displayName = input.name;
    players.set(friend.playerId, friend);
    friends.set(friend.playerId, []);
    friends.get(owner.playerId)!.push(friend.playerId);
    owner.revision = ++revision;
    send(res, 201, 'application/json', JSON.stringify(plain(friend)), { etag: `"${friend.revision}-j"`, location: urlOf(friend.playerId), 'cache-control': 'no-store' });
  }

  return (req, res) => {
    const { parts, page, hal, id } = route(req);
    const p = players.get(id);
    if (!p) return fail(res, 404);
    if (req.method === 'GET' && parts.length === 3) return sendPlayer(res, p, hal);
    if (req.method === 'GET' && parts.length === 4 && parts[3] === 'friends') {
      const list = friends.get(p.playerId)!;
      const items = list.slice((page - 1) * pageSize, page * pageSize).map((f) => players.get(f)!);
      return sendPage(res, p, items, list.length, page, pageSize, hal);
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return fail(res, 401);
    if (req.method === 'PATCH' && parts.length === 3) return void patch(req, res, p);
    if (req.method === 'POST' && parts.length === 4) return void post(req, res, p);
    fail(res, 405);
  };
}
