// node:http adapter: an IncomingMessage to a Request, the Response back to a ServerResponse.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { presetBody } from '../core/preset-response.js';
import { isReply, type Reply } from '../core/reply.js';
import { settleBody, withSettledBody } from './node-body.js';
import type { RequestHead } from '../core/request-head.js';
import { answerNode, toRequestHead, type FetchHandler } from './node-request.js';

export { toRequest, toRequestHead, type FetchHandler } from './node-request.js';
export { createNodeServer, nodeServerOptionsFromEnv, DEFAULT_NODE_SERVER_OPTIONS, type NodeServerOptions } from './node-server.js';

/**
 * Writes a Reply to a Node ServerResponse: its status, fields and complete body in one `writeHead` and
 * one `end` (with `Connection: close` when the request's unread body is too large to drain; see
 * `settleBody`).
 *
 * @example
 * writeReply(reply, res);
 */
export function writeReply(reply: Reply, res: ServerResponse): void {
  // Node reads the pairs without changing them: a kept Reply's pairs are written as they are.
  res.writeHead(reply.status, withSettledBody(res.req, reply.flatFields()));
  if (reply.body === null) res.end();
  else res.end(reply.body);
}

/**
 * Answers a Node request with a fetch handler and writes the answer: a kept answer to a GET or HEAD
 * when the handler has one, else through `answer` when the handler has it (the service decides about
 * every method and builds a web Request only if it needs one), else through `fetch`. `target` and
 * `body` are those of `toRequest`.
 *
 * @example
 * await serveNode(service, req, res);
 */
export async function serveNode(handler: FetchHandler, req: IncomingMessage, res: ServerResponse, target?: string, body?: Uint8Array | string): Promise<void> {
  let head: RequestHead | undefined;
  if (handler.kept && (req.method === 'GET' || req.method === 'HEAD')) {
    head = toRequestHead(req, target);
    const kept = handler.kept(head);
    if (kept) return writeReply(kept, res);
  }
  return writeAnswer(await answerNode(handler, req, target, body, head), res);
}

/** Writes what `answerNode` gave. */
function writeAnswer(answered: Reply | Response, res: ServerResponse): void | Promise<void> {
  return isReply(answered) ? writeReply(answered, res) : writeResponse(answered, res);
}

/**
 * Writes a web Response to a Node ServerResponse. The service's bodies are small and complete, so the
 * body is sent in one piece with its Content-Length rather than chunked; the head is written only once
 * the body is in hand.
 *
 * @example
 * await writeResponse(await service.fetch(toRequest(req)), res);
 */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const fields: string[] = [];
  response.headers.forEach((value, name) => fields.push(name, value));
  // The service's own bodies are complete strings or bytes: written as they are, no stream read.
  const preset = presetBody(response);
  const body = preset ?? (response.body ? new Uint8Array(await response.arrayBuffer()) : undefined);
  if (body !== undefined) fields.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  if (settleBody(res.req)) fields.push('connection', 'close');
  res.writeHead(response.status, fields);
  res.end(body);
}

/** The last-resort answer when answering failed: a 500 problem, unless a head was already written. */
const FAILED = JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'The server failed to answer this request.' });

/**
 * A node:http request listener serving a fetch handler. A kept answer is written synchronously; when
 * answering fails, the answer is a 500 problem (the failure is logged), or, if its head had already
 * gone out, the connection is closed so that the client sees a cut answer rather than a wrong one.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createPlayerService } from 'player-hypermedia';
 * import { toNodeListener } from 'player-hypermedia/node';
 * createServer(toNodeListener(createPlayerService({ baseUrl: 'http://127.0.0.1:3000' }))).listen(3000);
 */
export function toNodeListener(handler: FetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    let answered: void | Promise<void>;
    try {
      let head: RequestHead | undefined;
      if (handler.kept && (req.method === 'GET' || req.method === 'HEAD')) {
        head = toRequestHead(req);
        // A kept answer is written synchronously, as a server replaying bytes would (no promise).
        const kept = handler.kept(head);
        if (kept) return writeReply(kept, res);
      }
      answered = answerNode(handler, req, undefined, undefined, head).then((a) => writeAnswer(a, res));
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
}
