// The hand-written baseline of bench/realistic on the memory: a node:http Player API over two Maps that
// builds each answer's body per request (no caching), in all eight formats: players and friends pages;
// writes by JSON Patch and merge patch (with If-Match), PUT and POST of a new friend.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FRIENDS, PLAYERS, TOKEN, friendIndexes, seedPlayer } from './realistic-data.js';
import { changeOf, fail, noPlayer, readBody, route, sendPage, sendPlayer, sendWritten, type Stored } from './realistic-bodies.js';

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

  const stale = (req: IncomingMessage, p: Stored) => {
    const ifMatch = req.headers['if-match'];
    return ifMatch !== undefined && /^"(\d+)-/.exec(ifMatch)?.[1] !== String(p.revision);
  };

  async function change(req: IncomingMessage, res: ServerResponse, p: Stored): Promise<void> {
    const body = await readBody(req);
    if (stale(req, p)) return fail(res, 412);
    const { alias, displayName } = changeOf(req.headers['content-type'] ?? '', body);
    if (alias !== undefined) p.alias = alias;
    if (displayName === null) delete p.displayName;
    else if (displayName !== undefined) p.displayName = displayName;
    p.revision = ++revision;
    p.modifiedAt = Date.now();
    sendWritten(res, 200, p);
  }

  async function post(req: IncomingMessage, res: ServerResponse, owner: Stored): Promise<void> {
    const input = JSON.parse(await readBody(req)) as { name?: string; alternateName: string };
    const friend: Stored = { playerId: randomUUID(), alias: input.alternateName, revision: ++revision, modifiedAt: Date.now() };
    if (input.name !== undefined) friend.displayName = input.name;
    players.set(friend.playerId, friend);
    friends.set(friend.playerId, []);
    friends.get(owner.playerId)!.push(friend.playerId);
    owner.revision = ++revision;
    owner.modifiedAt = friend.modifiedAt;
    sendWritten(res, 201, friend);
  }

  return (req, res) => {
    const { parts, page, format, id } = route(req);
    const p = players.get(id);
    if (!p) return noPlayer(res, id);
    if (req.method === 'GET' && parts.length === 3) {
      const list = friends.get(p.playerId)!;
      return sendPlayer(res, p, format, { ids: format === 'application/vnd.api+json' ? list.slice(0, pageSize) : [], total: list.length, pageSize });
    }
    if (req.method === 'GET' && parts.length === 4 && parts[3] === 'friends') {
      const list = friends.get(p.playerId)!;
      const items = list.slice((page - 1) * pageSize, page * pageSize).map((f) => players.get(f)!);
      return sendPage(res, p, items, list.length, page, pageSize, format);
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return fail(res, 401);
    if ((req.method === 'PATCH' || req.method === 'PUT') && parts.length === 3) return void change(req, res, p);
    if (req.method === 'POST' && parts.length === 4) return void post(req, res, p);
    fail(res, 405);
  };
}
