// Cache tags: each answer names the items it shows in a header a shared cache indexes (Varnish xkey,
// Fastly Surrogate-Key...), and a write asks the cache to drop every answer tagged with what it changed.
import { pathSegment } from '../model/urls.js';

/**
 * Drops the cached answers carrying any of `tags`; the service awaits it before answering a write, so
 * the writer reads its write back through the cache. `httpPurger` makes one.
 *
 * @example
 * const purge: CachePurge = async (tags) => void (await fetch('http://varnish/', { method: 'PURGE', headers: { 'xkey-purge': tags.join(' ') } }));
 */
export type CachePurge = (tags: readonly string[]) => void | Promise<void>;

/**
 * The `cacheTags` option: the header naming each answer's tags (default `xkey`, what Varnish's xkey
 * module reads), and the purge a write calls. Tags: `<type>-<id>` (`player-alice`) for the item and
 * every item an answer embeds or lists, and `search` on search pages (any change may change a search's
 * matches).
 *
 * @example
 * createPlayerService({ baseUrl, cacheTags: { purge: httpPurger({ url: 'http://127.0.0.1:6081/' }) } });
 */
export interface CacheTagOptions {
  /** The response header listing the tags, separated by spaces (default `xkey`; `Surrogate-Key` for Fastly). */
  header?: string;
  /** Called after every successful write with the tags it changed (none: answers are only tagged). */
  purge?: CachePurge;
}

/** The option after defaults. */
export interface CacheTagPolicy {
  readonly header: string;
  readonly purge: CachePurge | undefined;
}

/** The tag of every search page: a write to any item may change which members match. */
export const SEARCH_TAG = 'search';

// RFC 9110 section 5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Validates the option (a TypeError for misuse); undefined when off.
 *
 * @example
 * resolveCacheTags(true)?.header; // 'xkey'
 */
export function resolveCacheTags(options: CacheTagOptions | boolean | undefined): CacheTagPolicy | undefined {
  if (options === undefined || options === false) return undefined;
  const given = options === true ? {} : options;
  const header = (given.header ?? 'xkey').toLowerCase();
  if (!TOKEN.test(header)) throw new TypeError('createService: cacheTags.header must be a header field name');
  if (given.purge !== undefined && typeof given.purge !== 'function') throw new TypeError('createService: cacheTags.purge must be a function');
  return { header, purge: given.purge };
}

/**
 * The tag of an item, from its key (`<type>/<id>`, see `itemKey`): `<type>-<id>`. An id is one URL
 * path segment its type's schema accepts; the characters a field value may not hold (space, comma) are
 * percent-encoded, so no tag holds a separator.
 *
 * @example
 * itemTag('player/alice'); // 'player-alice'
 */
export function itemTag(key: string): string {
  const slash = key.indexOf('/');
  const id = key.slice(slash + 1);
  return `${key.slice(0, slash)}-${pathSegment(id)}`;
}

/**
 * The header value of an answer showing the items `keys` (and of a search page when `search`).
 *
 * @example
 * tagsValue(['player/alice', 'player/bob'], false); // 'player-alice player-bob'
 */
export function tagsValue(keys: readonly string[], search: boolean): string {
  let value = search ? SEARCH_TAG : '';
  for (const key of keys) value = value === '' ? itemTag(key) : `${value} ${itemTag(key)}`;
  return value;
}

/**
 * A purge that sends one HTTP request per write to a cache: by default `PURGE {url}` with the tags,
 * space-separated, in `xkey-purge` (the VCL of docs/caching.md hands them to `xkey.purge`). A purge
 * that fails or takes longer than `timeoutMs` (default 1000) is logged and the write is answered: the
 * tagged answers then live until their max-age.
 *
 * @example
 * const purge = httpPurger({ url: 'http://127.0.0.1:6081/' });
 * const fastly = httpPurger({ url: 'https://api.fastly.com/service/ID/purge', method: 'POST', header: 'Surrogate-Key', headers: { 'Fastly-Key': KEY } });
 */
export function httpPurger(options: { url: string; method?: string; header?: string; headers?: Record<string, string>; timeoutMs?: number }): CachePurge {
  const { url, method = 'PURGE', header = 'xkey-purge', headers = {}, timeoutMs = 1000 } = options;
  if (!/^https?:\/\//.test(url)) throw new TypeError('httpPurger: url must be an absolute http(s) URL');
  return async (tags) => {
    if (tags.length === 0) return;
    try {
      const res = await fetch(url, { method, headers: { ...headers, [header]: tags.join(' ') }, signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      if (!res.ok) console.error(`player-hypermedia: purging ${tags.join(' ')} at ${url} answered ${res.status}`);
    } catch (error) {
      console.error(`player-hypermedia: purging ${tags.join(' ')} at ${url} failed: ${(error as Error).message}`);
    }
  };
}

/** The methods that change something. */
/**
 * The methods whose success purges shared caches (`purgeAfterWrite`).
 *
 * @example
 * WRITES.has('PATCH'); // true
 */
export const WRITES: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * After a successful write (2xx) to the item `key` (`<type>/<id>`), purges what it changed: the item,
 * the pages that list or embed it (tagged with it), and every search page. A purge that throws is
 * logged; the write stands. Anything else (a read, a failure, a route of no item) purges nothing.
 *
 * @example
 * await purgeAfterWrite(purge, 'PATCH', 200, 'player/alice'); // purge(['player-alice', 'search'])
 */
export async function purgeAfterWrite(purge: CachePurge, method: string, status: number, key: string | undefined): Promise<void> {
  if (key === undefined || status < 200 || status >= 300 || !WRITES.has(method)) return;
  try {
    await purge([itemTag(key), SEARCH_TAG]);
  } catch (error) {
    console.error('player-hypermedia: the cacheTags purge failed', error);
  }
}
