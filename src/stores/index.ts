// player-hypermedia/store: the storage contract a store of your own implements, and the embedded memory store.
export {
  StoreError,
  type PlayerStore,
  type PageRequest,
  type PlayerSlice,
  type Expectation,
  type WriteOptions,
  type FriendWrite,
  type FriendsChange,
  type StoredAvatar,
  type StoreErrorCode,
  type ChangedPlayers,
  type ChangeLease,
} from './contract.js';
export { MemoryPlayerStore } from './memory.js';
export type { PlayerData, StoredPlayer } from '../player/player.js';
