// node:http adapter: a Node request to the service, its answer back to the ServerResponse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from '../core/respond/answer.js';
import { readBodyFirst, settleBody, withSettledBody } from './node-body.js';
import { answerNode, type FetchHandler } from './node-request.js';

export { toRequest, type FetchHandler } from './node-request.js';
export { createNodeServer, nodeServerOptionsFromEnv, DEFAULT_NODE_SERVER_OPTIONS, type NodeServerOptions } from './node-server.js';
export { nodeContentCodings } from './node-codings.js';
export { withAccessLog, accessLogLevel, type AccessLogLevel, type AccessLogOptions } from './access-log.js';

/**
 * Answers a Node request with a fetch handler and writes the answer (see `answerNode` for how the
 * handler is asked). `target` and `body` are those of `toRequest`: frameworks that strip a mount path
 * pass the original target, and a body a framework already read.
 *
 * @example
 * await serveNode(service, req, res);
 */
export async function serveNode(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, target?: string, body?: Uint8Array | string): Promise<void> {
  const answered = answerNode(handler, req, target, body);
  return write(answered instanceof Promise ? await answered : answered, res);
}

function write(answered: Answer | Response, res: ServerResponse): void | Promise<void> {
  // An Answer by its shape, not `instanceof`: the service may come from another installed copy of the package.
  return typeof (answered as Answer).flatFields === 'function' ? writeAnswer(answered as Answer, res) : writeResponse(answered as Response, res);
}

/**
 * Writes a service's Answer: its status, fields and complete body in one `writeHead` and one `end`
 * (with `Connection: close` when the request's unread body is too large to drain; see `settleBody`).
 * A kept answer's fields are shared: Node reads them without changing them.
 */
function writeAnswer(answer: Answer, res: ServerResponse): void {
  res.writeHead(answer.status, withSettledBody(res.req, answer.flatFields()));
  if (answer.body === null) res.end();
  else res.end(answer.body);
}

/**
 * Writes a web Response to a Node ServerResponse, its body read whole and sent with its Content-Length
 * (the answers of a fetch handler are small and complete). What is left of the request's unread body
 * is drained or the connection closed first (`settleBody`).
 *
 * @example
 * await writeResponse(await handler.fetch(toRequest(req)), res);
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const fields: string[] = [];
  response.headers.forEach((value, name) => fields.push(name, value));
  const body = response.body ? new Uint8Array(await response.arrayBuffer()) : undefined;
  if (body !== undefined) fields.push('content-length', String(body.byteLength));
  if (settleBody(res.req)) fields.push('connection', 'close');
  res.writeHead(response.status, fields);
  res.end(body);
}

const FAILED = JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'The server failed to answer this request.' });

/**
 * A node:http request listener serving a fetch handler. Each request is answered in the check phase of
 * the event loop's turn its head arrived in (`setImmediate`): by then Node has parsed every byte that
 * came with it, so a small body sent with its head is all here, and the requests that arrived together
 * are answered one after another (docs/decisions.md, "The HTTP edge"). A kept answer, or one read from
 * a store without I/O, is written there and then; so is a write to such a store once its small body has
 * arrived (a body of up to READ_FIRST_BYTES declared by Content-Length is read before the service is
 * asked, `readBodyFirst`). Should answering fail anyway, the client gets a complete 500 problem (or,
 * when the head was already sent, the connection is closed: a truncated answer must not look complete).
 *
 * @example
 * import { createPlayerService } from 'player-hypermedia';
 * import { createNodeServer, toNodeListener } from 'player-hypermedia/node';
 * createNodeServer(toNodeListener(createPlayerService({ baseUrl: 'http://127.0.0.1:3000' }))).listen(3000);
 */
export function toNodeListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  const respond = (req: IncomingMessage, res: ServerResponse): void => {
    let answered: void | Promise<void>;
    try {
      const answer = answerNode(handler, req);
      const written = answer instanceof Promise ? answer.then((a) => write(a, res)) : write(answer, res);
      if (!written) return;
      answered = written;
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.catch((error: unknown) => {
      console.error('player-hypermedia/node: failed to answer', error);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, withSettledBody(req, ['content-type', 'application/problem+json', 'cache-control', 'no-store', 'content-length', String(FAILED.length)]));
      res.end(FAILED);
    });
  };
  // A small body still to come is read before the service is asked (readBodyFirst): a write is then
  // answered at once.
  const answerInCheckPhase = (req: IncomingMessage, res: ServerResponse): void => {
    if (!readBodyFirst(req, () => respond(req, res))) respond(req, res);
  };
  return (req, res) => void setImmediate(answerInCheckPhase, req, res);
}
