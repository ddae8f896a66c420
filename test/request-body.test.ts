import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '../src/index.js';
import { decodeUtf8, jsonDepth, parseContentType, parseJsonText, readBodyBytes } from '../src/core/http/request-body.js';
import { writableService } from './support/writes.js';

/** The status of the HttpError `read` throws or rejects with (a failure found at once is thrown), 0 for none. */
const status = async (read: () => unknown) => {
  try {
    await read();
  } catch (e) {
    return e instanceof HttpError ? e.status : -1;
  }
  return 0;
};

/** A stream of `count` chunks of `size` bytes that records how many chunks were pulled. */
function countingStream(count: number, size: number) {
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === count) return controller.close();
      seen.pulled++;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

const unit = suite('request-body');

unit('should parse a Content-Type into its essence and parameters', () => {
  assert.equal(parseContentType('Application/JSON; charset="UTF-8"'), { mediaType: 'application/json', params: { charset: 'UTF-8' } });
  assert.is(parseContentType('nonsense'), undefined);
  assert.is(parseContentType('a/b/c'), undefined);
  assert.is(parseContentType(null), undefined);
});

unit('should parse each short Content-Type once and share the frozen result, and parse long ones each time', () => {
  const first = parseContentType('application/json-patch+json; charset=utf-8')!;
  assert.is(parseContentType('application/json-patch+json; charset=utf-8'), first, 'the same parse, shared');
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first.params), 'shared, so frozen');
  assert.is(parseContentType('nonsense'), undefined);
  assert.is(parseContentType('nonsense'), undefined, 'a refused value is remembered as refused');
  const long = `application/json; x=${'y'.repeat(200)}`;
  assert.equal(parseContentType(long), { mediaType: 'application/json', params: { x: 'y'.repeat(200) } });
  assert.is.not(parseContentType(long), parseContentType(long), 'a long value is not kept');
  // Past the bound, the kept parses start again: every value still parses right.
  for (let i = 0; i < 600; i++) assert.is(parseContentType(`application/x-${i}+json`)!.mediaType, `application/x-${i}+json`);
  assert.equal(parseContentType('application/json-patch+json; charset=utf-8'), first);
});

unit('should refuse a declared Content-Length over the limit before reading', async () => {
  const { stream, seen } = countingStream(10, 100);
  const req = new Request('https://x.test/', { method: 'POST', body: stream, headers: { 'Content-Length': '1000' }, duplex: 'half' } as RequestInit);
  assert.is(await status(() => readBodyBytes(req, 999)), 413);
  assert.is(seen.pulled, 0);
});

unit('should stop reading a streamed body at the limit', async () => {
  const { stream, seen } = countingStream(1000, 1024);
  const req = new Request('https://x.test/', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
  assert.is(await status(() => readBodyBytes(req, 4096)), 413);
  assert.ok(seen.pulled < 10, `pulled ${seen.pulled} chunks`);
});

unit('should read a body at exactly the limit', async () => {
  const req = new Request('https://x.test/', { method: 'POST', body: 'x'.repeat(64) });
  assert.is((await readBodyBytes(req, 64)).byteLength, 64);
});

unit('should refuse invalid UTF-8 and drop a byte order mark', () => {
  assert.throws(() => decodeUtf8(new Uint8Array([0x7b, 0xff, 0x7d])), (e: HttpError) => e.status === 400);
  assert.is(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x31])), '1');
});

unit('should measure JSON nesting outside strings only', () => {
  assert.is(jsonDepth('{"a":[1,{"b":"[[[["}]}', 32), 3);
  assert.is(jsonDepth('"\\"{{"', 32), 0);
  assert.is(jsonDepth('1', 32), 0);
});

unit('should refuse malformed JSON and nesting past the limit with 400', () => {
  assert.throws(() => parseJsonText('{"a":', 32), (e: HttpError) => e.status === 400);
  assert.throws(() => parseJsonText('['.repeat(33) + ']'.repeat(33), 32), (e: HttpError) => e.status === 400 && /deeper/.test(e.message));
  assert.equal(parseJsonText('[[1]]', 2), [[1]]);
  // The shortest text nested one level too deep, and short texts that open more than the limit without closing.
  assert.throws(() => parseJsonText('[[[]]]', 2), (e: HttpError) => e.status === 400 && /deeper/.test(e.message));
  assert.throws(() => parseJsonText('[[[', 2), (e: HttpError) => e.status === 400);
  assert.throws(() => parseJsonText('{"a":{"b":{', 2), (e: HttpError) => e.status === 400);
});

unit.run();

const http = suite('request bodies through the service');

http('should answer 413 for a body over maxBodyBytes, and keep the limit an option', async () => {
  const { send } = await writableService({ maxBodyBytes: 100 });
  const big = JSON.stringify({ alternateName: 'x', name: 'y'.repeat(200) });
  const res = await send('POST', '/player/alice/friends', big);
  assert.is(res.status, 413);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  assert.is((await send('POST', '/player/alice/friends', { alternateName: 'small' })).status, 201);
});

http('should answer 413 for a 64 KiB + 1 body by default', async () => {
  const { send } = await writableService();
  const body = JSON.stringify({ alternateName: 'x', name: 'y'.repeat(64 * 1024) });
  assert.is((await send('POST', '/player/alice/friends', body)).status, 413);
});

http('should answer 400 for invalid UTF-8, malformed JSON and deep nesting', async () => {
  const { send } = await writableService();
  const invalid = new Uint8Array([...new TextEncoder().encode('{"alternateName":"'), 0xc3, 0x28, ...new TextEncoder().encode('"}')]);
  assert.is((await send('POST', '/player/alice/friends', invalid)).status, 400);
  assert.is((await send('POST', '/player/alice/friends', '{"alternateName": "x",}')).status, 400);
  let deep: unknown = 'x';
  for (let i = 0; i < 40; i++) deep = { a: deep };
  const res = await send('POST', '/player/alice/friends', { alternateName: 'x', name: deep });
  assert.is(res.status, 400);
  assert.match((await res.json()).detail, 'deeper');
});

http('should answer 400 for a JSON body that is not an object', async () => {
  const { send } = await writableService();
  for (const body of ['[]', '"alice"', '42', 'null']) assert.is((await send('POST', '/player/alice/friends', body)).status, 400, body);
});

http('should answer 415 with Accept-Post for a Content-Type no format reads', async () => {
  const { send } = await writableService();
  for (const type of ['text/plain', 'application/xml', 'application/json; charset=latin1', 'nonsense']) {
    const res = await send('POST', '/player/alice/friends', '{"alternateName":"x"}', { 'Content-Type': type });
    assert.is(res.status, 415, type);
    assert.match(res.headers.get('accept-post')!, 'application/json');
  }
  const res = await send('POST', '/player/alice/friends', '{"alternateName":"x"}', { 'Content-Type': 'application/json; charset=UTF-8' });
  assert.is(res.status, 201);
});

http.run();
