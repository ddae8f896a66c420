import { storeContract } from './support/store-contract.js';
import { dropTestSchemas, freshPostgresStore, noteSkip, POSTGRES_SKIP } from './support/postgres.js';

noteSkip();
storeContract('PostgresPlayerStore', { make: () => freshPostgresStore('contract'), after: dropTestSchemas, skip: POSTGRES_SKIP }).run();
