import { storeKitSuite } from './support/store-kit.js';
import { dropTestSchemas, freshGenericPostgresStore, noteSkip, POSTGRES_SKIP } from './support/postgres.js';

noteSkip();
storeKitSuite('PostgresStore passes the store kit', { make: (api) => freshGenericPostgresStore(api, 'kit') }, { skip: POSTGRES_SKIP, after: dropTestSchemas }).run();
