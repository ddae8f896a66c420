// Test helper: a raw HTTP/1.1 client on one keep-alive TCP connection, for what fetch would tidy away.
import { connect, type Socket } from 'node:net';

/** One answer read off the wire. */
export interface RawAnswer {
  status: number;
  /** Lower-case names; repeated fields joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The status line and header block as sent. */
  head: string;
}

/** A request to write: the request line's method and target, header fields, and an optional body. */
export interface RawRequest {
  method: string;
  target: string;
  /** Header fields in order; `Host` is added first unless given. */
  headers?: [string, string][];
  body?: string | Buffer;
}

/**
 * One TCP connection to a server, kept open between requests (HTTP/1.1 keep-alive). `send` writes bytes
 * exactly as given; `next` reads the next complete answer or rejects when none arrives in time (a hang).
 *
 * @example
 * const c = await RawConnection.open(origin);
 * c.send(c.format({ method: 'GET', target: '/player/alice' }));
 * const answer = await c.next();
 */
export class RawConnection {
  readonly #socket: Socket;
  readonly #host: string;
  #buffer = Buffer.alloc(0);
  #ended = false;
  #wake: (() => void) | undefined;
  /** The statuses of the interim (1xx) answers read so far, in order. */
  readonly interim: number[] = [];
  /** Methods of the requests sent, in order: a HEAD's answer has no body whatever its Content-Length says. */
  readonly #sent: string[] = [];

  private constructor(socket: Socket, host: string) {
    this.#socket = socket;
    this.#host = host;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    const end = () => {
      this.#ended = true;
      this.#wake?.();
    };
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', end);
  }

  /** Opens a connection to `origin` (http://host:port). */
  static open(origin: string): Promise<RawConnection> {
    const url = new URL(origin);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => resolve(new RawConnection(socket, url.host)));
      socket.once('error', reject);
    });
  }

  /** The bytes of a request: the request line, Host (unless given), the fields, Content-Length for a body. */
  format(request: RawRequest): Buffer {
    const fields = request.headers ?? [];
    const lines = [`${request.method} ${request.target} HTTP/1.1`];
    if (!fields.some(([name]) => name.toLowerCase() === 'host')) lines.push(`Host: ${this.#host}`);
    for (const [name, value] of fields) lines.push(`${name}: ${value}`);
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    if (body && !fields.some(([name]) => /^(content-length|transfer-encoding)$/i.test(name))) lines.push(`Content-Length: ${body.byteLength}`);
    const head = Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1');
    return body ? Buffer.concat([head, body]) : head;
  }

  /** Writes raw bytes (a request, part of one, or garbage) and remembers the method for reading its answer. */
  send(bytes: string | Buffer, method?: string): void {
    const data = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
    this.#sent.push(method ?? /^([A-Z]+) /.exec(data.subarray(0, 16).toString('latin1'))?.[1] ?? 'GET');
    this.#socket.write(data);
  }

  /** Formats and sends a request, then reads its answer. */
  async request(request: RawRequest, timeoutMs = 2000): Promise<RawAnswer> {
    this.send(this.format(request), request.method);
    return this.next(timeoutMs);
  }

  /** The next complete answer; rejects with "no answer" after `timeoutMs`, or when the server closed first. */
  async next(timeoutMs = 2000): Promise<RawAnswer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = this.#parse();
      if (answer) return answer;
      if (this.#ended) throw new Error(`connection closed before a complete answer (${this.#buffer.length} bytes buffered)`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no answer within ${timeoutMs} ms (${this.#buffer.length} bytes buffered)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  /** Reads what has arrived (interim answers included) until `condition` holds or `timeoutMs` passes. */
  async until(condition: () => boolean, timeoutMs = 2000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.#parse();
      if (condition()) return true;
      if (this.#ended || Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** True when the server closed the connection within `timeoutMs`. */
  async closed(timeoutMs = 2000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.#ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    return this.#ended;
  }

  /** Closes the connection from this side. */
  close(): void {
    this.#socket.destroy();
  }

  #parse(): RawAnswer | undefined {
    const end = this.#buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = this.#buffer.subarray(0, end).toString('latin1');
    const [statusLine, ...lines] = head.split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    // 1xx answers are interim: skipped (their statuses kept in `interim`), the final answer follows.
    if (status >= 100 && status < 200) {
      this.interim.push(status);
      this.#buffer = this.#buffer.subarray(end + 4);
      return this.#parse();
    }
    const method = this.#sent[0];
    const start = end + 4;
    let body: Buffer;
    let rest: number;
    if (method === 'HEAD' || status === 204 || status === 304) {
      body = Buffer.alloc(0);
      rest = start;
    } else if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const chunks: Buffer[] = [];
      let at = start;
      for (;;) {
        const lineEnd = this.#buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(this.#buffer.subarray(at, lineEnd).toString('latin1'), 16);
        if (size === 0) {
          const trailerEnd = this.#buffer.indexOf('\r\n\r\n', lineEnd);
          if (trailerEnd < 0 && this.#buffer.length < lineEnd + 4) return undefined;
          rest = trailerEnd < 0 ? lineEnd + 4 : trailerEnd + 4;
          break;
        }
        if (this.#buffer.length < lineEnd + 2 + size + 2) return undefined;
        chunks.push(this.#buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(chunks);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (this.#buffer.length < start + length) return undefined;
      body = this.#buffer.subarray(start, start + length);
      rest = start + length;
    } else {
      // Delimited by the end of the connection (RFC 9112 section 6.3, rule 8).
      if (!this.#ended) return undefined;
      body = this.#buffer.subarray(start);
      rest = this.#buffer.length;
    }
    this.#buffer = this.#buffer.subarray(rest);
    this.#sent.shift();
    return { status, headers, body: Buffer.from(body), head };
  }
}
