// The optional synchronous writes of a store whose writes need no I/O (see Store.writesNow).
import type { Relation, ResourceType } from '../core/model/api.js';
import type { StoredItem } from '../core/model/documents.js';
import type { MemberWrite, WriteOptions } from './contract.js';

/**
 * A store's `put` and `createMember`, done at once: each does what the store's own method does when
 * called at the same moment, returns what it would resolve to and throws what it would reject with.
 * The service uses them so that a write, once its body has arrived, is answered with no further turn
 * of the event loop (`MemoryStore` gives them; a database cannot).
 *
 * @example
 * const writes: WritesNow | undefined = store.writesNow?.();
 * const { item, created } = writes!.put(type, { playerId: 'zoe', alias: 'zoe' }, { expect: { exists: false } });
 */
export interface WritesNow {
  put(type: ResourceType, data: Readonly<Record<string, unknown>>, options?: WriteOptions): { item: StoredItem; created: boolean };
  createMember(relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options?: WriteOptions): MemberWrite;
}
