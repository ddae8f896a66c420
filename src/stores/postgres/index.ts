// player-hypermedia/postgres: the PostgreSQL store (Node, node-postgres), for any declared API and for the Player API.
export { PostgresStore } from './store.js';
export type { PostgresStoreOptions } from './options.js';
export type { ChangeFeedTiming } from './change-feed.js';
export { PostgresPlayerStore, type PostgresPlayerStoreOptions } from '../../player/postgres-store.js';
