// player-hypermedia/store: the storage contract a store of your own implements, and the embedded memory store.
export {
  StoreError,
  itemKey,
  type Store,
  type PageRequest,
  type Slice,
  type Expectation,
  type WriteOptions,
  type MemberWrite,
  type MembersChange,
  type StoredMedia,
  type StoredItem,
  type StoreErrorCode,
  type Changes,
  type ChangeLease,
  type ChangeListener,
  type CurrentRecords,
  type ListAppend,
  type ReadsNow,
  type WritesNow,
} from './contract.js';
export { MemoryStore } from './memory.js';
export { MemoryPlayerStore, withPlayerMethods, type PlayerStore, type PlayerStoreMethods, type PlayerSlice, type FriendWrite } from '../player/player-store.js';
export type { PlayerData, StoredPlayer } from '../player/player.js';
