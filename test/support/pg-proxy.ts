// A TCP proxy in front of PostgreSQL that can lie the way networks and servers do: end sessions with
// FATAL 57P01 right behind a query's answer, or black-hole connections (no reset, nothing delivered).
import { createServer, connect, type Server, type Socket } from 'node:net';

/** One proxied session: both sockets and what the proxy does to it. */
interface Session {
  client: Socket;
  server: Socket;
  /** Server bytes not yet forwarded because they do not end a whole message. */
  pending: Buffer;
  /** End the session with FATAL 57P01 right after the next ReadyForQuery, in the same write. */
  terminateAfterReady: boolean;
  /** Forward nothing more in either direction, and close nothing. */
  blackHoled: boolean;
  /** The client sent a LISTEN on this session (a change feed's). */
  listens: boolean;
}

/** The proxy: its URL for node-postgres, and the faults it injects. */
export interface PostgresProxy {
  url: string;
  /** Open sessions right now. */
  readonly sessions: number;
  /** Open sessions right now that sent LISTEN (change feeds). */
  readonly listening: number;
  /**
   * Every open session ends as PostgreSQL ends it at a fast shutdown or pg_terminate_backend: the next
   * answer to a query is followed, in the same TCP segment, by `ErrorResponse(FATAL, 57P01)`, then the
   * connection closes. Resolves once every session so armed has ended.
   */
  terminateAll(): Promise<void>;
  /**
   * Black-holes the sessions chosen by `which` (all by default): bytes are no longer forwarded either way
   * and nothing is closed, as a NAT or firewall that forgot the connection does.
   */
  blackHole(which?: (index: number) => boolean): number;
  /** Black-holes the sessions that sent LISTEN (change feeds); returns how many. */
  blackHoleListeners(): number;
  close(): Promise<void>;
}

/** PostgreSQL's ErrorResponse for "terminating connection due to administrator command". */
function fatal57P01(): Buffer {
  const fields = ['SFATAL', 'VFATAL', 'C57P01', 'Mterminating connection due to administrator command'];
  const body = Buffer.concat([...fields.map((f) => Buffer.from(f + '\0', 'utf8')), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * Starts a proxy on a free port of 127.0.0.1 to the PostgreSQL server of `target` (a postgres:// URL);
 * its `url` is the same URL through the proxy.
 *
 * @example
 * const proxy = await startPostgresProxy(db.url);
 * const store = new PostgresPlayerStore({ connectionString: proxy.url });
 * await proxy.terminateAll();
 */
export async function startPostgresProxy(target: string): Promise<PostgresProxy> {
  const upstream = new URL(target);
  const sessions = new Set<Session>();
  const server: Server = createServer((client) => {
    const session: Session = {
      client,
      server: connect(Number(upstream.port), upstream.hostname),
      pending: Buffer.alloc(0),
      terminateAfterReady: false,
      blackHoled: false,
      listens: false,
    };
    sessions.add(session);
    client.setNoDelay(true);
    session.server.setNoDelay(true);
    const end = () => {
      sessions.delete(session);
      client.destroy();
      session.server.destroy();
    };
    client.on('error', end).on('close', end);
    session.server.on('error', end).on('close', end);
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes('LISTEN ')) session.listens = true;
      if (!session.blackHoled) session.server.write(chunk);
    });
    session.server.on('data', (chunk: Buffer) => forward(session, chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;

  /** Forwards whole server messages; an armed session's ReadyForQuery is followed by FATAL and the end. */
  function forward(session: Session, chunk: Buffer): void {
    if (session.blackHoled) return;
    let buffer = session.pending.length ? Buffer.concat([session.pending, chunk]) : chunk;
    let offset = 0;
    while (buffer.length - offset >= 5) {
      const length = buffer.readInt32BE(offset + 1) + 1;
      if (buffer.length - offset < length) break;
      const type = String.fromCharCode(buffer[offset]!);
      offset += length;
      if (type === 'Z' && session.terminateAfterReady) {
        session.client.end(Buffer.concat([buffer.subarray(0, offset), fatal57P01()]));
        session.server.destroy();
        session.pending = Buffer.alloc(0);
        return;
      }
    }
    if (offset > 0) session.client.write(buffer.subarray(0, offset));
    session.pending = Buffer.from(buffer.subarray(offset));
    buffer = session.pending;
  }

  return {
    url: url.toString(),
    get sessions() {
      return sessions.size;
    },
    async terminateAll() {
      const armed = [...sessions];
      for (const s of armed) s.terminateAfterReady = true;
      const deadline = Date.now() + 10_000;
      while (armed.some((s) => sessions.has(s)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      // A session idle the whole time never answers again: PostgreSQL would have ended it anyway.
      for (const s of armed) if (sessions.has(s)) s.client.end(fatal57P01());
    },
    blackHole(which = () => true) {
      let count = 0;
      [...sessions].forEach((s, i) => {
        if (which(i)) {
          s.blackHoled = true;
          count++;
        }
      });
      return count;
    },
    get listening() {
      let count = 0;
      for (const s of sessions) if (s.listens) count++;
      return count;
    },
    blackHoleListeners() {
      let count = 0;
      for (const s of sessions) {
        if (s.listens && !s.blackHoled) {
          s.blackHoled = true;
          count++;
        }
      }
      return count;
    },
    async close() {
      for (const s of sessions) {
        s.client.destroy();
        s.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
