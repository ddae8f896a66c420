// An access log for node:http servers: one JSON line per request, written once the answer is sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticate } from '../core/service/credentials.js';

/**
 * How much the log says: `info` a line per request, `error` only answers of 500 and above,
 * `silent` nothing.
 *
 * @example
 * const level: AccessLogLevel = 'info';
 */
export type AccessLogLevel = 'info' | 'error' | 'silent';

/**
 * Options of `withAccessLog`.
 *
 * @example
 * const options: AccessLogOptions = { level: 'error', write: (line) => logs.push(line) };
 */
export interface AccessLogOptions {
  /** The least level written (default `info`). */
  level?: AccessLogLevel;
  /** Names the principal of a request with Authorization (the service's hook); the token is never written. */
  authenticate?: Authenticate;
  /** Where each line goes (default standard output). */
  write?: (line: string) => void;
}

/**
 * The access log level named by LOG_LEVEL (`info`, `error`, `silent`; `debug` reads as `info`, `warn`
 * as `error`); `info` when unset.
 *
 * @example
 * accessLogLevel({ LOG_LEVEL: 'silent' }); // 'silent'
 */
export function accessLogLevel(env: Readonly<Record<string, string | undefined>>): AccessLogLevel {
  const level = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (level === 'silent' || level === 'off') return 'silent';
  if (level === 'error' || level === 'warn' || level === 'fatal') return 'error';
  return 'info';
}

/**
 * Wraps a node:http request listener so that each request is logged as one JSON line when its answer
 * has been sent (or the connection closed first): time, level, method, path (the request target),
 * status, durationMs, bytes (sent on the connection for this answer, head and body) and the principal's id when
 * Authorization names one. Tokens and other header fields are never written.
 *
 * @example
 * server.on('request', withAccessLog(toNodeListener(service), { authenticate: bearerTokens(tokens) }));
 * // {"time":"2026-11-25T03:50:00.000Z","level":"info","msg":"request","method":"GET","path":"/player/alice","status":200,"durationMs":0.8,"bytes":612}
 */
export function withAccessLog(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: AccessLogOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const level = options.level ?? 'info';
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  if (level === 'silent') return listener;
  return (req, res) => {
    const started = performance.now();
    const socket = req.socket;
    const sentBefore = socket.bytesWritten;
    const authorization = req.headers.authorization;
    const done = () => {
      res.off('finish', done);
      res.off('close', done);
      const status = res.statusCode;
      const lineLevel = status >= 500 ? 'error' : 'info';
      if (level === 'error' && lineLevel !== 'error') return;
      const line: Record<string, unknown> = {
        time: new Date().toISOString(),
        level: lineLevel,
        msg: res.writableFinished ? 'request' : 'request aborted',
        method: req.method,
        path: req.url,
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        // What went out on the connection for this answer: its head and body.
        bytes: socket.bytesWritten - sentBefore,
      };
      void principalOf(authorization, options.authenticate).then((id) => {
        if (id !== undefined) line.principal = id;
        write(JSON.stringify(line));
      });
    };
    res.on('finish', done);
    res.on('close', done);
    listener(req, res);
  };
}

/** The id the hook gives the request's credentials, or undefined (none, invalid, or the hook failed). */
async function principalOf(authorization: string | undefined, authenticate: Authenticate | undefined): Promise<string | undefined> {
  if (authorization === undefined || authenticate === undefined) return undefined;
  try {
    const principal = await authenticate(new Request('http://log.invalid/', { headers: { authorization } }));
    return principal?.id;
  } catch {
    return undefined;
  }
}
