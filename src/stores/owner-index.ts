// The owners whose friend lists hold a player, kept on the player's entry in the memory store. Most
// players are on one list, so one owner is the bare id (no allocation), a few are an array, many a Set:
// a Set for every player would cost more than the player itself.

const SET_FROM = 16;

/** The owners listing one player: none, one id, a few ids, or a Set of many. */
export type Owners = string | string[] | Set<string> | undefined;

export function hasOwner(owners: Owners, ownerId: string): boolean {
  if (owners === undefined) return false;
  if (typeof owners === 'string') return owners === ownerId;
  return Array.isArray(owners) ? owners.includes(ownerId) : owners.has(ownerId);
}

/** `owners` with `ownerId` added (the same array or Set, grown, where it can be). */
export function withOwner(owners: Owners, ownerId: string): Owners {
  if (owners === undefined) return ownerId;
  if (typeof owners === 'string') return [owners, ownerId];
  if (!Array.isArray(owners)) return owners.add(ownerId);
  if (owners.length + 1 < SET_FROM) {
    owners.push(ownerId);
    return owners;
  }
  return new Set([...owners, ownerId]);
}

/** `owners` without `ownerId`. */
export function withoutOwner(owners: Owners, ownerId: string): Owners {
  if (owners === undefined || owners === ownerId) return undefined;
  if (typeof owners === 'string') return owners;
  if (Array.isArray(owners)) {
    const rest = owners.filter((id) => id !== ownerId);
    return rest.length === 0 ? undefined : rest.length === 1 ? rest[0] : rest;
  }
  owners.delete(ownerId);
  return owners.size === 0 ? undefined : owners;
}

/** The owners as a new array (safe to change the entry while iterating it). */
export function ownerList(owners: Owners): string[] {
  if (owners === undefined) return [];
  return typeof owners === 'string' ? [owners] : [...owners];
}
