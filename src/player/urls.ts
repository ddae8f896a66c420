// Every URL of the Player API, built in one place: routes, documents and formats all ask here.

/**
 * The URL of a player resource: `{baseUrl}/player/{playerId}`, the id percent-encoded.
 *
 * @example
 * playerUrl('https://x.test', 'bob'); // 'https://x.test/player/bob'
 */
export function playerUrl(baseUrl: string, playerId: string): string {
  return `${baseUrl}/player/${encodeURIComponent(playerId)}`;
}

/**
 * The avatar URL of a player: always `{baseUrl}/player/{playerId}/avatar.png` (docs/decisions.md).
 *
 * @example
 * avatarUrl('https://x.test', 'bob'); // 'https://x.test/player/bob/avatar.png'
 */
export function avatarUrl(baseUrl: string, playerId: string): string {
  return avatarOf(playerUrl(baseUrl, playerId));
}

/**
 * The avatar URL of the player at `playerUrl`.
 *
 * @example
 * avatarOf('https://x.test/player/bob'); // 'https://x.test/player/bob/avatar.png'
 */
export function avatarOf(playerUrl: string): string {
  return `${playerUrl}/avatar.png`;
}

/**
 * The friend list of the player at `ownerUrl`, or page `page` of it (`?page=N`, always given for a
 * page, page 1 included, so every page has exactly one URL).
 *
 * @example
 * friendsUrl('https://x.test/player/alice', 2); // 'https://x.test/player/alice/friends?page=2'
 */
export function friendsUrl(ownerUrl: string, page?: number): string {
  return page === undefined ? `${ownerUrl}/friends` : `${ownerUrl}/friends?page=${page}`;
}

/**
 * The search among the friends of the player at `ownerUrl`: without `text`, the search resource itself;
 * with it, the results (`?search=TEXT`, or the format's own `parameter`), or page `page` of them.
 *
 * @example
 * searchUrl('https://x.test/player/alice', 'ada', 2); // 'https://x.test/player/alice/friends/search?search=ada&page=2'
 */
export function searchUrl(ownerUrl: string, text?: string, page?: number, parameter = 'search'): string {
  const resource = `${ownerUrl}/friends/search`;
  if (text === undefined) return resource;
  const results = `${resource}?${encodeURIComponent(parameter)}=${encodeURIComponent(text)}`;
  return page === undefined ? results : `${results}&page=${page}`;
}

/**
 * The RFC 6570 template of a search among the friends of the player at `ownerUrl`.
 *
 * @example
 * searchTemplate('https://x.test/player/alice'); // 'https://x.test/player/alice/friends/search{?search}'
 */
export function searchTemplate(ownerUrl: string): string {
  return `${ownerUrl}/friends/search{?search}`;
}

/**
 * The JSON:API relationship URL of the friends of the player at `ownerUrl`, or page `page` of it.
 *
 * @example
 * linkageUrl('https://x.test/player/alice', 2); // 'https://x.test/player/alice/relationships/friends?page=2'
 */
export function linkageUrl(ownerUrl: string, page?: number): string {
  const resource = `${ownerUrl}/relationships/friends`;
  return page === undefined ? resource : `${resource}?page=${page}`;
}
