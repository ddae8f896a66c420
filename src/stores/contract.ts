// The storage contract: what any store (memory, PostgreSQL, yours) does for any declared type, with
// compare-and-set writes. Its methods take the compiled model (types and relations) they store.
import { stackTraceBack, stackTraceOff } from '../core/http/stack-trace.js';
import type { Relation, ResourceType } from '../core/model/api.js';
import type { StoredItem } from '../core/model/documents.js';
import type { ReadsNow } from './reads-now.js';
import type { WritesNow } from './writes-now.js';
import type { ChangeLease, ChangeListener, Changes, CurrentRecords, ListAppend } from './changes.js';

export type { StoredItem, ReadsNow, WritesNow, ChangeLease, ChangeListener, Changes, CurrentRecords, ListAppend };

/**
 * Which slice of a list to read: `limit` items after skipping `offset`. A store answers in
 * O(limit), not O(length of the list).
 *
 * @example
 * const firstPage: PageRequest = { offset: 0, limit: 10 };
 */
export interface PageRequest {
  offset: number;
  limit: number;
  /**
   * For searches: the store may stop counting matches past this many (the service passes at least
   * `offset + limit + 1`, so whether a next page exists is still known). A store that stops sets
   * `total` to `countLimit` and `totalIsLowerBound`; one that ignores it counts them all.
   */
  countLimit?: number;
}

/**
 * One slice of a list, with the total length of the whole list and its owner.
 *
 * @example
 * const slice: Slice = { items: [], total: 0 };
 */
export interface Slice {
  items: StoredItem[];
  total: number;
  /** True when the store stopped counting at `countLimit`: the list holds more than `total`. */
  totalIsLowerBound?: boolean;
  /**
   * The list's owner as read with the slice, when the store has it at no extra cost (the built-in
   * stores do): the service then reads nothing more for a page, and the page and its owner agree.
   */
  owner?: StoredItem;
}

/**
 * The condition of a compare-and-set write. `revision`: the item (a list's owner, for list changes)
 * must currently have exactly this revision. `exists: false`: it must not exist yet. `exists: true`:
 * it must exist (any revision). Omitted: no condition. The check and the write are one atomic step.
 *
 * @example
 * await store.put(type, data, { expect: { revision: '41' } }); // StoreError('revision-mismatch') if it is now '42'
 */
export interface Expectation {
  revision?: string;
  exists?: boolean;
}

/**
 * Options of a write. A list append may carry an `Idempotency-Key` (scoped to the list): the same key
 * and the same request fingerprint replay the first result; the same key with another fingerprint is
 * an error. A replay is decided before `expect` is checked (the first request changed the state its
 * preconditions named), so a retry replays even when its preconditions no longer hold.
 *
 * @example
 * await store.createMember(friends, 'alice', data, { idempotencyKey: 'k-1', fingerprint: 'sha256-of-body' });
 */
export interface WriteOptions {
  expect?: Expectation;
  idempotencyKey?: string;
  fingerprint?: string;
}

/**
 * The result of adding a member to a list: the owner after the write, the member, and whether this
 * was a replay of an earlier request with the same idempotency key (nothing written).
 *
 * @example
 * const { owner, member, replayed } = await store.addMember(friends, 'alice', 'bob');
 */
export interface MemberWrite {
  owner: StoredItem;
  member: StoredItem;
  replayed: boolean;
}

/**
 * Members to add to a list, or to remove from it, in one step (`Store.changeMembers`).
 *
 * @example
 * const change: MembersChange = { add: ['bob', 'cy'] };
 */
export type MembersChange = { readonly add: readonly string[] } | { readonly remove: readonly string[] };

/**
 * Binary content kept beside an item under a name (a player's avatar image): its bytes, type, revision
 * (its own, independent of the item's) and modification time.
 *
 * @example
 * const avatar: StoredMedia = { bytes: new Uint8Array(), contentType: 'image/png', revision: '3', modifiedAt: 0 };
 */
export interface StoredMedia {
  bytes: Uint8Array;
  contentType: string;
  revision: string;
  modifiedAt: number;
}

/**
 * Why a store refused a write or a read:
 * - `not-found`: the item (or a list's owner, or a member named) does not exist;
 * - `revision-mismatch`: the compare-and-set condition did not hold;
 * - `conflict`: the write contradicts the current state (a member already listed, an id already taken);
 * - `idempotency-mismatch`: an idempotency key reused with a different request;
 * - `unstorable`: a value the store cannot hold (PostgreSQL's text refuses U+0000);
 * - `unavailable`: the backing database cannot be reached right now;
 * - `busy`: the database is reachable but every connection stayed in use past the wait allowed
 *   (the pool is saturated): try again in a moment.
 *
 * @example
 * if (error instanceof StoreError && error.code === 'not-found') return null;
 */
export type StoreErrorCode = 'not-found' | 'revision-mismatch' | 'conflict' | 'idempotency-mismatch' | 'unstorable' | 'unavailable' | 'busy';

/**
 * The one error type stores throw; the service turns each code into its HTTP status (docs/stores.md).
 * The message is for logs: it reaches API clients (as the problem's `detail`) only when the store marks
 * it `expose: true` (as http-errors' `expose` does), which a store does for messages written for
 * clients, never for a database's text; otherwise clients get a sentence for the code.
 * A refused write or read (every code but `unavailable` and `busy`) is made without a stack trace.
 *
 * @example
 * throw new StoreError('not-found', 'no player "zed"', { expose: true });
 * throw new StoreError('conflict', 'duplicate key in members_pkey'); // clients read a generic sentence
 */
export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** True when the message may be shown to API clients. */
  readonly expose: boolean;
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown; expose?: boolean }) {
    // A refused write is an answer (404, 409, 412, 422), not a fault: no stack. An unreachable or busy
    // database is a fault and keeps its stack (docs/decisions.md, "Errors that are answers carry no stack").
    const limit = code === 'unavailable' || code === 'busy' ? undefined : stackTraceOff();
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    stackTraceBack(limit);
    this.name = 'StoreError';
    this.code = code;
    this.expose = options?.expose === true;
  }

  /**
   * A StoreError whose message is written for API clients (`expose: true`).
   *
   * @example
   * throw StoreError.exposed('not-found', 'no player "zed"');
   */
  static exposed(code: StoreErrorCode, message: string, options?: { cause?: unknown }): StoreError {
    return new StoreError(code, message, { ...options, expose: true });
  }
}

/**
 * The key an item's changes are told by: its type's name and its id, `player/alice`.
 *
 * @example
 * itemKey('player', 'alice'); // 'player/alice'
 */
export function itemKey(type: string, id: string): string {
  return `${type}/${id}`;
}

/**
 * The storage contract. All methods are async so that a database can implement them; every write is
 * atomic, and every conditional write is a compare-and-set on a revision. Revisions change on every
 * change of an item or of one of its lists and are never reused, even when an id is deleted and
 * created again. Records are flat objects of the item's fields by plain name (its id field included)
 * with `revision` and `modifiedAt`; write-only fields are stored, derived ones are not. Errors are
 * StoreErrors (docs/stores.md lists the status the service answers for each code).
 *
 * @example
 * const store: Store = new MemoryStore();
 * await store.put(api.type('player'), { playerId: 'alice', alias: 'ali' });
 * const page = await store.list(api.type('player').relation('friends')!, 'alice', { offset: 0, limit: 10 });
 */
export interface Store {
  /** The item, or undefined. */
  get(type: ResourceType, id: string): Promise<StoredItem | undefined>;
  /** Replaces or creates an item (`data` holds its stored fields, the id field included); `created` tells which. */
  put(type: ResourceType, data: Readonly<Record<string, unknown>>, options?: WriteOptions): Promise<{ item: StoredItem; created: boolean }>;
  /** Deletes an item (and takes it off every list that holds it, and deletes its own lists and media); false when it did not exist. */
  delete(type: ResourceType, id: string, options?: WriteOptions): Promise<boolean>;
  /** One slice of the owner's list, in list order, with the list's length; undefined for an unknown owner. */
  list(relation: Relation, ownerId: string, page: PageRequest): Promise<Slice | undefined>;
  /** Members whose `relation.search.fields` contain `text`, case-insensitively, in list order; undefined for an unknown owner. */
  search(relation: Relation, ownerId: string, text: string, page: PageRequest): Promise<Slice | undefined>;
  /** Creates a new item of the relation's target type and appends it to the owner's list, atomically. */
  createMember(relation: Relation, ownerId: string, data: Readonly<Record<string, unknown>>, options?: WriteOptions): Promise<MemberWrite>;
  /** Appends an existing item to the owner's list (`conflict` when it is listed already). */
  addMember(relation: Relation, ownerId: string, memberId: string, options?: WriteOptions): Promise<MemberWrite>;
  /** Takes a member off the owner's list; the owner after the write, or undefined when it was not listed. */
  removeMember(relation: Relation, ownerId: string, memberId: string, options?: WriteOptions): Promise<StoredItem | undefined>;
  /**
   * Optional: adds or removes several members in one atomic step (readers see the list before or
   * after, never between; a failure writes nothing). A member already listed is not added again, one
   * not listed is not removed; every member added must exist, else StoreError('not-found') naming the
   * missing ones. Returns the owner after the change (unchanged, same revision, when nothing changed)
   * and the ids added or removed, in the order given. Without it, the service changes one member at a
   * time and undoes what it did when one fails: correct in the end, not atomic for readers.
   */
  changeMembers?(relation: Relation, ownerId: string, change: MembersChange, options?: WriteOptions): Promise<{ owner: StoredItem; changed: string[] }>;
  /** Optional: binary content kept beside an item under `name` (a player's avatar), or undefined. */
  getMedia?(type: ResourceType, id: string, name: string): Promise<StoredMedia | undefined>;
  /** Optional: stores binary content beside an existing item (`not-found` when there is none); `expect` is about the media's own revision. */
  putMedia?(type: ResourceType, id: string, name: string, bytes: Uint8Array, contentType: string, options?: WriteOptions): Promise<StoredMedia>;
  /**
   * Resolves when the store can answer now (a database reachable), else rejects (StoreError
   * 'unavailable' or 'busy'). Optional: /readyz reads an item instead.
   */
  ping?(): Promise<void>;
  /**
   * Optional: tells `listener` about every change of what the reads return, with the keys of the
   * items whose state changed (an item's fields or media, or one of its lists), or `'all'` when the
   * store cannot say which; returns a function that stops telling. A store that cannot promise to tell
   * about every change leaves it out, or returns undefined. The service keeps complete GET answers only
   * with a store that tells (see `memoizeAnswers`), and forgets those that show a changed item. With
   * a notice of its own write, a store may hand on the records that write left (`CurrentRecords`).
   */
  watch?(listener: ChangeListener): (() => void) | undefined;
  /**
   * Optional: true when the store hands out the same record object for an item until it changes (the
   * memory store), so that what is built from a record can be kept with it. Leave it out when records
   * are made for each read (a database's rows).
   */
  readonly sharesRecords?: boolean;
  /**
   * Optional: `get` and `list` answered synchronously (`ReadsNow`), for a store whose reads need no
   * I/O; undefined when they need it. Asked once, when a service is made.
   */
  readsNow?(): ReadsNow | undefined;
  /**
   * Optional: `put` and `createMember` done synchronously (`WritesNow`), for a store whose writes need
   * no I/O; undefined when they need it. Asked once, when a service is made.
   */
  writesNow?(): WritesNow | undefined;
}
