import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PNG } from 'pngjs';
import { crc32, encodePng, PNG_SIGNATURE, readPngHeader } from '../src/player/avatar/png.js';

/** Every chunk of a PNG file: type, data and whether its CRC is right. */
function chunks(png: Uint8Array): { type: string; data: Uint8Array; crcOk: boolean }[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out = [];
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const crcOk = view.getUint32(at + 8 + length) === crc32(png, at + 4, at + 8 + length);
    out.push({ type, data: png.subarray(at + 8, at + 8 + length), crcOk });
    at += 12 + length;
  }
  return out;
}

const encode = suite('encodePng');

encode('should write a PNG that a real decoder reads back pixel for pixel', async () => {
  const palette: [number, number, number][] = [[0, 0, 0], [255, 0, 0], [0, 128, 255]];
  const pixels = Uint8Array.from({ length: 7 * 3 }, (_, i) => i % 3);
  const png = await encodePng({ width: 7, height: 3, palette, pixels });
  assert.equal([...png.subarray(0, 8)], [...PNG_SIGNATURE]);
  const list = chunks(png);
  assert.equal(list.map((c) => c.type), ['IHDR', 'PLTE', 'IDAT', 'IEND']);
  assert.ok(list.every((c) => c.crcOk));
  const decoded = PNG.sync.read(Buffer.from(png));
  assert.is(decoded.width, 7);
  assert.is(decoded.height, 3);
  for (let i = 0; i < pixels.length; i++) {
    assert.equal([...decoded.data.subarray(i * 4, i * 4 + 3)], palette[pixels[i]!], `pixel ${i}`);
  }
});

encode('should refuse pixels that do not fit the size with a TypeError', async () => {
  try {
    await encodePng({ width: 2, height: 2, palette: [[0, 0, 0]], pixels: new Uint8Array(3) });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, TypeError);
  }
});

encode.run();

const crc = suite('crc32');

crc('should match the CRC of the PNG specification sample (IEND)', () => {
  assert.is(crc32(new TextEncoder().encode('IEND')), 0xae426082);
  assert.is(crc32(new TextEncoder().encode('123456789')), 0xcbf43926);
});

crc.run();

const header = suite('readPngHeader');

header('should read the IHDR of a PNG written by another encoder', () => {
  const image = new PNG({ width: 3, height: 2 });
  const bytes = new Uint8Array(PNG.sync.write(image));
  assert.equal(readPngHeader(bytes), { width: 3, height: 2, bitDepth: 8, colorType: 6, interlace: 0 });
});

header('should say why bytes are not a PNG', () => {
  const good = new Uint8Array(PNG.sync.write(new PNG({ width: 1, height: 1 })));
  const broken = (edit: (b: Uint8Array) => void) => {
    const copy = good.slice();
    edit(copy);
    return readPngHeader(copy);
  };
  assert.match((readPngHeader(new TextEncoder().encode('GIF89a....')) as { error: string }).error, 'signature');
  assert.match((broken((b) => (b[12] = 0x78)) as { error: string }).error, 'IHDR');
  assert.match((broken((b) => (b[16] = 9)) as { error: string }).error, 'CRC');
  const zeroWidth = good.slice();
  zeroWidth.fill(0, 16, 20);
  new DataView(zeroWidth.buffer).setUint32(29, crc32(zeroWidth, 12, 29));
  assert.match((readPngHeader(zeroWidth) as { error: string }).error, 'dimensions');
  const badDepth = good.slice();
  badDepth[24] = 3;
  new DataView(badDepth.buffer).setUint32(29, crc32(badDepth, 12, 29));
  assert.match((readPngHeader(badDepth) as { error: string }).error, 'bit depth');
  assert.ok('error' in readPngHeader(good.subarray(0, 20)));
});

header.run();
