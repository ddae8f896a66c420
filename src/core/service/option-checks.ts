// Misconfiguration found when a service is created, not at its first request: option names, the store,
// the hooks, the base URL. Each failure is a TypeError naming the option (docs/errors.md lists them).

/** The option names `createService` takes (ServiceOptions). */
export const SERVICE_OPTION_NAMES: readonly string[] = [
  'api', 'baseUrl', 'store', 'pageSize', 'extensions', 'cors', 'compression', 'metrics', 'health', 'searchCountLimit',
  'representations', 'cache', 'authenticate', 'maxBodyBytes', 'maxBodyDepth', 'requireIfMatch', 'versions',
  'gracePeriodDays', 'now', 'trustProxy', 'bodyCacheBytes', 'memoizeAnswers', 'answerMemoBytes', 'rateLimit', 'cacheTags',
];

/** The methods every store has (the Store contract), and the optional ones that must be functions when present. */
const STORE_METHODS = ['get', 'put', 'delete', 'list', 'search', 'createMember', 'addMember', 'removeMember'] as const;
const OPTIONAL_STORE_METHODS = ['changeMembers', 'getMedia', 'putMedia', 'ping', 'watch'] as const;

/**
 * Throws a TypeError for an option name that is not one of `known`, with the closest known name when
 * one is near (`pagesize` -> `pageSize`).
 *
 * @example
 * checkOptionNames({ pagesize: 20 }, SERVICE_OPTION_NAMES, 'createService'); // TypeError: ... did you mean "pageSize"?
 */
export function checkOptionNames(options: object, known: readonly string[], who: string): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const near = closest(name, known);
    throw new TypeError(`${who}: unknown option "${name}"${near ? `; did you mean "${near}"?` : ''} (the options are listed in docs/api.md)`);
  }
}

/**
 * Checks the options whose mistakes would otherwise surface at a request: the store's methods, the
 * hooks, the flags, and a base URL with parts a link cannot carry.
 *
 * @example
 * checkServiceOptions({ api, baseUrl: 'https://x.test', store: {} }); // TypeError: createService: options.store is missing get(), ...
 */
export function checkServiceOptions(options: Readonly<Record<string, unknown>>, who = 'createService'): void {
  checkStore(options.store, who);
  for (const hook of ['authenticate', 'now'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') throw new TypeError(`${who}: options.${hook} must be a function, not ${describe(options[hook])}`);
  }
  for (const flag of ['health', 'requireIfMatch', 'memoizeAnswers'] as const) {
    if (options[flag] !== undefined && typeof options[flag] !== 'boolean') throw new TypeError(`${who}: options.${flag} must be true or false, not ${describe(options[flag])}`);
  }
  if (options.metrics !== undefined && typeof options.metrics !== 'boolean' && options.metrics !== 'authenticated') {
    throw new TypeError(`${who}: options.metrics must be true, false or 'authenticated', not ${describe(options.metrics)}`);
  }
  if (options.representations !== undefined && !Array.isArray(options.representations)) throw new TypeError(`${who}: options.representations must be an array`);
  if (typeof options.baseUrl === 'string') checkBaseUrl(options.baseUrl, who);
}

/**
 * A base URL is where every link starts: credentials would be published in every answer, and a query
 * or a fragment cannot be followed by a path, so each is refused rather than dropped.
 */
function checkBaseUrl(baseUrl: string, who: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`${who}: options.baseUrl "${baseUrl}" is not an absolute URL`);
  }
  if (url.username !== '' || url.password !== '') throw new TypeError(`${who}: options.baseUrl must not carry credentials (user:password@): they would appear in every link`);
  if (url.search !== '' || baseUrl.includes('?')) throw new TypeError(`${who}: options.baseUrl must not have a query ("${url.search}"): links append paths to it`);
  if (url.hash !== '' || baseUrl.includes('#')) throw new TypeError(`${who}: options.baseUrl must not have a fragment ("${url.hash}"): links append paths to it`);
}

function checkStore(store: unknown, who: string): void {
  if (store === undefined) return;
  if (store === null || typeof store !== 'object') throw new TypeError(`${who}: options.store must be a store object (MemoryStore, PostgresStore or your own), not ${describe(store)}`);
  const methods = store as Record<string, unknown>;
  const missing = STORE_METHODS.filter((m) => typeof methods[m] !== 'function');
  if (missing.length) throw new TypeError(`${who}: options.store is missing ${missing.map((m) => `${m}()`).join(', ')} (the Store contract: docs/stores.md)`);
  const wrong = OPTIONAL_STORE_METHODS.filter((m) => methods[m] !== undefined && typeof methods[m] !== 'function');
  if (wrong.length) throw new TypeError(`${who}: options.store has ${wrong.join(', ')} that ${wrong.length === 1 ? 'is not a function' : 'are not functions'}`);
}

/** The known name nearest to `name`: the same but for case, or at most two edits away (Levenshtein). */
function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameButCase = known.find((k) => k.toLowerCase() === lower);
  if (sameButCase) return sameButCase;
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = editDistance(lower, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string "${value.slice(0, 40)}"` : `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}
