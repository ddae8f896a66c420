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
 * The channels a listening session LISTENs to, and which of their notices count. On a schema at
 * SCHEMA_CHANNEL_MIGRATION or later, its own channel only. Below it (or when the role may not read
 * `schema_migrations`), REVISION_CHANNEL, which its triggers notify, and its own channel too: when
 * another instance migrates the schema while this session listens, migration 8's triggers notify both
 * and migration 9's the schema's own only, so the session goes on hearing every change. The first
 * notice heard on the schema's own channel shows its triggers notify it from then on: later notices
 * on the shared channel are the same changes again, and do not count (the one before it may be told
 * twice, which only drops what was kept once more).
 *
 * @example
 * const channels = new ListenedChannels('public', false);
 * channels.names; // [schemaChannel('public')]
 * channels.counts(schemaChannel('public')); // true
 */
export class ListenedChannels {
  /** The channels to LISTEN to. */
  readonly names: readonly string[];
  readonly #own: string;
  #shared: boolean;

  constructor(schema: string, shared: boolean) {
    this.#own = schemaChannel(schema);
    this.#shared = shared;
    this.names = shared ? [REVISION_CHANNEL, this.#own] : [this.#own];
  }

  /** Whether a notice on `channel` tells a change of the schema (not the same change again). */
  counts(channel: string): boolean {
    if (channel === this.#own) {
      this.#shared = false;
      return true;
    }
    return this.#shared && channel === REVISION_CHANNEL;
  }
}

/**
 * The channels an instance on `schema` listens to (`ListenedChannels`): the schema's own once its
 * migrations reached SCHEMA_CHANNEL_MIGRATION; else the shared REVISION_CHANNEL as well, so that an
 * instance of this release started before its schema was migrated hears every change, before and after
 * the migration; the shared one as well when the role may not read `schema_migrations`. Asked once per
 * listening session: after `migrate()` the next session listens to the schema's own only.
 *
 * @example
 * const channels = await listenedChannels(client, 'public');
 * await client.query(channels.names.map((name) => `LISTEN ${name}`).join('; '));
 */
export async function listenedChannels(client: Pick<PoolClient, 'query'>, schema: string): Promise<ListenedChannels> {
  try {
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoteIdentifier(schema)}.schema_migrations`);
    return new ListenedChannels(schema, (rows[0]?.version ?? 0) < SCHEMA_CHANNEL_MIGRATION);
  } catch (error) {
    // Not migrated at all (no such table, SQLSTATE 42P01; no such schema, 3F000), or not readable by this
    // role (42501, another of class 42): the shared channel too, which every release's triggers before
    // migration 9 notify. An outage (any other error) fails the session, which is tried again.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('42') || code === '3F000')) return new ListenedChannels(schema, true);
    throw error;
  }
}
