// After an early answer on a connection that must close: a lingering close, and 100 Continue only when the body is wanted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a closing connection keeps reading (and dropping) what the client still sends. */
export const LINGER_MS = 5_000;

/** The most bytes a closing connection reads (and drops) before it is reset anyway. */
export const LINGER_BYTES = 64 * 1024 * 1024;

const LINGERING = Symbol('player-hypermedia.lingering');

/**
 * Makes the close of `socket` after its answer a lingering close (RFC 9112 section 9.6): Node would
 * destroy the socket as soon as the answer is written, and a socket closed with unread bytes in its
 * receive buffer sends a reset, which makes a client still writing its body (a 413 or 401 decided from
 * the head of a large upload) lose the answer with EPIPE or ECONNRESET. Instead the answer is
 * followed by a FIN (the write side shut), and what the client still sends is read and dropped until
 * it closes its side, for at most LINGER_MS and LINGER_BYTES, as nginx's `lingering_close` and Go's
 * net/http do; then the socket is destroyed.
 *
 * @example
 * if (mustClose) lingerOnClose(req.socket);
 */
export function lingerOnClose(socket: Socket): void {
  const marked = socket as Socket & { [LINGERING]?: true };
  if (marked[LINGERING] || socket.destroyed) return;
  marked[LINGERING] = true;
  // node:http closes a connection whose answer said `Connection: close` with destroySoon().
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    const readAtStart = this.bytesRead;
    const deadline = Date.now() + LINGER_MS;
    const done = () => {
      clearInterval(timer);
      this.destroy();
    };
    const timer = setInterval(() => {
      if (Date.now() >= deadline || this.bytesRead - readAtStart > LINGER_BYTES) done();
    }, 100);
    timer.unref();
    this.once('end', done);
    this.once('close', () => clearInterval(timer));
    // Keep reading: a paused socket would leave the client's bytes unread, the very reset avoided here.
    this.resume();
  };
}

const CONTINUE = Symbol('player-hypermedia.continue');

type Continued = IncomingMessage & { [CONTINUE]?: ServerResponse };

/**
 * Answers a request that asked `Expect: 100-continue` without sending 100 Continue yet: the service
 * decides from the head first, and `sendContinue` sends it when the service starts reading the body. A
 * request refused from its head (401, 413, 415...) gets only its final answer, as RFC 9110 section
 * 10.1.1 wants, and its connection is closed (the client may send the body anyway, or not at all).
 * createNodeServer registers it as the server's 'checkContinue' listener.
 *
 * @example
 * server.on('checkContinue', (req, res) => deferContinue(req, res, () => server.emit('request', req, res)));
 */
export function deferContinue(req: IncomingMessage, res: ServerResponse, serve: () => void): void {
  (req as Continued)[CONTINUE] = res;
  serve();
}

/**
 * Sends the 100 Continue a request deferred (see `deferContinue`), once, before its body is read.
 *
 * @example
 * sendContinue(req); // then read the body
 */
export function sendContinue(req: IncomingMessage): void {
  const res = (req as Continued)[CONTINUE];
  if (res === undefined) return;
  (req as Continued)[CONTINUE] = undefined;
  if (!res.headersSent) res.writeContinue();
}

/**
 * Whether a request asked for 100 Continue that was never sent: its body was not wanted, and the
 * client may not send it, so the connection cannot be kept.
 *
 * @example
 * if (continueWithheld(req)) close = true;
 */
export function continueWithheld(req: IncomingMessage): boolean {
  return (req as Continued)[CONTINUE] !== undefined;
}
