import { MemoryPlayerStore, MemoryStore } from '../src/index.js';
import { storeKitSuite } from './support/store-kit.js';

storeKitSuite('MemoryStore passes the store kit', { make: () => new MemoryStore() }).run();
// The Player API's store is the same store with named methods: it passes as well.
storeKitSuite('MemoryPlayerStore passes the store kit', { make: () => new MemoryPlayerStore() }).run();
