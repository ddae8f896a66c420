// Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): the key of a request and its fingerprint.
import { HttpError } from './problem.js';
import type { RequestHead } from './request-head.js';

/**
 * The Idempotency-Key of a request, or undefined. The draft defines the value as a Structured Field
 * String (quoted); a bare token is accepted too. 1 to 255 visible ASCII characters, else 400.
 *
 * @example
 * idempotencyKeyOf(new Request(url, { method: 'POST', headers: { 'Idempotency-Key': '"8e03978e"' } })); // '8e03978e'
 */
export function idempotencyKeyOf(request: Pick<RequestHead, 'headers'>): string | undefined {
  const raw = request.headers.get('idempotency-key');
  if (raw === null) return undefined;
  let key = raw.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) key = key.slice(1, -1);
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new HttpError(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters.', { errors: [{ parameter: 'Idempotency-Key', detail: 'invalid key' }] });
  }
  return key;
}

/**
 * The fingerprint of a request body: SHA-256 (Web Crypto) of its media type and text, hex-encoded. The
 * same key with another fingerprint is a different request (422).
 *
 * @example
 * await requestFingerprint('application/json', '{"alternateName":"bobby"}'); // '3f0a...' (64 hex digits)
 */
export async function requestFingerprint(mediaType: string, text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${mediaType}\n${text}`));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
