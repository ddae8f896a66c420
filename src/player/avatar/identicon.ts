// Identicons: a deterministic 64x64 PNG per player id, for players without an avatar or an image URL.
import { hashString } from '../../core/respond/etag.js';
import { encodePng } from './png.js';

/**
 * Side of a generated identicon, in pixels.
 *
 * @example
 * IDENTICON_SIZE; // 64 (pixels on each side)
 */
export const IDENTICON_SIZE = 64;

/** Changes whenever the drawing changes, so that old ETags stop matching. */
const IDENTICON_GENERATION = '1';
const GRID = 5;
const CELL = 10;
const MARGIN = (IDENTICON_SIZE - GRID * CELL) / 2;
const CACHE_LIMIT = 256;
const cache = new Map<string, Promise<Uint8Array>>();

/**
 * The strong ETag of a player's identicon, known without drawing it (it depends only on the id).
 *
 * @example
 * identiconEtag('alice'); // '"identicon.<hash>"'
 */
export function identiconEtag(playerId: string): string {
  return `"identicon.${hashString(`${IDENTICON_GENERATION}|${playerId}`)}"`;
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

async function draw(playerId: string): Promise<Uint8Array> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`identicon|${playerId}`)));
  const hue = ((digest[0]! << 8) | digest[1]!) % 360;
  const palette: [number, number, number][] = [[240, 240, 240], hsl(hue, 0.55, 0.5)];
  const pixels = new Uint8Array(IDENTICON_SIZE * IDENTICON_SIZE);
  for (let row = 0; row < GRID; row++) {
    for (let col = 0; col < GRID; col++) {
      // Mirror the left three columns onto the right two, as classic identicons do.
      const bit = row * 3 + Math.min(col, GRID - 1 - col);
      if (((digest[2 + (bit >> 3)]! >> (bit & 7)) & 1) === 0) continue;
      for (let y = 0; y < CELL; y++) {
        const start = (MARGIN + row * CELL + y) * IDENTICON_SIZE + MARGIN + col * CELL;
        pixels.fill(1, start, start + CELL);
      }
    }
  }
  return encodePng({ width: IDENTICON_SIZE, height: IDENTICON_SIZE, palette, pixels });
}

/**
 * The identicon of a player id: a 64x64 PNG of a mirrored 5x5 grid in a colour taken from the id's
 * SHA-256. The same id always gives the same bytes. Recent results are kept in a bounded map.
 *
 * @example
 * const png = await identiconPng('alice'); // Uint8Array starting with the PNG signature
 */
export function identiconPng(playerId: string): Promise<Uint8Array> {
  const hit = cache.get(playerId);
  if (hit) return hit;
  const made = draw(playerId);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(playerId, made);
  made.catch(() => cache.delete(playerId));
  return made;
}
