import { MemoryPlayerStore } from '../src/index.js';
import { storeContract } from './support/store-contract.js';

storeContract('MemoryPlayerStore', { make: async () => new MemoryPlayerStore() }).run();
