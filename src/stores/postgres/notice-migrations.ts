// The migrations that change what the triggers NOTIFY (7 to 10): the functions they replace, by channel.
import type { Migration } from './migrations.js';
import { CHANGE_CHANNEL, REVISION_CHANNEL, SCHEMA_CHANNEL_MIGRATION, STATEMENT_CHANNEL_MIGRATION, schemaChannel, statementChannel } from './channels.js';

/**
 * The trigger functions of items and media (made by migration 6) notifying each of `channels`:
 * CHANGE_CHANNEL with its payload of earlier releases (`schema\n<type>/<id>`), every other channel with
 * the revision the change made (empty for a deletion or a media change). NOTIFY is delivered when the
 * writing transaction commits, never for one that rolls back (PostgreSQL manual, "NOTIFY").
 */
function noticeFunctions(s: string, channels: readonly string[]): string {
  const notify = (key: string, revision: string) =>
    channels
      .map((channel) => `PERFORM pg_notify('${channel}', TG_TABLE_SCHEMA || chr(10) || ${key}${channel === CHANGE_CHANNEL ? '' : ` || chr(10) || ${revision}`});`)
      .join('\n          ');
  return `
      CREATE OR REPLACE FUNCTION ${s}.notify_item_change() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          ${notify(`OLD.type || '/' || OLD.id`, `''`)}
        ELSE
          ${notify(`NEW.type || '/' || NEW.id`, 'NEW.revision')}
        END IF;
        RETURN NULL;
      END $f$;
      CREATE OR REPLACE FUNCTION ${s}.notify_media_change() RETURNS trigger LANGUAGE plpgsql AS $f$
      DECLARE changed text;
      BEGIN
        SELECT i.type || '/' || i.id INTO changed FROM ${s}.items i WHERE i.item = CASE WHEN TG_OP = 'DELETE' THEN OLD.item ELSE NEW.item END;
        -- Media deleted with their item: the item's own notice tells it.
        IF changed IS NOT NULL THEN
          ${notify('changed', `''`)}
        END IF;
        RETURN NULL;
      END $f$;
    `;
}

/**
 * Migrations 7 to 10, in order (see `MIGRATIONS`).
 *
 * @example
 * NOTICE_MIGRATIONS.map((m) => m.version); // [7, 8, 9, 10]
 */
export const NOTICE_MIGRATIONS: readonly Migration[] = [
  {
    version: 7,
    description: 'changes also notified with the revision they made, on a second channel',
    // The notices of migration 6 stay as they are, for the instances of an earlier release still running
    // during a rolling upgrade; the second channel's payload names the revision too, so that an instance
    // can tell the echo of its own write (docs/decisions.md, "Change feed").
    sql: (s) => noticeFunctions(s, [CHANGE_CHANNEL, REVISION_CHANNEL]),
  },
  {
    version: SCHEMA_CHANNEL_MIGRATION,
    description: "changes also notified on the schema's own channel",
    // Every instance on the database heard every schema's changes on the shared channels, and was woken
    // for each (measured: two idle instances of other schemas cost a writing one a fifth of its write
    // rate on a 2-core machine, docs/scaling.md). The shared channels stay, for the instances of the
    // earlier releases during a rolling upgrade (docs/decisions.md, "Change feed").
    sql: (s, _trgm, schema) => noticeFunctions(s, [CHANGE_CHANNEL, REVISION_CHANNEL, schemaChannel(schema)]),
  },
  {
    version: 9,
    description: "changes notified on the schema's own channel only",
    // The shared channels were notified for the instances of the releases before migration 8 during a
    // rolling upgrade; the release of migration 8 and every later one listen to the schema's channel
    // (a schema below migration 8: to both, `listenedChannels`). Two NOTIFYs of three a changed row were
    // a fifth of a batch of appends' time in PostgreSQL (docs/scaling.md). A rolling upgrade from a
    // release before migration 8 goes through one at migration 8 (docs/decisions.md, "Change feed").
    sql: (s, _trgm, schema) => noticeFunctions(s, [schemaChannel(schema)]),
  },
  {
    version: STATEMENT_CHANNEL_MIGRATION,
    description: 'changes notified once a statement, on the schema\'s statement channel',
    // A NOTIFY a changed row was half of what a batch of appends cost PostgreSQL, the plpgsql call a row
    // almost nothing (docs/scaling.md, "One NOTIFY a statement"). The instances of the releases before
    // migration 10 listen to the schema's own channel and hear nothing once it runs (docs/decisions.md,
    // "Change feed"); this release's listen to both while the schema is below 10 (`listenedChannels`).
    sql: (s, _trgm, schema) => statementNotices(s, statementChannel(schema)),
  },
];

/**
 * Migration 10: the row triggers of migration 6 replaced by statement triggers, each reading the rows
 * its statement changed (a transition table, PostgreSQL manual, "CREATE TRIGGER") and notifying them
 * in notices of at most some 7,000 bytes (a payload must be shorter than 8,000 bytes, manual, "NOTIFY")
 * in the format of `statementChannel`. A media change names its item, with no revision; media deleted
 * with their item are told by the item's own notice (the join finds no item).
 */
function statementNotices(s: string, channel: string): string {
  const PAST = { INSERT: 'inserted', UPDATE: 'updated', DELETE: 'deleted' } as const;
  // In a key, \ as \\ and a line feed as \n: the payload's lines stay one key or one revision each.
  const escaped = (key: string) => `replace(replace(${key}, chr(92), chr(92) || chr(92)), chr(10), chr(92) || 'n')`;
  const notify = (entries: string) => `
      DECLARE
        payload text := '';
        entry text;
      BEGIN
        FOR entry IN ${entries} LOOP
          IF payload <> '' AND octet_length(payload) + octet_length(entry) > 7000 THEN
            PERFORM pg_notify('${channel}', TG_TABLE_SCHEMA || payload);
            payload := '';
          END IF;
          payload := payload || chr(10) || entry;
        END LOOP;
        IF payload <> '' THEN
          PERFORM pg_notify('${channel}', TG_TABLE_SCHEMA || payload);
        END IF;
        RETURN NULL;
      END`;
  const triggers = (table: string, fn: string) =>
    (['INSERT', 'UPDATE', 'DELETE'] as const)
      .map((event) => `CREATE TRIGGER ${table}_${PAST[event]} AFTER ${event} ON ${s}.${table}
        REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.${fn}();`)
      .join('\n      ');
  return `
      DROP TRIGGER items_changed ON ${s}.items;
      DROP TRIGGER media_changed ON ${s}.media;
      DROP FUNCTION ${s}.notify_item_change();
      DROP FUNCTION ${s}.notify_media_change();
      CREATE FUNCTION ${s}.notify_item_rows() RETURNS trigger LANGUAGE plpgsql AS $f$${notify(
        `SELECT ${escaped(`r.type || '/' || r.id`)} || chr(10) || CASE WHEN TG_OP = 'DELETE' THEN '' ELSE r.revision::text END FROM changed_rows r`,
      )} $f$;
      CREATE FUNCTION ${s}.notify_media_rows() RETURNS trigger LANGUAGE plpgsql AS $f$${notify(
        `SELECT ${escaped(`i.type || '/' || i.id`)} || chr(10) FROM (SELECT DISTINCT item FROM changed_rows) r JOIN ${s}.items i ON i.item = r.item`,
      )} $f$;
      ${triggers('items', 'notify_item_rows')}
      ${triggers('media', 'notify_media_rows')}
    `;
}
