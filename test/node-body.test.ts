import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyBytes, readBodyFirst, settleBody } from '../src/adapters/node-body.js';
import { HttpError } from '../src/core/http/problem.js';

const body = suite('bodyBytes: a Node request body read without a web stream');

/** A request fed by hand: its chunks pushed, then its end. */
function request(): IncomingMessage {
  return new IncomingMessage(new Socket());
}

body('should read the chunks to the end', async () => {
  const req = request();
  const read = bodyBytes(req, 100);
  req.push(Buffer.from('{"a":'));
  req.push(Buffer.from('1}'));
  req.push(null);
  assert.is(new TextDecoder().decode(await read), '{"a":1}');
});

body('should stop at the first chunk past the limit and give what it read (the caller answers 413)', async () => {
  const req = request();
  const read = bodyBytes(req, 8);
  req.push(Buffer.alloc(6));
  req.push(Buffer.alloc(6));
  const bytes = await read;
  assert.is(bytes.byteLength, 12);
  assert.ok(req.isPaused(), 'the rest is left to settleBody');
});

body('readBodyFirst should leave a request whose client is already gone to the service (no close is coming to end its wait)', () => {
  // toNodeListener asks in the check phase of the turn: the client may have gone since its head arrived.
  const req = request();
  req.headers['content-length'] = '10';
  req.push(Buffer.alloc(3));
  req.destroy();
  let called = 0;
  assert.is(readBodyFirst(req, () => called++), false);
  assert.is(called, 0);
  // A request still here, with its body to come, is read first.
  const live = request();
  live.headers['content-length'] = '2';
  assert.is(readBodyFirst(live, () => called++), true);
  live.push(Buffer.from('{}'));
  live.push(null);
});

body('should fail with a 400 for a client gone before the end, or gone before it was asked', async () => {
  const req = request();
  const read = bodyBytes(req, 100);
  req.push(Buffer.alloc(3));
  req.destroy();
  assert.instance(read, Promise, 'a body still arriving is awaited');
  const error = await Promise.resolve(read).then(() => undefined, (e: unknown) => e);
  assert.instance(error, HttpError);
  assert.is((error as HttpError).status, 400);
  const gone = await Promise.resolve(bodyBytes(req, 100)).then(() => undefined, (e: unknown) => e);
  assert.is((gone as HttpError).status, 400);
});

body('should take a body that arrived whole with the head at once, with no listener, and leave nothing to settle', async () => {
  const req = request();
  req.headers['content-length'] = '7';
  req.push(Buffer.from('{"a":'));
  req.push(Buffer.from('1}'));
  req.push(null);
  req.complete = true;
  const read = bodyBytes(req, 100);
  assert.is(req.listenerCount('data'), 0);
  assert.instance(read, Uint8Array, 'the bytes themselves, not a promise: no turn of the event loop');
  assert.is(new TextDecoder().decode(read as Uint8Array), '{"a":1}');
  assert.is(settleBody(req), false);
  const empty = request();
  empty.push(null);
  empty.complete = true;
  assert.is((await bodyBytes(empty, 100)).byteLength, 0);
  const over = request();
  over.push(Buffer.alloc(12));
  over.push(null);
  over.complete = true;
  assert.is((await bodyBytes(over, 8)).byteLength, 12, 'past the limit: the caller answers 413');
});

body('should read a whole body as bytes when the encoding was set', async () => {
  const req = request();
  req.setEncoding('utf8');
  req.push(Buffer.from('{"name":"Zoë"}'));
  req.push(null);
  req.complete = true;
  assert.is(new TextDecoder().decode(await bodyBytes(req, 100)), '{"name":"Zoë"}');
});

body.run();
