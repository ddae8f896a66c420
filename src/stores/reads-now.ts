// The optional synchronous reads of a store whose reads need no I/O (see Store.readsNow).
import type { Relation, ResourceType } from '../core/model/api.js';
import type { StoredItem } from '../core/model/documents.js';
import type { PageRequest, Slice } from './contract.js';

/**
 * A store's `get` and `list`, answered at once: each returns what the store's own method would resolve
 * to if called at the same moment. The service uses them to answer a read with no promise and no turn
 * of the event loop (`MemoryStore` gives them; a database cannot).
 *
 * @example
 * const reads: ReadsNow | undefined = store.readsNow?.();
 * const slice = reads?.list(friends, 'alice', { offset: 0, limit: 10 });
 */
export interface ReadsNow {
  get(type: ResourceType, id: string): StoredItem | undefined;
  list(relation: Relation, ownerId: string, page: PageRequest): Slice | undefined;
}
