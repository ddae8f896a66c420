// The Host header field's syntax (RFC 9110 section 7.2, RFC 3986 section 3.2.2), checked before a URL is built from it.

/**
 * `uri-host [ ":" port ]` (RFC 9110 section 7.2) with RFC 3986's host: an IP literal in brackets
 * (IPv6 or IPvFuture, section 3.2.2), or a reg-name (unreserved, percent-encoded and sub-delims
 * characters; an IPv4 address is one), then an optional port of digits (section 3.2.3). Nothing that
 * could end an authority (`/ ? # @ \`, spaces, controls) can pass.
 */
const HOST_FIELD = /^(?:\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+)\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

/**
 * Whether a Host field value is valid: `uri-host [ ":" port ]`. RFC 9112 section 3.2: a request with an
 * invalid Host, or with more than one Host line (which read together hold ", "), is 400. An empty value
 * is valid (a target URI without an authority), but names no host.
 *
 * @example
 * isValidHost('api.example.com:8080'); // true
 * isValidHost('127.0.0.1:3000/player/bob?'); // false
 */
export function isValidHost(value: string): boolean {
  // A server sees the same one or two Host values on nearly every request: the last valid one is remembered.
  if (value === lastValid) return true;
  const valid = value.length <= 1024 && HOST_FIELD.test(value);
  if (valid) lastValid = value;
  return valid;
}

let lastValid = '';
