// Migration 11: a list's members and keys removed with the list by a trigger, not by foreign keys that every
// append checked.
import type { Migration } from './migrations.js';

/**
 * Migration 11. Every row of `members` and `member_keys` is inserted by a statement (or a transaction)
 * that has just inserted or updated its list's row, so the list exists and stays locked until commit:
 * the foreign keys from their `list` to `lists` proved nothing on insert, and each cost the append a
 * check (a query of `lists` with a row lock, PostgreSQL manual, "Foreign Keys"; measured by hand:
 * 12-24 us of the database's CPU a POST, docs/scaling.md, "The foreign keys of an append"). What they did on
 * delete, removing the rows of a deleted list (ON DELETE CASCADE), is now a statement trigger on
 * `lists` reading the deleted rows (a transition table, manual, "CREATE TRIGGER"); a list is deleted
 * only with its owner (the cascade from `items`), which fires it too. The keys of `member_gaps` and the
 * foreign keys to `items` stay: a gap is written by a removal, rarely, and a member read by an append
 * (not made by it) is checked at commit against a concurrent delete (docs/decisions.md, "A list's rows
 * go with it by a trigger").
 *
 * @example
 * LIST_CASCADE_MIGRATION.version; // 11
 */
export const LIST_CASCADE_MIGRATION: Migration = {
  version: 11,
  description: "a list's members and keys deleted with it by a trigger (no foreign key checked by each append)",
  sql: (s) => `
      -- The checks of migration 6's rows, deferred to the end of the transaction that migrates from an
      -- earlier release, run now: a table with pending trigger events cannot be altered.
      SET CONSTRAINTS ALL IMMEDIATE;
      ALTER TABLE ${s}.members DROP CONSTRAINT members_list_fkey;
      ALTER TABLE ${s}.member_keys DROP CONSTRAINT member_keys_list_fkey;
      CREATE FUNCTION ${s}.delete_list_rows() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        DELETE FROM ${s}.members m USING deleted_lists d WHERE m.list = d.list;
        DELETE FROM ${s}.member_keys k USING deleted_lists d WHERE k.list = d.list;
        RETURN NULL;
      END $f$;
      CREATE TRIGGER lists_deleted AFTER DELETE ON ${s}.lists
        REFERENCING OLD TABLE AS deleted_lists FOR EACH STATEMENT EXECUTE FUNCTION ${s}.delete_list_rows();
    `,
};
