import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyBytes } from '../src/adapters/node-body.js';
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

body('should fail with a 400 for a client gone before the end, or gone before it was asked', async () => {
  const req = request();
  const read = bodyBytes(req, 100);
  req.push(Buffer.alloc(3));
  req.destroy();
  const error = await read.then(() => undefined, (e: unknown) => e);
  assert.instance(error, HttpError);
  assert.is((error as HttpError).status, 400);
  const gone = await bodyBytes(req, 100).then(() => undefined, (e: unknown) => e);
  assert.is((gone as HttpError).status, 400);
});

body.run();
