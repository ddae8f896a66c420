// The hand-written baseline of bench/realistic on PostgreSQL: a node:http Player API that answers each
// request with one `pg` query (a prepared statement) and JSON.stringify, no caching, over tables of its
// own: players (with their friend count) and friends (owner, position, friend).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { FRIENDS, PLAYERS, TOKEN } from './realistic-data.js';
import { changeOf, fail, noPlayer, readBody, route, sendPage, sendPlayer, sendWritten, type Stored } from './realistic-bodies.js';

/** The schema of the baseline's tables. */
export const BASELINE_SCHEMA = 'bench_realistic_baseline';
const s = BASELINE_SCHEMA;
const COLUMNS = `player_id, alias, display_name, revision, (extract(epoch FROM modified_at) * 1000)::float8 AS ms`;

interface Row {
  player_id: string;
  alias: string;
  display_name: string | null;
  revision: string;
  ms: number;
}

const stored = (r: Row): Stored => {
  const p: Stored = { playerId: r.player_id, alias: r.alias, revision: r.revision, modifiedAt: r.ms };
  if (r.display_name !== null) p.displayName = r.display_name;
  return p;
};

/** Creates the baseline's tables with the data set of realistic-data.ts (dropping earlier ones). */
export async function seedBaseline(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE; CREATE SCHEMA ${s}; CREATE SEQUENCE ${s}.rev;
      CREATE TABLE ${s}.players (player_id text PRIMARY KEY, alias text NOT NULL, display_name text,
        revision bigint NOT NULL DEFAULT nextval('${s}.rev'), modified_at timestamptz NOT NULL DEFAULT now(), friend_count integer NOT NULL DEFAULT 0);
      CREATE TABLE ${s}.friends (owner text NOT NULL, position integer NOT NULL, friend text NOT NULL, PRIMARY KEY (owner, position));
      INSERT INTO ${s}.players (player_id, alias, display_name, friend_count)
        SELECT 'p' || lpad(i::text, 4, '0'), 'alias-' || i, CASE WHEN i % 2 = 0 THEN 'Player ' || i END, ${FRIENDS} FROM generate_series(0, ${PLAYERS - 1}) i;
      INSERT INTO ${s}.friends (owner, position, friend)
        SELECT 'p' || lpad(i::text, 4, '0'), k + 1, 'p' || lpad(((i + 1 + k * 19) % ${PLAYERS})::text, 4, '0')
        FROM generate_series(0, ${PLAYERS - 1}) i, generate_series(0, ${FRIENDS - 1}) k;`);
    // Vacuumed and analyzed, as the library's seed is: neither side's first round runs beside autovacuum's
    // first pass over its fresh tables. VACUUM runs outside a transaction, so one table a statement.
    await client.query(`VACUUM (ANALYZE) ${s}.players`);
    await client.query(`VACUUM (ANALYZE) ${s}.friends`);
  } finally {
    await client.end();
  }
}

const GET = `SELECT ${COLUMNS} FROM ${s}.players WHERE player_id = $1`;
const PAGE = `SELECT o.revision AS owner_revision, (extract(epoch FROM o.modified_at) * 1000)::float8 AS owner_ms, o.friend_count AS total, p.player_id, p.alias, p.display_name, p.revision,
    (extract(epoch FROM p.modified_at) * 1000)::float8 AS ms
  FROM ${s}.players o LEFT JOIN ${s}.friends f ON f.owner = o.player_id AND f.position > $2 AND f.position <= $3
  LEFT JOIN ${s}.players p ON p.player_id = f.friend WHERE o.player_id = $1 ORDER BY f.position`;
const ITEM = `SELECT ${COLUMNS}, friend_count AS total,
    ARRAY(SELECT friend FROM ${s}.friends WHERE owner = $1 AND position <= $2 ORDER BY position) AS first
  FROM ${s}.players WHERE player_id = $1`;
const CHANGE = `UPDATE ${s}.players SET alias = COALESCE($2, alias), display_name = CASE WHEN $4 THEN $3 ELSE display_name END,
    revision = nextval('${s}.rev'), modified_at = now()
  WHERE player_id = $1 AND ($5::bigint IS NULL OR revision = $5::bigint) RETURNING ${COLUMNS}`;
const POST = `WITH o AS (UPDATE ${s}.players SET friend_count = friend_count + 1, revision = nextval('${s}.rev'), modified_at = now() WHERE player_id = $1 RETURNING friend_count),
    f AS (INSERT INTO ${s}.players (player_id, alias, display_name) SELECT $2, $3, $4 FROM o RETURNING ${COLUMNS}),
    l AS (INSERT INTO ${s}.friends (owner, position, friend) SELECT $1, friend_count, $2 FROM o)
  SELECT * FROM f`;

/** A request listener over the baseline's tables, `pageSize` friends a page, with a pool of `max` connections. */
export function pgBaselineListener(url: string, pageSize: number, max = 10): (req: IncomingMessage, res: ServerResponse) => void {
  const pool = new pg.Pool({ connectionString: url, max });
  const q = <R extends object>(name: string, text: string, values: unknown[]) => pool.query<R>({ name, text, values });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { parts, page, format, id } = route(req);
    if (req.method === 'GET' && parts.length === 3) {
      // JSON:API shows the first page of the friends as linkage: the player and those ids, one query.
      if (format === 'application/vnd.api+json') {
        const { rows } = await q<Row & { total: number; first: string[] }>('item', ITEM, [id, pageSize]);
        return rows[0] ? sendPlayer(res, stored(rows[0]), format, { ids: rows[0].first, total: rows[0].total, pageSize }) : noPlayer(res, id);
      }
      const { rows } = await q<Row>('get', GET, [id]);
      return rows[0] ? sendPlayer(res, stored(rows[0]), format, { ids: [], total: 0, pageSize }) : noPlayer(res, id);
    }
    if (req.method === 'GET' && parts.length === 4 && parts[3] === 'friends') {
      const { rows } = await q<Row & { owner_revision: string; owner_ms: number; total: number }>('page', PAGE, [id, (page - 1) * pageSize, page * pageSize]);
      if (!rows[0]) return noPlayer(res, id);
      const items = rows.filter((r) => r.player_id !== null).map(stored);
      return sendPage(res, { playerId: id, alias: '', revision: rows[0].owner_revision, modifiedAt: rows[0].owner_ms }, items, rows[0].total, page, pageSize, format);
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return fail(res, 401);
    if ((req.method === 'PATCH' || req.method === 'PUT') && parts.length === 3) {
      const { alias, displayName } = changeOf(req.headers['content-type'] ?? '', await readBody(req));
      const expected = /^"(\d+)-/.exec(req.headers['if-match'] ?? '')?.[1] ?? null;
      const { rows } = await q<Row>('change', CHANGE, [id, alias ?? null, displayName ?? null, displayName !== undefined, expected]);
      if (!rows[0]) return fail(res, 412);
      const p = stored(rows[0]);
      return sendWritten(res, 200, p);
    }
    if (req.method === 'POST' && parts.length === 4) {
      const input = JSON.parse(await readBody(req)) as { name?: string; alternateName: string };
      const { rows } = await q<Row>('post', POST, [id, randomUUID(), input.alternateName, input.name ?? null]);
      if (!rows[0]) return noPlayer(res, id);
      const friend = stored(rows[0]);
      return sendWritten(res, 201, friend);
    }
    fail(res, 405);
  }

  return (req, res) => void answer(req, res).catch(() => fail(res, 500));
}
