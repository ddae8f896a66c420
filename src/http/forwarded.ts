// The per-request base URL behind a gateway: Forwarded (RFC 7239) and X-Forwarded-Proto/Host/Prefix.
import type { HeaderReader } from './request-head.js';
import { HttpError } from './problem.js';

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
 * Reads the forwarding headers of a request. `Forwarded` (RFC 7239) wins over `X-Forwarded-Proto` and
 * `X-Forwarded-Host` for what it names; of a list, the first (client-side) entry counts.
 * `X-Forwarded-Prefix` is the path prefix the gateway removed. Malformed values are 400.
 *
 * @example
 * readForwarded(new Headers({ 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'games.example.com' }));
 * // { proto: 'https', host: 'games.example.com' }
 */
export function readForwarded(headers: HeaderReader): ForwardedOrigin {
  const origin: ForwardedOrigin = {};
  const forwarded = headers.get('forwarded');
  const params = forwarded === null ? {} : parseForwarded(forwarded);
  if (params.proto !== undefined) origin.proto = checkProto('Forwarded', params.proto);
  if (params.host !== undefined) origin.host = checkHost('Forwarded', params.host);
  const xProto = firstListValue(headers.get('x-forwarded-proto'));
  if (origin.proto === undefined && xProto !== undefined) origin.proto = checkProto('X-Forwarded-Proto', xProto);
  const xHost = firstListValue(headers.get('x-forwarded-host'));
  if (origin.host === undefined && xHost !== undefined) origin.host = checkHost('X-Forwarded-Host', xHost);
  const prefix = firstListValue(headers.get('x-forwarded-prefix'));
  if (prefix !== undefined) origin.prefix = checkPrefix(prefix);
  return origin;
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
export function forwardedBaseUrl(headers: HeaderReader, configuredBaseUrl: string): string {
  const seen = readForwarded(headers);
  if (seen.proto === undefined && seen.host === undefined && seen.prefix === undefined) return configuredBaseUrl;
  const base = new URL(configuredBaseUrl);
  const proto = seen.proto ?? base.protocol.slice(0, -1);
  const url = new URL(`${proto}://${seen.host ?? base.host}`);
  return `${url.origin}${seen.prefix ?? ''}${base.pathname.replace(/\/+$/, '')}`;
}
