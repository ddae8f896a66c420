// The path and query of a request's absolute URL, read without a URL object when the WHATWG URL parser would change nothing.
import { eachPair } from './query-pairs.js';

/** Path characters the WHATWG URL parser keeps as they are in a special URL (not its path percent-encode set, not `\`). */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
/** Query characters it keeps as they are in a special URL (not its special-query percent-encode set). */
const PLAIN_QUERY = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;

/** Authorities (`host[:port]`) already parsed, and whether they make a valid http(s) URL without credentials. */
const authorities = new Map<string, boolean>();
/** A service sees a few Host values; a client inventing them only costs a parse each, as before. */
const MAX_AUTHORITIES = 32;

/**
 * The path and query of a request's absolute URL, as `URL` reads them (`pathname`, `search`,
 * `searchParams`), and the URL object itself when something asks for it. Most request targets hold
 * nothing the WHATWG URL parser would rewrite (no dot segments, nothing it percent-encodes, no
 * backslash): for those the path and query are read off the string, and no URL is parsed unless asked
 * for. Parsing one costs little alone (about 1 us in Node 20) but about 6 us inside a server answering
 * other requests between two parses (measured under bench/realistic's load (b)): the parser's code and
 * tables are no longer in the processor's caches. Anything else is parsed by `URL`.
 *
 * @example
 * const target = requestTarget('http://x.test/player/alice/friends?page=2');
 * target?.pathname; // '/player/alice/friends'
 * target?.searchParams.get('page'); // '2'
 */
export class RequestTarget {
  readonly pathname: string;
  /** `?` and the query, or '' when there is none or it is empty (as `URL.search`). */
  readonly search: string;
  readonly #href: string;
  #url: URL | undefined;
  #params: URLSearchParams | undefined;

  constructor(href: string, pathname: string, search: string, url?: URL) {
    this.#href = href;
    this.pathname = pathname;
    this.search = search;
    this.#url = url;
  }

  /** The query's name/value pairs (application/x-www-form-urlencoded parsing, as `URL.searchParams`). */
  get searchParams(): URLSearchParams {
    // The leading `?` is the one URLSearchParams drops: a query that itself starts with `?` keeps it, as in URL.
    return (this.#params ??= this.#url?.searchParams ?? new URLSearchParams(this.search));
  }

  /**
   * The values of the query parameter `name`, as `searchParams.getAll(name)` gives them. A query with
   * no `%` and no `+` decodes to itself, so it is read off the string, with no URLSearchParams built
   * (its parser costs a few microseconds inside a busy server, as the URL parser's does).
   *
   * @example
   * requestTarget('http://x.test/player/alice/friends?page=2')!.getAll('page'); // ['2']
   */
  getAll(name: string): string[] {
    const search = this.search;
    if (this.#params !== undefined || search.includes('%') || search.includes('+')) return this.searchParams.getAll(name);
    const values: string[] = [];
    eachPair(search, (pairName, value) => {
      if (pairName === name) values.push(value);
    });
    return values;
  }

  /**
   * Whether the query has the parameter `name` (`searchParams.has(name)`), read as `getAll` reads it.
   *
   * @example
   * requestTarget('http://x.test/player/alice/friends?page=2')!.has('search'); // false
   */
  has(name: string): boolean {
    return this.getAll(name).length > 0;
  }

  /** The request's URL as a `URL` object, parsed on first use. */
  get url(): URL {
    return (this.#url ??= new URL(this.#href));
  }
}

/**
 * The path and query of an absolute http(s) URL without credentials, or undefined when `href` is not
 * one (an adapter builds it from the Host field and the target, either of which may be malformed).
 * `requestTarget(href)` reads what `new URL(href)` would read.
 *
 * @example
 * requestTarget('http://x.test/a/../b')?.pathname; // '/b' (parsed by URL: a dot segment)
 * requestTarget('http://user:pw@x.test/'); // undefined
 */
export function requestTarget(href: string): RequestTarget | undefined {
  const start = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1;
  const slash = start < 0 ? -1 : href.indexOf('/', start);
  if (slash > start) {
    const authority = href.slice(start, slash);
    const query = href.indexOf('?', slash);
    const path = query < 0 ? href.slice(slash) : href.slice(slash, query);
    const search = query < 0 || query === href.length - 1 ? '' : href.slice(query);
    // A dot segment (`.`, `..`, `%2e` and their mixes) is resolved by the parser: any `/.` or `%2e` goes to it.
    if (plainAuthority(authority) && PLAIN_PATH.test(path) && !path.includes('/.') && !/%2e/i.test(path) && PLAIN_QUERY.test(search.slice(1))) {
      return new RequestTarget(href, path, search);
    }
  }
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  return new RequestTarget(href, url.pathname, url.search, url);
}

/** Whether `http://<authority>/` is a valid URL without credentials (RFC 9112 section 3.2: a Host has no userinfo). */
function plainAuthority(authority: string): boolean {
  let valid = authorities.get(authority);
  if (valid !== undefined) return valid;
  try {
    const url = new URL(`http://${authority}/`);
    // Nothing but the host and port: no userinfo, and no `?`, `#` or `\` the parser reads otherwise.
    valid = url.username === '' && url.password === '' && !/[?#\\@]/.test(authority);
  } catch {
    valid = false;
  }
  if (authorities.size >= MAX_AUTHORITIES) authorities.clear();
  authorities.set(authority, valid);
  return valid;
}
