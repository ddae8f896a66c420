// player-hypermedia/postgres: the PostgreSQL player store (Node, node-postgres).
export { PostgresPlayerStore, type PostgresPlayerStoreOptions } from './store.js';
export { MIGRATIONS, migrate, type Migration } from './migrations.js';
export { isUnavailable } from './errors.js';
