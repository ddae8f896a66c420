// IP addresses as a rate limit counts clients: parsed (RFC 791 dotted quads, RFC 4291 section 2.2 text
// forms), IPv4-mapped IPv6 as IPv4, other IPv6 by their /64; anything else is not an address.

/** An IPv4 address, dotted quad, four decimal octets (RFC 791; no leading zeros, which some read as octal). */
function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const octets: number[] = [];
  for (const part of parts) {
    if (!/^(?:0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    octets.push(n);
  }
  return octets;
}

/**
 * An IPv6 address in any text form of RFC 4291 section 2.2 (full, `::`-compressed, with an embedded
 * dotted quad in its last 32 bits), a zone (`%eth0`, RFC 6874) dropped: its eight 16-bit groups.
 */
function parseIpv6(text: string): number[] | undefined {
  const zone = text.indexOf('%');
  let a = zone === -1 ? text : text.slice(0, zone);
  if (a.length > 45 || !/^[0-9a-fA-F:.]+$/.test(a)) return undefined;
  let tail: number[] = [];
  if (a.includes('.')) {
    const lastColon = a.lastIndexOf(':');
    const quad = parseIpv4(a.slice(lastColon + 1));
    if (!quad) return undefined;
    tail = [(quad[0]! << 8) | quad[1]!, (quad[2]! << 8) | quad[3]!];
    a = a.slice(0, lastColon);
    // '::1.2.3.4' leaves ':' and '1::1.2.3.4' leaves '1:': the '::' is whole again.
    if (a.endsWith(':')) a += ':';
  }
  const halves = a.split('::');
  if (halves.length > 2) return undefined;
  const group = (g: string) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN);
  const head = halves[0] ? halves[0].split(':').map(group) : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':').map(group) : [];
  const given = head.length + rest.length + tail.length;
  if (head.some(Number.isNaN) || rest.some(Number.isNaN)) return undefined;
  if (halves.length === 2) {
    if (given > 7) return undefined;
    return [...head, ...Array<number>(8 - given).fill(0), ...rest, ...tail];
  }
  return given === 8 ? [...head, ...tail] : undefined;
}

/**
 * The counting bucket of an address as proxies and sockets write it: brackets and a port removed (RFC
 * 7239 section 6 node syntax, `[2001:db8::1]:4711`, `192.0.2.1:80`), quotes removed; an IPv4 address as
 * itself; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, `::ffff:c000:201`, RFC 4291 section 2.5.5.2)
 * as its IPv4 address; any other IPv6 address by its first 64 bits, one subscriber's network whose
 * addresses it may rotate at will (`2001:db8:0:0::/64`). Undefined for anything that is not an IP
 * address (RFC 7239's `unknown` and obfuscated identifiers included): a key never holds what a client
 * wrote, and its size is bounded.
 *
 * @example
 * addressBucket('[2001:db8::7]:4711'); // '2001:db8:0:0::/64'
 * addressBucket('::ffff:c000:201');    // '192.0.2.1'
 * addressBucket('unknown');            // undefined
 */
export function addressBucket(address: string): string | undefined {
  let a = address.trim();
  if (a.length > 64) return undefined;
  if (a.startsWith('"') && a.endsWith('"') && a.length >= 2) a = a.slice(1, -1);
  const bracket = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(a);
  if (bracket) a = bracket[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(a)) a = a.slice(0, a.indexOf(':'));
  if (!a.includes(':')) return parseIpv4(a)?.join('.');
  const groups = parseIpv6(a);
  if (!groups) return undefined;
  // RFC 4291 section 2.5.5.2: ::ffff:a.b.c.d is an IPv4 host.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}
