// The NOTIFY channels the migrations' triggers announce committed changes on, and the one a schema listens to.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { quoteIdentifier } from './search-indexes.js';

/**
 * The NOTIFY channel of changed items of earlier releases: payload `schema\n<type>/<id>` (migration 6;
 * `schema\nplayerId` before). Notified until migration 9, for instances of those releases during a rolling upgrade.
 *
 * @example
 * CHANGE_CHANNEL; // 'player_hypermedia_changes'
 */
export const CHANGE_CHANNEL = 'player_hypermedia_changes';

/**
 * The NOTIFY channel of every schema's changes (migration 7): payload `schema\n<type>/<id>\n<revision>`,
 * the revision the change made, empty for a deletion or a media change. Notified until migration 9, for
 * the instances of the release before migration 8, and listened to on a schema not yet at migration 8.
 *
 * @example
 * REVISION_CHANNEL; // 'player_hypermedia_revisions'
 */
export const REVISION_CHANNEL = 'player_hypermedia_revisions';

/** The first migration whose triggers notify each schema's own channel (`schemaChannel`). */
export const SCHEMA_CHANNEL_MIGRATION = 8;

/**
 * The NOTIFY channel of one schema's changes (migration 8), with the payload of REVISION_CHANNEL:
 * only the instances on that schema hear them, so the instances of other schemas on the same database
 * (one schema per tenant, per test, per setting of a benchmark) are not woken by every write. A
 * schema's name may be longer than a channel's 63 bytes and hold any character: the channel is named
 * by the first 128 bits of the SHA-256 of the name's UTF-8 (what PostgreSQL's `sha256` and
 * `convert_to` compute too), a plain lowercase identifier. The payload still names the schema.
 *
 * @example
 * schemaChannel('public'); // 'player_hypermedia_schema_efa1f375d76194fa51a3556a97e641e6'
 */
export function schemaChannel(schema: string): string {
  return `player_hypermedia_schema_${createHash('sha256').update(schema, 'utf8').digest('hex').slice(0, 32)}`;
}

/**
 * The first migration whose triggers notify once a statement, on `statementChannel`.
 *
 * @example
 * STATEMENT_CHANNEL_MIGRATION; // 10
 */
export const STATEMENT_CHANNEL_MIGRATION = 10;

/**
 * The NOTIFY channel of one schema's changes from migration 10 on: one notice a statement (a changed
 * table and kind of change), not a row, with payload `schema` then `\n<type>/<id>\n<revision>` for each
 * item it changed (the revision empty for a deletion or a media change), in notices of at most some
 * 7,000 bytes. In a key, `\` is sent as `\\` and a line feed as `\n`. A NOTIFY a row was half of what a
 * batch of appends cost PostgreSQL (docs/scaling.md, "One NOTIFY a statement"). Named as
 * `schemaChannel` is.
 *
 * @example
 * statementChannel('public'); // 'player_hypermedia_statement_efa1f375d76194fa51a3556a97e641e6'
 */
export function statementChannel(schema: string): string {
  return schemaChannel(schema).replace('player_hypermedia_schema_', 'player_hypermedia_statement_');
}

/** The channels that carry a schema's changes, oldest first: the migration that began notifying each. */
const GENERATIONS = [7, SCHEMA_CHANNEL_MIGRATION, STATEMENT_CHANNEL_MIGRATION] as const;

/**
 * The channels a listening session LISTENs to, which of their notices count, and what a notice says.
 * On a schema at `version` it listens to the channel its triggers notify and to every later one: when
 * another instance migrates the schema while this session listens, the triggers move to a later
 * channel (migration 8 notifies REVISION_CHANNEL and the schema's own, 9 its own only, 10
 * `statementChannel` only), and the session goes on hearing every change. The first notice heard on a
 * later channel shows the triggers notify it from then on: later notices on the earlier ones are the
 * same changes again, and do not count (one change may be told twice, which only drops what was kept
 * once more). A schema below migration 8, or one whose migrations cannot be read: all three.
 *
 * @example
 * const channels = new ListenedChannels('public', 10);
 * channels.names; // [statementChannel('public')]
 * channels.changes(statementChannel('public'), 'public\nplayer/alice\n7\nplayer/bob\n8'); // [['player/alice', '7'], ['player/bob', '8']]
 */
export class ListenedChannels {
  /** The channels to LISTEN to. */
  readonly names: readonly string[];
  readonly #schema: string;
  /** Each channel's generation (its index in GENERATIONS). */
  readonly #generations: ReadonlyMap<string, number>;
  /** The earliest generation whose notices still count. */
  #from: number;

  constructor(schema: string, version: number) {
    this.#schema = schema;
    const all = [REVISION_CHANNEL, schemaChannel(schema), statementChannel(schema)];
    this.#from = Math.max(0, GENERATIONS.findLastIndex((migration) => migration <= version));
    this.names = all.slice(this.#from);
    this.#generations = new Map(all.map((name, generation) => [name, generation]));
  }

  /** Whether a notice on `channel` tells a change of the schema (not the same change again). */
  counts(channel: string): boolean {
    const generation = this.#generations.get(channel);
    if (generation === undefined || generation < this.#from) return false;
    this.#from = generation;
    return true;
  }

  /**
   * The changes a notice on `channel` tells, as [`<type>/<id>`, revision] pairs; none when it does not
   * count or names another schema (the shared channel's notices name theirs; on a schema's own channels
   * the name guards the hash).
   */
  changes(channel: string, payload: string): (readonly [key: string, revision: string])[] {
    if (!this.counts(channel)) return [];
    const first = payload.indexOf('\n');
    if (first < 0 || payload.slice(0, first) !== this.#schema) return [];
    if (this.#generations.get(channel)! < 2) {
      // `schema\n<type>/<id>\n<revision>`, the key unescaped (migrations 7 to 9).
      const last = payload.lastIndexOf('\n');
      return last === first ? [] : [[payload.slice(first + 1, last), payload.slice(last + 1)]];
    }
    const lines = payload.slice(first + 1).split('\n');
    const changes: [string, string][] = [];
    for (let i = 0; i + 1 < lines.length; i += 2) changes.push([unescapeKey(lines[i]!), lines[i + 1]!]);
    return changes;
  }
}

/** A key as `statementChannel` sends it, with `\\` for `\` and `\n` for a line feed, read back. */
function unescapeKey(sent: string): string {
  return sent.includes('\\') ? sent.replace(/\\([\\n])/g, (_, c: string) => (c === 'n' ? '\n' : '\\')) : sent;
}

/**
 * The channels an instance on `schema` listens to (`ListenedChannels`), by the migrations its schema
 * has: the channel its triggers notify and every later one, so that an instance of this release started
 * before its schema was migrated hears every change, before and after the migration; all of them when
 * the role may not read `schema_migrations`. Asked once per listening session: after `migrate()` the
 * next session listens to the latest only.
 *
 * @example
 * const channels = await listenedChannels(client, 'public');
 * await client.query(channels.names.map((name) => `LISTEN ${name}`).join('; '));
 */
export async function listenedChannels(client: Pick<PoolClient, 'query'>, schema: string): Promise<ListenedChannels> {
  try {
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoteIdentifier(schema)}.schema_migrations`);
    return new ListenedChannels(schema, rows[0]?.version ?? 0);
  } catch (error) {
    // Not migrated at all (no such table, SQLSTATE 42P01; no such schema, 3F000), or not readable by this
    // role (42501, another of class 42): every channel, the shared one too, which every release's
    // triggers before migration 9 notify. An outage (any other error) fails the session, which is tried again.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('42') || code === '3F000')) return new ListenedChannels(schema, 0);
    throw error;
  }
}
