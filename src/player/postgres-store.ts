// PostgresPlayerStore: the PostgreSQL store of the Player API, with its names (getPlayer, listFriends...).
import { PostgresStore } from '../stores/postgres/store.js';
import type { PostgresStoreOptions } from '../stores/postgres/options.js';
import { playerApi } from './api.js';
import { withPlayerMethods } from './player-store.js';

/**
 * Options of a PostgresPlayerStore: those of `PostgresStore`, whose `api` is the Player API.
 *
 * @example
 * const options: PostgresPlayerStoreOptions = { connectionString: process.env.DATABASE_URL, poolConfig: { max: 20 } };
 */
export type PostgresPlayerStoreOptions = Omit<PostgresStoreOptions, 'api'>;

/**
 * The Player API's store on PostgreSQL: a `PostgresStore` of the Player API (`migrate()` makes the
 * search indexes of alias and displayName) with the Player API's methods (`getPlayer`,
 * `listFriends`, `addFriend`...). A database made by an earlier release is migrated with its data
 * kept.
 *
 * @example
 * import { PostgresPlayerStore } from 'player-hypermedia/postgres';
 * const store = new PostgresPlayerStore({ connectionString: process.env.DATABASE_URL });
 * await store.migrate();
 * const service = createPlayerService({ baseUrl: 'https://api.example.com', store });
 */
export class PostgresPlayerStore extends withPlayerMethods(PostgresStore) {
  constructor(options: PostgresPlayerStoreOptions = {}) {
    super({ ...options, api: playerApi });
  }
}
