// Behind trusted proxies: the per-request base URL and the client's address, from Forwarded (RFC 7239)
// or X-Forwarded-For/Proto/Host/Prefix, whichever family the deployment names.
import type { HeaderReader } from './request-head.js';
import { HttpError } from './problem.js';

/**
 * What the proxies in front of the service are trusted for (the `trustProxy` option): which family of
 * forwarding fields they set, and how many of them append to the client's address list. Fields of
 * the other family are ignored: a client could write them, and the proxies would pass them on.
 *
 * @example
 * const behindNginx: TrustProxyOptions = { fields: 'x-forwarded', hops: 1 };
 * const behindCdnAndNginx: TrustProxyOptions = { fields: 'x-forwarded', hops: 2 };
 */
export interface TrustProxyOptions {
  /**
   * `'x-forwarded'`: X-Forwarded-For, -Proto, -Host and -Prefix (nginx, HAProxy, AWS ALB, most CDNs);
   * `'forwarded'`: RFC 7239 Forwarded (and X-Forwarded-Prefix, which it has no parameter for).
   */
  fields: 'x-forwarded' | 'forwarded';
  /**
   * How many proxies in front of the service each append the address they got the request from
   * (default 1): the client's address is the element this many from the end of the list. Elements
   * before it were written by the client and prove nothing.
   */
  hops?: number;
}

/** `trustProxy` resolved: the family and the hop count. */
export interface TrustProxyPolicy {
  readonly fields: 'x-forwarded' | 'forwarded';
  readonly hops: number;
}

/**
 * Resolves the `trustProxy` option: `true` is one nginx-style proxy (`x-forwarded`, 1 hop), `false` or
 * absent is off; anything else is a TypeError naming what is wrong.
 *
 * @example
 * resolveTrustProxy(true); // { fields: 'x-forwarded', hops: 1 }
 */
export function resolveTrustProxy(option: boolean | TrustProxyOptions | undefined): TrustProxyPolicy | false {
  if (option === undefined || option === false) return false;
  if (option === true) return { fields: 'x-forwarded', hops: 1 };
  if (typeof option !== 'object' || option === null || (option.fields !== 'x-forwarded' && option.fields !== 'forwarded')) {
    throw new TypeError("createService: trustProxy must be true, false or { fields: 'x-forwarded' | 'forwarded', hops? }");
  }
  const hops = option.hops ?? 1;
  if (!Number.isSafeInteger(hops) || hops < 1 || hops > 16) throw new TypeError('createService: trustProxy.hops must be an integer from 1 to 16');
  return { fields: option.fields, hops };
}

/**
 * The `trustProxy` option from the environment of the example servers and `serve`: TRUST_PROXY unset,
 * empty or `0` is off; `1` is `true` (one X-Forwarded proxy); `x-forwarded` or `forwarded`, optionally
 * with `:hops` (`x-forwarded:2`), names the family and hop count.
 *
 * @example
 * trustProxyOptionFromEnv({ TRUST_PROXY: 'x-forwarded:2' }); // { fields: 'x-forwarded', hops: 2 }
 */
export function trustProxyOptionFromEnv(env: Readonly<Record<string, string | undefined>>): boolean | TrustProxyOptions {
  const given = env.TRUST_PROXY?.trim().toLowerCase() ?? '';
  if (given === '' || given === '0') return false;
  if (given === '1') return true;
  const m = /^(x-forwarded|forwarded)(?::(\d+))?$/.exec(given);
  if (!m) throw new TypeError(`TRUST_PROXY "${env.TRUST_PROXY}" is not 1, x-forwarded[:hops] or forwarded[:hops]`);
  return { fields: m[1] as TrustProxyOptions['fields'], hops: m[2] === undefined ? 1 : Number(m[2]) };
}

/**
 * What the forwarding headers of one request say about the URL the client used. Each member is
 * present only when a header named it.
 *
 * @example
 * const seen: ForwardedOrigin = { proto: 'https', host: 'games.example.com', prefix: '/v2' };
 */
export interface ForwardedOrigin {
  proto?: 'http' | 'https';
  host?: string;
  prefix?: string;
}

// RFC 7230 section 2.7.1 uri-host [":" port]: a reg-name (unreserved / pct-encoded / sub-delims,
// narrowed here to letters, digits, '-', '.', '_' and '~'), an IPv4 address, or an IP literal in brackets.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;
// RFC 3986 section 3.3 path-absolute segments, without dot segments, queries or fragments.
const PREFIX_SEGMENT = /^(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2})+$/;
// RFC 7230 section 3.2.6: token and quoted-string, as used by RFC 7239 section 4.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Gateways often send `host=a.test:8080` or `for=[::1]` unquoted although ':' and '[]' are not token
// characters; we accept them (the host is validated on its own below).
const LENIENT_VALUE = /^[!#$%&'*+.^_`|~0-9A-Za-z:[\]-]+$/;

function invalid(header: string, detail: string): HttpError {
  return new HttpError(400, `The ${header} header is not valid: ${detail}.`, {
    errors: [{ parameter: header, detail }],
  });
}

/**
 * Splits a header value on `sep` outside quoted strings (RFC 7230 section 3.2.6).
 *
 * @example
 * splitOutsideQuotes('a="x,y", b', ','); // ['a="x,y"', ' b']
 */
export function splitOutsideQuotes(value: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (quoted && ch === '\\') {
      current += ch + (value[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  if (quoted) throw invalid('Forwarded', 'a quoted string is not closed');
  parts.push(current);
  return parts;
}

/**
 * Parses the first (client-side) element of a Forwarded field value into its parameters
 * (RFC 7239 section 4: `forwarded-element = [ forwarded-pair ] *( ";" [ forwarded-pair ] )`).
 * Parameter names are case-insensitive; quoted values are unquoted. A malformed element is 400.
 *
 * @example
 * parseForwarded('for=192.0.2.60;proto=https;host="api.example.com", for=10.0.0.1');
 * // { for: '192.0.2.60', proto: 'https', host: 'api.example.com' }
 */
export function parseForwarded(value: string): Record<string, string> {
  const first = splitOutsideQuotes(value, ',')[0]!;
  const params: Record<string, string> = {};
  for (const pair of splitOutsideQuotes(first, ';')) {
    const text = pair.trim();
    if (text === '') continue;
    const eq = text.indexOf('=');
    const name = eq < 0 ? text : text.slice(0, eq);
    const raw = eq < 0 ? '' : text.slice(eq + 1);
    if (!TOKEN.test(name)) throw invalid('Forwarded', `"${name}" is not a parameter name`);
    let parsed: string;
    if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) parsed = raw.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (LENIENT_VALUE.test(raw)) parsed = raw;
    else throw invalid('Forwarded', `the value of "${name}" is neither a token nor a quoted string`);
    const key = name.toLowerCase();
    // RFC 7239 section 4: each parameter must not occur more than once per element.
    if (key in params) throw invalid('Forwarded', `"${key}" occurs twice in one element`);
    params[key] = parsed;
  }
  return params;
}

function firstListValue(value: string | null): string | undefined {
  if (value === null) return undefined;
  const first = value.split(',')[0]!.trim();
  return first === '' ? undefined : first;
}

function checkProto(header: string, value: string): 'http' | 'https' {
  const proto = value.toLowerCase();
  if (proto !== 'http' && proto !== 'https') throw invalid(header, `"${value}" is not http or https`);
  return proto;
}

function checkHost(header: string, value: string): string {
  const m = HOST.exec(value);
  if (!m || (m[1] !== undefined && (Number(m[1]) < 1 || Number(m[1]) > 65535))) throw invalid(header, `"${value}" is not a host[:port]`);
  return value.toLowerCase();
}

function checkPrefix(value: string): string {
  const prefix = value.replace(/\/+$/, '');
  if (prefix === '') return '';
  const segments = prefix.split('/');
  const ok = prefix.startsWith('/') && segments.slice(1).every((s) => PREFIX_SEGMENT.test(s) && s !== '.' && s !== '..');
  if (!ok) throw invalid('X-Forwarded-Prefix', `"${value}" is not an absolute path without dot segments`);
  return prefix;
}

/**
 * Reads the forwarding headers of a request, of the family the deployment trusts: `Forwarded` (RFC
 * 7239) `proto` and `host`, or `X-Forwarded-Proto` and `X-Forwarded-Host`; of a list, the first
 * (client-side) entry counts. `X-Forwarded-Prefix` is the path prefix the gateway removed (in both
 * families). Malformed values are 400.
 *
 * @example
 * readForwarded(new Headers({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'games.example.com' }));
 * // { proto: 'https', host: 'games.example.com' }
 */
export function readForwarded(headers: HeaderReader, fields: TrustProxyPolicy['fields'] = 'x-forwarded'): ForwardedOrigin {
  const origin: ForwardedOrigin = {};
  if (fields === 'forwarded') {
    const forwarded = headers.get('forwarded');
    const params = forwarded === null ? {} : parseForwarded(forwarded);
    if (params.proto !== undefined) origin.proto = checkProto('Forwarded', params.proto);
    if (params.host !== undefined) origin.host = checkHost('Forwarded', params.host);
  } else {
    const xProto = firstListValue(headers.get('x-forwarded-proto'));
    if (xProto !== undefined) origin.proto = checkProto('X-Forwarded-Proto', xProto);
    const xHost = firstListValue(headers.get('x-forwarded-host'));
    if (xHost !== undefined) origin.host = checkHost('X-Forwarded-Host', xHost);
  }
  const prefix = firstListValue(headers.get('x-forwarded-prefix'));
  if (prefix !== undefined) origin.prefix = checkPrefix(prefix);
  return origin;
}

/**
 * The client's address as the trusted proxies report it: the element `hops` from the end of
 * X-Forwarded-For, or the `for=` of the Forwarded element `hops` from the end (RFC 7239 section 5.2);
 * with fewer elements than hops, the first. Undefined when the field is absent or unreadable. The
 * value is as written (a caller parses it: see `addressBucket`).
 *
 * @example
 * forwardedClient(new Headers({ 'X-Forwarded-For': 'spoofed, 203.0.113.7' }), { fields: 'x-forwarded', hops: 1 }); // '203.0.113.7'
 */
export function forwardedClient(headers: HeaderReader, trust: TrustProxyPolicy): string | undefined {
  if (trust.fields === 'x-forwarded') {
    const list = headers.get('x-forwarded-for');
    if (list === null) return undefined;
    const elements = list.split(',');
    return elements[Math.max(0, elements.length - trust.hops)]!.trim() || undefined;
  }
  const forwarded = headers.get('forwarded');
  if (forwarded === null) return undefined;
  try {
    const elements = splitOutsideQuotes(forwarded, ',');
    const element = elements[Math.max(0, elements.length - trust.hops)]!;
    for (const pair of splitOutsideQuotes(element, ';')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') return pair.slice(eq + 1).trim() || undefined;
    }
  } catch {
    // An unreadable Forwarded field tells nothing.
  }
  return undefined;
}

/**
 * The absolute base URL for the links of one request: the configured one, with the scheme, host and
 * path prefix the gateway reports put in place of the configured scheme and host, and the prefix put in
 * front of the configured path. A default port (80 for http, 443 for https) is dropped, as URL does.
 *
 * @example
 * forwardedBaseUrl(new Headers({ 'X-Forwarded-Host': 'games.example.com', 'X-Forwarded-Prefix': '/games' }),
 *   'http://10.0.0.5:3000/api'); // 'http://games.example.com/games/api'
 */
export function forwardedBaseUrl(headers: HeaderReader, configuredBaseUrl: string, fields: TrustProxyPolicy['fields'] = 'x-forwarded'): string {
  const seen = readForwarded(headers, fields);
  if (seen.proto === undefined && seen.host === undefined && seen.prefix === undefined) return configuredBaseUrl;
  const base = new URL(configuredBaseUrl);
  const proto = seen.proto ?? base.protocol.slice(0, -1);
  const url = new URL(`${proto}://${seen.host ?? base.host}`);
  return `${url.origin}${seen.prefix ?? ''}${base.pathname.replace(/\/+$/, '')}`;
}
