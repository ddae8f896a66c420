// API versioning: /api/v{major} prefixes, the Api-Version header, deprecation and sunset of majors.
import { httpDate } from '../http/date.js';
import { addField, type Fields } from '../respond/fields.js';
import type { RequestContext } from './context.js';
import { HttpError } from '../http/problem.js';

/**
 * The request and response header naming an API version as `major.minor` (docs/versioning.md).
 *
 * @example
 * fetch(url, { headers: { [API_VERSION_HEADER]: '1.0' } });
 */
export const API_VERSION_HEADER = 'Api-Version';

/**
 * Default grace period between a major's deprecation and its sunset, in days (docs/versioning.md).
 *
 * @example
 * DEFAULT_GRACE_PERIOD_DAYS; // 180
 */
export const DEFAULT_GRACE_PERIOD_DAYS = 180;

const DAY_MS = 86_400_000;

/**
 * One API version, as configured. `status: 'deprecated'` needs `deprecatedAt`; `sunsetAt` defaults to
 * `deprecatedAt` plus the grace period. Dates are Date objects, epoch milliseconds or Date.parse strings.
 *
 * @example
 * const versions: ApiVersionOptions[] = [
 *   { major: 1, minor: 0, patch: 1, status: 'deprecated', deprecatedAt: '2026-01-01T00:00:00Z' },
 *   { major: 2, minor: 0 },
 * ];
 */
export interface ApiVersionOptions {
  major: number;
  minor?: number;
  patch?: number;
  status?: 'current' | 'deprecated';
  deprecatedAt?: Date | number | string;
  sunsetAt?: Date | number | string;
}

/**
 * A configured version after validation. `label` is `major.minor` (the Api-Version value), `full`
 * adds the patch number (the Swagger info.version). Dates are epoch milliseconds.
 *
 * @example
 * const v: ApiVersion = { major: 1, minor: 0, patch: 1, label: '1.0', full: '1.0.1' };
 */
export interface ApiVersion {
  major: number;
  minor: number;
  patch: number;
  label: string;
  full: string;
  deprecatedAt?: number;
  sunsetAt?: number;
}

/**
 * The resolved versioning configuration: every version, the latest (highest current one), and the
 * version a `/api/v{major}` prefix serves (the highest minor of that major).
 *
 * @example
 * resolveVersions(undefined).latest.full; // '1.0.1'
 */
export interface VersionPolicy {
  versions: readonly ApiVersion[];
  latest: ApiVersion;
  byMajor: ReadonlyMap<number, ApiVersion>;
}

/**
 * The versions served when none are given (`createService` serves the API's declared version): one,
 * 1.0.1.
 *
 * @example
 * DEFAULT_VERSIONS[0]; // { major: 1, minor: 0, patch: 1 }
 */
export const DEFAULT_VERSIONS: readonly ApiVersionOptions[] = [{ major: 1, minor: 0, patch: 1 }];

/**
 * Validates the `versions` option (TypeError for misuse) and orders it.
 *
 * @example
 * const policy = resolveVersions([{ major: 1 }, { major: 2 }]);
 * policy.latest.label; // '2.0'
 */
export function resolveVersions(options: readonly ApiVersionOptions[] | undefined, gracePeriodDays = DEFAULT_GRACE_PERIOD_DAYS): VersionPolicy {
  const list = options ?? DEFAULT_VERSIONS;
  if (!Array.isArray(list) || list.length === 0) throw new TypeError('createService: versions must list at least one version');
  if (!(gracePeriodDays >= 0)) throw new TypeError('createService: gracePeriodDays must be a non-negative number');
  const versions = list.map((v) => resolveOne(v, gracePeriodDays)).sort((a, b) => a.major - b.major || a.minor - b.minor);
  const byMajor = new Map<number, ApiVersion>();
  for (let i = 0; i < versions.length; i++) {
    if (i > 0 && versions[i]!.label === versions[i - 1]!.label) throw new TypeError(`createService: version ${versions[i]!.label} is listed twice`);
    byMajor.set(versions[i]!.major, versions[i]!);
  }
  const current = versions.filter((v) => v.deprecatedAt === undefined);
  const candidates = current.length ? current : versions;
  return { versions, latest: candidates[candidates.length - 1]!, byMajor };
}

function resolveOne(v: ApiVersionOptions, graceDays: number): ApiVersion {
  const int = (n: unknown, name: string) => {
    if (n !== undefined && (!Number.isInteger(n) || (n as number) < 0)) throw new TypeError(`createService: version ${name} must be a non-negative integer`);
    return (n as number | undefined) ?? 0;
  };
  if (v?.major === undefined) throw new TypeError('createService: every version needs a major number');
  const major = int(v.major, 'major');
  const minor = int(v.minor, 'minor');
  const patch = int(v.patch, 'patch');
  const version: ApiVersion = { major, minor, patch, label: `${major}.${minor}`, full: `${major}.${minor}.${patch}` };
  if (v.status === 'deprecated') {
    const deprecatedAt = toTime(v.deprecatedAt, 'deprecatedAt');
    if (deprecatedAt === undefined) throw new TypeError(`createService: deprecated version ${version.label} needs deprecatedAt`);
    version.deprecatedAt = deprecatedAt;
    version.sunsetAt = toTime(v.sunsetAt, 'sunsetAt') ?? deprecatedAt + graceDays * DAY_MS;
  } else if (v.status !== undefined && v.status !== 'current') {
    throw new TypeError(`createService: version status must be 'current' or 'deprecated'`);
  }
  return version;
}

function toTime(value: Date | number | string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const t = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(t)) throw new TypeError(`createService: version ${name} is not a valid date`);
  return t;
}

/**
 * Whether a version is past its sunset at `now`: its URLs redirect and the header no longer selects it.
 *
 * @example
 * isRetired(policy.latest, Date.now()); // false
 */
export function isRetired(version: ApiVersion, now: number): boolean {
  return version.sunsetAt !== undefined && now >= version.sunsetAt;
}

/**
 * What versioning decided for a request: serve `version` at the unprefixed `path` (with `prefix`, the
 * `/api/vN` segment links must keep, and `etagScope`, set when a header chose a version the URL alone
 * would not serve), or redirect (308) to the canonical non-versioned URL.
 *
 * @example
 * const s = selectVersion(policy, '/api/v1/player/alice', null, Date.now());
 * if (s.kind === 'serve') console.log(s.version.label, s.path); // '1.0' '/player/alice'
 */
export type VersionSelection =
  | { kind: 'serve'; version: ApiVersion; path: string; prefix: string; etagScope?: string }
  | { kind: 'redirect'; path: string };

/** The Api-Version field's name as answers hold their fields (lower case). */
export const API_VERSION_FIELD = API_VERSION_HEADER.toLowerCase();
const PREFIX = /^\/api\/v(0|[1-9][0-9]{0,5})(?=\/|$)/;
const HEADER_VALUE = /^\s*(0|[1-9][0-9]{0,5})(?:\.(0|[1-9][0-9]{0,5}))?\s*$/;

/**
 * Chooses the version for a request path (relative to the mount point) and its Api-Version header.
 * `/api/v{major}` serves that major (404 for an unknown one; a 308 redirect after its sunset); the
 * unprefixed path serves the latest version, or the one the header names (`major.minor` or `major`;
 * 400 listing the supported versions when it names none of them).
 *
 * @example
 * selectVersion(policy, '/player/alice', '1.0', Date.now()); // { kind: 'serve', version: 1.0, ... }
 */
export function selectVersion(policy: VersionPolicy, path: string, header: string | null, now: number): VersionSelection {
  const prefixed = PREFIX.exec(path);
  const rest = prefixed ? path.slice(prefixed[0].length) : path;
  let base: ApiVersion = policy.latest;
  let prefix = '';
  if (prefixed) {
    const major = Number(prefixed[1]);
    const found = policy.byMajor.get(major);
    if (!found) throw new HttpError(404, `There is no API version ${major}; versions: ${supported(policy, now).join(', ')}.`);
    // RFC 8594 section 1 and docs/versioning.md: after the sunset, versioned URLs redirect to the canonical one.
    if (isRetired(found, now)) return { kind: 'redirect', path: rest };
    base = found;
    prefix = prefixed[0];
  }
  let version = base;
  if (header !== null) {
    const chosen = fromHeader(policy, header, now);
    if (prefixed && chosen.major !== base.major) {
      throw new HttpError(400, `${API_VERSION_HEADER} ${header.trim()} contradicts the version ${base.major} of the URL.`, {
        extensions: { supported: supported(policy, now) },
      });
    }
    version = chosen;
  }
  // Links stay within the major the client asked for: a header choosing an older major gets its prefix.
  if (!prefixed && version.major !== policy.latest.major) prefix = `/api/v${version.major}`;
  const selection: VersionSelection = { kind: 'serve', version, path: rest, prefix };
  const urlServes = prefix ? policy.byMajor.get(version.major)! : policy.latest;
  if (urlServes !== version) selection.etagScope = version.label;
  return selection;
}

function fromHeader(policy: VersionPolicy, header: string, now: number): ApiVersion {
  const m = HEADER_VALUE.exec(header);
  const major = m ? Number(m[1]) : NaN;
  const found =
    m?.[2] === undefined ? policy.byMajor.get(major) : policy.versions.find((v) => v.major === major && v.minor === Number(m[2]));
  if (!found || isRetired(found, now)) {
    const list = supported(policy, now);
    throw new HttpError(400, `${API_VERSION_HEADER} "${header.trim()}" is not a supported version; supported: ${list.join(', ')}.`, {
      extensions: { supported: list },
    });
  }
  return found;
}

/**
 * The `major.minor` labels a client may ask for at `now` (not past their sunset).
 *
 * @example
 * supported(policy, Date.now()); // ['1.0', '2.0']
 */
export function supported(policy: VersionPolicy, now: number): string[] {
  return policy.versions.filter((v) => !isRetired(v, now)).map((v) => v.label);
}

/**
 * The fields announcing a deprecated version: `Deprecation` (RFC 9745 section 2, a structured-field
 * Date `@<unix seconds>`), `Sunset` (RFC 8594 section 3, an HTTP-date) and a `successor-version` link
 * (RFC 5829) to the canonical URL. Empty for a current version.
 *
 * @example
 * deprecationFields(v1, 'https://x.test/player/alice');
 * // Map { 'deprecation' => '@1767225600', 'sunset' => 'Tue, 30 Jun 2026 00:00:00 GMT', 'link' => '<https://x.test/player/alice>; rel="successor-version"' }
 */
export function deprecationFields(version: ApiVersion, successorUrl: string): Fields {
  if (version.deprecatedAt === undefined) return new Map();
  return new Map([
    ['deprecation', `@${Math.floor(version.deprecatedAt / 1000)}`],
    ['sunset', httpDate(version.sunsetAt!)],
    ['link', `<${successorUrl}>; rel="successor-version"`],
  ]);
}

/**
 * Applies the chosen version to the request: the Api-Version answer, deprecation headers, the link base.
 * `canonical` makes the request's URL without a version; it is called only for a deprecated version.
 *
 * @example
 * const selection = selectVersion(config.versioning, '/api/v1/player/alice', null, Date.now());
 * if (selection.kind === 'serve') useVersion(ctx, selection, () => `${ctx.baseUrl}${selection.path}`);
 */
export function useVersion(ctx: RequestContext, selection: VersionSelection & { kind: 'serve' }, canonical: () => string): void {
  const version = selection.version;
  ctx.apiVersion = version;
  ctx.responseHeaders.set(API_VERSION_FIELD, version.label);
  if (version.deprecatedAt !== undefined) {
    for (const [name, value] of deprecationFields(version, canonical())) addField(ctx.responseHeaders, name, value);
  }
  ctx.baseUrl += selection.prefix;
  ctx.versionPrefix = selection.prefix;
  // Part of every ETag: the body of a header-chosen version may differ from the URL's own (ctx.variant).
  if (selection.etagScope !== undefined) ctx.variant = `api-version=${selection.etagScope}`;
}
