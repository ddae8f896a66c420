// A node:http server with limits that protect the process: timeouts, a connection cap, problem answers to bad requests.
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { deferContinue } from './node-linger.js';

/**
 * Limits of a server made by `createNodeServer` (milliseconds and counts).
 *
 * @example
 * const options: NodeServerOptions = { headersTimeoutMs: 5_000, maxConnections: 2_000 };
 */
export interface NodeServerOptions {
  /** Time a client has to send a request's header block; then 408 and the connection closes. */
  headersTimeoutMs?: number;
  /** Time a client has to send a whole request, body included; then 408 and the connection closes. */
  requestTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept between requests. */
  keepAliveTimeoutMs?: number;
  /** Most connections open at once; a connection over the cap is closed as soon as it is accepted. */
  maxConnections?: number;
}

/**
 * The defaults of `createNodeServer`: headers within 10 s, a whole request within 30 s, idle
 * keep-alive connections closed after 5 s, at most 10,000 connections.
 *
 * @example
 * createNodeServer(listener, { ...DEFAULT_NODE_SERVER_OPTIONS, maxConnections: 500 });
 */
export const DEFAULT_NODE_SERVER_OPTIONS: Readonly<Required<NodeServerOptions>> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
});

/**
 * Creates a node:http server for a request listener (`toNodeListener(service)`, an Express app, the
 * handler Fastify's `serverFactory` receives; or none, to add a 'request' listener later) with the limits of `NodeServerOptions` instead of Node's
 * defaults (which wait 60 s for headers, 300 s for a request, and accept any number of connections):
 * a client trickling its headers (slowloris) is cut after `headersTimeoutMs` and cannot hold the
 * server. Timeouts are checked every tenth of the shorter one (at most every second). Requests Node
 * cannot parse, headers that are too large and timeouts are answered with a problem document and
 * `Connection: close`; so is CONNECT (this server is no proxy). A request with `Expect: 100-continue`
 * gets its 100 only when the service reads its body.
 *
 * @example
 * import { createPlayerService } from 'player-hypermedia';
 * import { createNodeServer, toNodeListener } from 'player-hypermedia/node';
 * const server = createNodeServer(toNodeListener(createPlayerService({ baseUrl: 'http://127.0.0.1:3000' })));
 * server.listen(3000, '127.0.0.1');
 */
export function createNodeServer(listener?: RequestListener, options: NodeServerOptions = {}): Server {
  const limits = resolveLimits(options);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10))),
    },
    listener as RequestListener<typeof IncomingMessage, typeof ServerResponse> | undefined,
  );
  server.maxConnections = limits.maxConnections;
  // Expect: 100-continue: 100 is sent when the service starts reading the body, not before it has
  // decided from the head (a 401 or 413 is then the only answer; see deferContinue).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => deferContinue(req, res, () => server.emit('request', req, res)));
  server.on('clientError', answerClientError);
  // CONNECT asks a proxy for a tunnel; this server is none. 501 is the answer RFC 9110 section 15.6.2
  // gives for a method the server does not support (test/node-server.test.ts).
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    closeWith(socket, 501, 'This server is not a proxy: CONNECT is not implemented.');
  });
  return server;
}

function resolveLimits(options: NodeServerOptions): Required<NodeServerOptions> {
  const limits = { ...DEFAULT_NODE_SERVER_OPTIONS };
  for (const key of Object.keys(DEFAULT_NODE_SERVER_OPTIONS) as (keyof NodeServerOptions)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value <= 0) throw new TypeError(`${key} must be a positive integer, not ${String(value)}`);
    limits[key] = value;
  }
  // Node refuses a request timeout shorter than the headers timeout.
  if (limits.requestTimeoutMs < limits.headersTimeoutMs) throw new TypeError('requestTimeoutMs must not be shorter than headersTimeoutMs');
  return limits;
}

/** Environment variables of `nodeServerOptionsFromEnv`, by option. */
const ENV_NAMES: Readonly<Record<keyof NodeServerOptions, string>> = {
  headersTimeoutMs: 'HEADERS_TIMEOUT_MS',
  requestTimeoutMs: 'REQUEST_TIMEOUT_MS',
  keepAliveTimeoutMs: 'KEEP_ALIVE_TIMEOUT_MS',
  maxConnections: 'MAX_CONNECTIONS',
};

/**
 * The options named by environment variables: HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS,
 * KEEP_ALIVE_TIMEOUT_MS and MAX_CONNECTIONS (unset or empty: the default). A value that is not a
 * positive integer is a TypeError naming the variable.
 *
 * @example
 * const server = createNodeServer(toNodeListener(service), nodeServerOptionsFromEnv(process.env));
 */
export function nodeServerOptionsFromEnv(env: Record<string, string | undefined>): NodeServerOptions {
  const options: NodeServerOptions = {};
  for (const [key, name] of Object.entries(ENV_NAMES) as [keyof NodeServerOptions, string][]) {
    const text = env[name];
    if (text === undefined || text === '') continue;
    if (!/^[0-9]+$/.test(text) || Number(text) <= 0) throw new TypeError(`${name} "${text}" is not a positive integer`);
    options[key] = Number(text);
  }
  return options;
}

/** What Node's parser reports, and the answer each gets (Node's own choice of status, with a body). */
const CLIENT_ERRORS: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'The request header fields are too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions of the request body are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request was not received in time.'],
};

const TITLES: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large', 501: 'Not Implemented' };

/**
 * Answers a request Node could not read (malformed, headers too large, too slow) with a problem
 * document, unless an answer is already under way on the connection or the client is gone; then
 * closes the connection (the parser cannot go on after an error).
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [status, detail] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is not valid HTTP/1.1.'];
  // Answers to the valid requests pipelined before the bad one go first, in order (RFC 9112 section
  // 9.3.2): the problem answer is written after the last of them, then the connection closes. A
  // timeout (408) ends a request that is itself in flight: its answer cannot be waited for.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    if (inFlightOf(socket)?.headersSent) return void socket.destroy();
    return closeWith(socket, status, detail);
  }
  afterAnswersInFlight(socket, () => (socket.writable ? closeWith(socket, status, detail) : socket.destroy()));
}

/** The answer node:http is writing on a connection now, if any. */
function inFlightOf(socket: Duplex): (ServerResponse & { finished?: boolean }) | undefined {
  return (socket as { _httpMessage?: ServerResponse })._httpMessage ?? undefined;
}

/**
 * Calls `then` once no answer is in flight on the connection: node:http hands the connection to the
 * next queued answer when one finishes, so each is waited for in turn. An answer already written
 * (`writableFinished`) is waited for too: node:http hands the connection on at its 'finish', and an
 * answer ended at once (a kept or synchronous one) may have the next one queued behind it. Bounded by
 * the request timeout of the server (an answer that never finishes is its to end).
 */
function afterAnswersInFlight(socket: Duplex, then: () => void): void {
  const current = inFlightOf(socket);
  if (current === undefined) return then();
  let waited = false;
  const next = () => {
    if (waited) return;
    waited = true;
    setImmediate(() => afterAnswersInFlight(socket, then));
  };
  current.once('finish', next);
  current.once('close', next);
}

/** Writes a problem answer straight to a connection, then closes it (RFC 9112 section 9.6). */
function closeWith(socket: Duplex, status: number, detail: string): void {
  const body = JSON.stringify({ type: 'about:blank', title: TITLES[status], status, detail });
  const head =
    `HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: application/problem+json\r\nCache-Control: no-store\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
  // A client that reads nothing never lets the answer finish: closed anyway.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
