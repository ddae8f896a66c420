// A store whose reads make new records each time (as a database's rows are) and whose change notices can be
// held back (as another instance's NOTIFY arrives a moment later), for the tests of kept records and pages.
import { bearerTokens, createPlayerService, MemoryPlayerStore } from '../../src/index.js';
import type { Changes, Store, StoredItem } from '../../src/stores/contract.js';

const BASE = 'https://api.test';
const AUTH = { Authorization: 'Bearer t' };

/**
 * A memory store seen through records made for each read (as a database's rows are), counting its
 * player reads, whose change notices can be held back (as another instance's NOTIFY arrives a moment later).
 */
export function freshRecordsStore() {
  const inner = new MemoryPlayerStore();
  const listeners = new Set<(changed: Changes) => void>();
  const held: Changes[] = [];
  let holding = false;
  let reads = 0;
  let lists = 0;
  const copy = (p: StoredItem | undefined) => p && { ...p };
  inner.watch((changed) => (holding ? held.push(changed) : listeners.forEach((l) => l(changed))));
  const store: Store = {
    get: async (type, id) => (reads++, copy(await inner.get(type, id))),
    list: async (relation, id, page) => {
      lists++;
      const slice = await inner.list(relation, id, page);
      return slice && { ...slice, items: slice.items.map((p) => copy(p)!), owner: copy(slice.owner) };
    },
    search: (relation, id, text, page) => inner.search(relation, id, text, page),
    put: (type, data, options) => inner.put(type, data, options),
    delete: (type, id, options) => inner.delete(type, id, options),
    createMember: (relation, owner, data, options) => inner.createMember(relation, owner, data, options),
    addMember: (relation, owner, member, options) => inner.addMember(relation, owner, member, options),
    removeMember: (relation, owner, member, options) => inner.removeMember(relation, owner, member, options),
    getMedia: (type, id, name) => inner.getMedia(type, id, name),
    putMedia: (type, id, name, bytes, contentType, options) => inner.putMedia(type, id, name, bytes, contentType, options),
    watch: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
  };
  return {
    store,
    inner,
    reads: () => reads,
    lists: () => lists,
    hold: () => void (holding = true),
    release: () => {
      holding = false;
      for (const changed of held.splice(0)) listeners.forEach((l) => l(changed));
    },
  };
}

/** The Player API on a fresh-records store holding alice, with helpers to call it and PATCH alice. */
export async function setup() {
  const fresh = freshRecordsStore();
  await fresh.inner.putPlayer({ playerId: 'alice', alias: 'ali' });
  const service = createPlayerService({ baseUrl: BASE, store: fresh.store, authenticate: bearerTokens(['t']) });
  const call = (path: string, init: RequestInit = {}) => service.fetch(new Request(BASE + path, init));
  const patch = (etag: string, ops: unknown[]) =>
    call('/player/alice', { method: 'PATCH', headers: { ...AUTH, 'Content-Type': 'application/json-patch+json', 'If-Match': etag }, body: JSON.stringify(ops) });
  return { ...fresh, service, call, patch };
}

