// player-hypermedia/postgres: the PostgreSQL player store (Node, node-postgres).
export { PostgresPlayerStore, type PostgresPlayerStoreOptions } from './store.js';
