// Request bodies over node:http: streamed to the service on demand, and the rest settled before each answer.
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../core/http/problem.js';
import { continueWithheld, lingerOnClose, sendContinue } from './node-linger.js';

/**
 * The most bytes of an unread body drained after the answer to keep the connection open (Go's
 * net/http drains 256 KiB the same way). More than that, or a body of unknown length, closes it.
 */
export const DRAIN_BYTES = 256 * 1024;

/** How long a drain may take before the connection is closed anyway. */
export const DRAIN_MS = 2000;

/**
 * The largest body `readBodyFirst` reads before the service is asked: a small write's (a JSON Patch, a
 * player). A larger one streams to the service as it reads it.
 */
export const READ_FIRST_BYTES = 16 * 1024;

/** What the service read of a request's body stream. */
interface BodyRead {
  bytes: number;
  /** Stops feeding the stream (the rest of the body is the adapter's to settle). */
  detach(): void;
}

/** The read of a request's body, kept on the request (not in a WeakMap: see URI_SAFE in model/resource.ts). */
const READ = Symbol('player-hypermedia.body-read');

/** A body `readBodyFirst` read whole, until the service takes it (`bodyBytes`, `bodyStream`). */
const READ_FIRST = Symbol('player-hypermedia.body-read-first');

type WithRead = IncomingMessage & { [READ]?: BodyRead; [READ_FIRST]?: Uint8Array };

/** The body `readBodyFirst` read, handed over once. */
function takeReadFirst(req: IncomingMessage): Uint8Array | undefined {
  const bytes = (req as WithRead)[READ_FIRST];
  if (bytes !== undefined) (req as WithRead)[READ_FIRST] = undefined;
  return bytes;
}

/**
 * Reads a small request body whole before the service is asked, then calls `then` (once): the service
 * then gets it at once (`bodyBytes`), and a store that writes without I/O answers in the same turn,
 * with no promise between the last byte and the answer (measured by hand: 48.6 us of server CPU a JSON
 * Patch against 55.0, docs/scaling.md). Only a body declared by Content-Length, of 1 to READ_FIRST_BYTES bytes, not here
 * yet, and not awaiting a 100 Continue (whether to send one is the service's decision, RFC 9110
 * section 10.1.1); for any other request it returns false and calls nothing, as for one whose client
 * is already gone (no 'close' is coming). A client gone before the end calls `then` too: either way the
 * service finds its body missing (400) and the answer goes nowhere.
 *
 * @example
 * if (!readBodyFirst(req, () => answer(req, res))) answer(req, res);
 */
export function readBodyFirst(req: IncomingMessage, then: () => void): boolean {
  const declared = req.headers['content-length'];
  if (declared === undefined || req.complete || req.destroyed || req.headers.expect !== undefined || req.headers['transfer-encoding'] !== undefined) return false;
  const length = Number(declared);
  if (!(length > 0 && length <= READ_FIRST_BYTES)) return false;
  collect(req, READ_FIRST_BYTES, (bytes) => {
    (req as WithRead)[READ_FIRST] = bytes;
    then();
  }, then);
  return true;
}

/** The error of a body stream whose client went away before the body was complete. */
function disconnected(): HttpError {
  return new HttpError(400, 'The client closed the connection before the request body was complete.');
}

/**
 * The body of a Node request as a web stream, read from the request only when the service pulls it.
 * Unlike `Readable.toWeb`, cancelling it (a 413 half-way through) leaves the connection to the
 * adapter, which drains or closes it (`settleBody`); a client that goes away mid-body errors it with a
 * 400 HttpError, a disconnect rather than a server failure.
 *
 * @example
 * new Request(url, { method: 'PUT', body: bodyStream(req), duplex: 'half' });
 */
export function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let flowing = false;
  let settled = false;
  const onData = (chunk: Buffer) => {
    read.bytes += chunk.byteLength;
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  const onEnd = () => finish(() => controller.close());
  // 'close' before the last byte: the client went away (or the socket was destroyed).
  const onClose = () => finish(() => controller.error(disconnected()));
  const finish = (action: () => void) => {
    if (settled) return;
    settled = true;
    read.detach();
    action();
  };
  const read = registeredRead(req, onData, onEnd, onClose);
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        const first = takeReadFirst(req);
        if (first !== undefined) c.enqueue(first);
        if (req.readableEnded) return void finish(() => c.close());
        req.on('end', onEnd);
        req.on('close', onClose);
        req.on('error', onClose);
      },
      pull() {
        if (settled) return;
        if (!flowing) {
          flowing = true;
          sendContinue(req);
          req.on('data', onData);
        }
        req.resume();
      },
      cancel() {
        settled = true;
        read.detach();
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads a Node request's whole body, stopping at the first chunk that takes it past `limit` bytes
 * (the bytes read so far are then returned, longer than `limit`: the caller answers 413 and the rest
 * is left to `settleBody`). The service's usual way to a body over node:http: no web stream is built
 * (a ReadableStream and its reader cost more than the rest of a small write). A client that goes away
 * before the end gets the 400 HttpError `bodyStream` gives. A body that has all arrived (or that
 * `readBodyFirst` read) is returned as it is, not as a promise: the service then answers without
 * waiting a turn of the event loop.
 *
 * @example
 * const bytes = await bodyBytes(req, 64 * 1024);
 */
export function bodyBytes(req: IncomingMessage, limit: number): Uint8Array | Promise<Uint8Array> {
  const first = takeReadFirst(req);
  if (first !== undefined) return first;
  if (req.readableEnded) return new Uint8Array(0);
  // Gone before the service asked: no 'close' is coming to end the wait.
  if (req.destroyed) return Promise.reject(disconnected());
  sendContinue(req);
  // The whole body arrived with the head (as a small write's does): Node's parser has pushed all of it
  // into the request's buffer already, so it is taken at once, with no listener and no event.
  if (req.complete) {
    const read: Buffer | string | null = req.read();
    // A string when something set the request's encoding (bytes are what the service reads).
    const buffered = typeof read === 'string' ? Buffer.from(read, req.readableEncoding ?? 'utf8') : read;
    const bytes = buffered === null ? new Uint8Array(0) : new Uint8Array(buffered.buffer, buffered.byteOffset, buffered.byteLength);
    (req as WithRead)[READ] = { bytes: bytes.byteLength, detach() {} };
    return bytes;
  }
  return new Promise((resolve, reject) => collect(req, limit, resolve, () => reject(disconnected())));
}

/**
 * Reads a request's body from its listeners: `done` gets the bytes at its end, or at the first chunk
 * that takes it past `limit` (the rest left paused, to `settleBody`); `gone` is called instead when the
 * client goes away first ('close' before 'end').
 */
function collect(req: IncomingMessage, limit: number, done: (bytes: Uint8Array) => void, gone: () => void): void {
  const chunks: Buffer[] = [];
  const onData = (chunk: Buffer) => {
    read.bytes += chunk.byteLength;
    chunks.push(chunk);
    if (read.bytes > limit) {
      read.detach();
      req.pause();
      done(joined(chunks, read.bytes));
    }
  };
  const onEnd = () => {
    read.detach();
    done(joined(chunks, read.bytes));
  };
  const onClose = () => {
    read.detach();
    gone();
  };
  const read = registeredRead(req, onData, onEnd, onClose);
  req.on('data', onData);
  req.on('end', onEnd);
  // Not 'error': Node emits it on a request only to listeners, and 'close' follows it anyway.
  req.on('close', onClose);
}

/** The read of a request's body that `settleBody` finds: its byte count, and how to stop listening. */
function registeredRead(req: IncomingMessage, onData: (chunk: Buffer) => void, onEnd: () => void, onClose: () => void): BodyRead {
  const read: BodyRead = {
    bytes: 0,
    detach() {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.off('error', onClose);
    },
  };
  (req as WithRead)[READ] = read;
  return read;
}

function joined(chunks: Buffer[], total: number): Uint8Array {
  const one = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  return new Uint8Array(one.buffer, one.byteOffset, one.byteLength);
}

/**
 * Settles what is left of a request's body before its answer is written, so that the connection never
 * hangs on bytes nobody reads. What has arrived is dropped, and so is the rest as it arrives. When at
 * most `DRAIN_BYTES` are still to come by Content-Length, the connection is kept (closed if they take
 * more than `DRAIN_MS`); when more are, the length is unknown (chunked), or a 100 Continue the client
 * asked for was never sent, the answer must say `Connection: close` (RFC 9112 section 9.6) and the
 * connection closes once it is written, lingering (see `lingerOnClose`). Returns true in that last
 * case: the caller adds the field.
 *
 * @example
 * const close = settleBody(req);
 * res.writeHead(status, close ? [...fields, 'connection', 'close'] : fields);
 */
export function settleBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  // RFC 9112 section 6.3: a request with neither Content-Length nor Transfer-Encoding has no body.
  if ((length === undefined && !chunked) || req.readableEnded) return false;
  const read = (req as WithRead)[READ];
  read?.detach();
  // Flowing with no 'data' listener: whatever arrives is dropped, and Node reads on to the next request.
  req.resume();
  if (req.complete) return false;
  const left = chunked ? Infinity : Number(length) - (read?.bytes ?? 0);
  if (!(left > 0)) return false;
  // No 100 Continue was sent (RFC 9110 section 10.1.1): the client may or may not send its body, so
  // the connection cannot be kept; more than DRAIN_BYTES to come cannot be waited for. Either way the
  // answer says `Connection: close` and the close lingers (lingerOnClose), so that a client still
  // writing reads the answer instead of a reset.
  if (left > DRAIN_BYTES || continueWithheld(req)) {
    lingerOnClose(req.socket);
    return true;
  }
  const timer = setTimeout(() => req.socket.destroy(), DRAIN_MS);
  timer.unref();
  const done = () => clearTimeout(timer);
  req.once('end', done);
  req.once('close', done);
  return false;
}

/**
 * The header fields of an answer with `connection: close` added when `settleBody` says the connection
 * must close (a copy: the fields of a kept answer are shared).
 *
 * @example
 * res.writeHead(reply.status, withSettledBody(res.req, reply.flatFields()));
 */
export function withSettledBody(req: IncomingMessage, fields: readonly string[]): string[] {
  return settleBody(req) ? [...fields, 'connection', 'close'] : (fields as string[]);
}
