// Content codings by node:zlib: br and gzip, for the service's compression option on Node.
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { ContentCoder } from '../core/respond/compression.js';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/**
 * Bodies up to this size are coded on the spot: a 15 KB page takes 50-90 us, where the thread pool's
 * round trip alone costs more (bench/compression). Larger ones go to the pool, sparing the event loop.
 */
const SYNC_LIMIT = 128 * 1024;

/**
 * br and gzip by node:zlib, br first: for the `compression` option on Node, where `CompressionStream`
 * has no br. br at quality 3 and gzip at level 6 suit bodies made per request: on a 15 KB page br 3
 * costs about 60 us and 40% less than quality 5, for 5% more bytes (br's default, 11, costs tens of
 * times the CPU for a few per cent fewer still); coded bodies are kept in the body cache.
 * Bodies over 128 KiB are coded on Node's thread pool.
 *
 * @example
 * createPlayerService({ baseUrl, compression: { codings: nodeContentCodings() } });
 */
export function nodeContentCodings(options: { brotliQuality?: number; gzipLevel?: number } = {}): Record<string, ContentCoder> {
  const quality = options.brotliQuality ?? 3;
  const level = options.gzipLevel ?? 6;
  const brotliOptions = (size: number): BrotliOptions => ({ params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: size } });
  const gzipOptions: ZlibOptions = { level };
  return {
    br: (bytes) => (bytes.byteLength <= SYNC_LIMIT ? viewOf(brotliCompressSync(bytes, brotliOptions(bytes.byteLength))) : brotliAsync(bytes, brotliOptions(bytes.byteLength)).then(viewOf)),
    gzip: (bytes) => (bytes.byteLength <= SYNC_LIMIT ? viewOf(gzipSync(bytes, gzipOptions)) : gzipAsync(bytes, gzipOptions).then(viewOf)),
  };
}

/**
 * A Buffer as a plain Uint8Array: over the same memory when the Buffer owns all of it, else a copy of
 * exactly its bytes (zlib's output may be a slice of a larger buffer, which a kept view would pin).
 */
function viewOf(buffer: Buffer): Uint8Array {
  if (buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength) return new Uint8Array(buffer.buffer, 0, buffer.byteLength);
  return new Uint8Array(buffer);
}

/**
 * The `compression` option from the environment of the example servers and `serve`: COMPRESSION `on`
 * (br and gzip by node:zlib, the default) or `off`.
 *
 * @example
 * compressionOptionFromEnv({ COMPRESSION: 'off' }); // false
 */
export function compressionOptionFromEnv(env: Readonly<Record<string, string | undefined>>): false | { codings: Record<string, ContentCoder> } {
  const value = (env.COMPRESSION ?? 'on').trim().toLowerCase();
  if (value === 'off' || value === '0') return false;
  if (value === 'on' || value === '1') return { codings: nodeContentCodings() };
  throw new TypeError(`COMPRESSION "${env.COMPRESSION}" is neither on nor off`);
}
