// PNG (RFC 2083 / ISO 15948): a minimal encoder over CompressionStream, and the signature/IHDR check of uploads.

/**
 * The eight bytes every PNG starts with (PNG specification section 5.2).
 *
 * @example
 * bytes.subarray(0, 8).every((b, i) => b === PNG_SIGNATURE[i]); // a PNG file
 */
export const PNG_SIGNATURE: Readonly<Uint8Array> = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The CRC-32 of PNG chunks (PNG specification section 5.5, ISO 3309 polynomial), over `bytes`.
 *
 * @example
 * crc32(new TextEncoder().encode('IEND')); // 0xae426082
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

async function zlib(data: Uint8Array): Promise<Uint8Array> {
  // 'deflate' is the zlib format (RFC 1950) that IDAT requires (PNG specification section 10.1).
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * An indexed-colour image: `pixels` holds one palette index per pixel, row by row; `palette` holds
 * [r, g, b] entries (at most 256).
 *
 * @example
 * const image: IndexedImage = { width: 2, height: 1, palette: [[0, 0, 0], [255, 255, 255]], pixels: Uint8Array.of(0, 1) };
 */
export interface IndexedImage {
  width: number;
  height: number;
  palette: ReadonlyArray<readonly [number, number, number]>;
  pixels: Uint8Array;
}

/**
 * Encodes an indexed-colour image as a PNG file: signature, IHDR (8-bit palette), PLTE, one IDAT
 * (filter type 0 on every scanline), IEND.
 *
 * @example
 * const png = await encodePng({ width: 1, height: 1, palette: [[255, 0, 0]], pixels: Uint8Array.of(0) });
 */
export async function encodePng(image: IndexedImage): Promise<Uint8Array> {
  const { width, height, palette, pixels } = image;
  if (pixels.length !== width * height || palette.length === 0 || palette.length > 256) {
    throw new TypeError('encodePng: pixels must hold width * height palette indexes, and the palette 1 to 256 colours');
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, colour type 3 (palette), deflate, filter method 0, no interlace
  const plte = new Uint8Array(palette.length * 3);
  palette.forEach((rgb, i) => plte.set(rgb, i * 3));
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const parts = [PNG_SIGNATURE, chunk('IHDR', header), chunk('PLTE', plte), chunk('IDAT', await zlib(raw)), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * What the IHDR chunk of a PNG says (PNG specification section 11.2.2).
 *
 * @example
 * const h: PngHeader = { width: 64, height: 64, bitDepth: 8, colorType: 3, interlace: 0 };
 */
export interface PngHeader {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
}

// Allowed bit depths per colour type (PNG specification section 11.2.2, table 11.1).
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/**
 * Checks that `bytes` start like a PNG: the signature, then an IHDR chunk of length 13 with a correct
 * CRC, non-zero dimensions up to 2^31-1, a valid colour type / bit depth pair, compression and filter
 * method 0 and interlace 0 or 1. Returns the header, or a reason the bytes are not a PNG.
 *
 * @example
 * const result = readPngHeader(bytes);
 * if ('error' in result) throw new HttpError(400, result.error);
 */
export function readPngHeader(bytes: Uint8Array): PngHeader | { error: string } {
  if (bytes.length < 33 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return { error: 'the body does not start with the PNG signature' };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (view.getUint32(8) !== 13 || type !== 'IHDR') return { error: 'the first chunk is not a 13-byte IHDR' };
  if (view.getUint32(29) !== crc32(bytes, 12, 29)) return { error: 'the IHDR chunk has a wrong CRC' };
  const header: PngHeader = {
    width: view.getUint32(16),
    height: view.getUint32(20),
    bitDepth: bytes[24]!,
    colorType: bytes[25]!,
    interlace: bytes[28]!,
  };
  const max = 2 ** 31 - 1;
  if (header.width === 0 || header.height === 0 || header.width > max || header.height > max) return { error: 'the image dimensions are out of range' };
  if (!DEPTHS[header.colorType]?.includes(header.bitDepth)) return { error: 'the colour type and bit depth are not a valid pair' };
  if (bytes[26] !== 0 || bytes[27] !== 0 || header.interlace > 1) return { error: 'the compression, filter or interlace method is unknown' };
  return header;
}
