// player-hypermedia/postgres: the PostgreSQL player store (Node, node-postgres).
export { PostgresPlayerStore } from './store.js';
export type { PostgresPlayerStoreOptions } from './options.js';
