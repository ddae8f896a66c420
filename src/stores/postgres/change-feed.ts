// The PostgreSQL store's change feed: one pooled connection LISTENing on the channel the migrations'
// triggers NOTIFY for its schema, so every instance on the schema hears of every committed change of an
// item, and a heartbeat through that same connection that proves it still hears them.
import type { Pool, PoolClient } from 'pg';
import type { StoredItem } from '../../core/model/documents.js';
import type { ChangeListener, Changes, CurrentRecords } from '../contract.js';
import { ListenedChannels, listenedChannels } from './channels.js';
import { checkOut } from './connections.js';
import { WriteEchoes, type WriteTicket } from './write-echoes.js';

/** How long the feed waits before listening again after its connection failed. */
const RECONNECT_MS = 1000;

/**
 * How the feed proves it is live. Every `heartbeatMs` it NOTIFYs a channel of its own through its
 * listening connection; PostgreSQL delivers a session's notifications in commit order, so hearing the
 * heartbeat sent at S means every change committed before S was heard. What was kept is then vouched
 * for until S + `maxStalenessMs` (a `ChangeLease`); a heartbeat not heard by then ends the connection,
 * the listeners hear `'unknown'`, and the feed listens again.
 *
 * @example
 * const timing: ChangeFeedTiming = { heartbeatMs: 500, maxStalenessMs: 2000 };
 */
export interface ChangeFeedTiming {
  /** How often a heartbeat is sent; default 500. */
  heartbeatMs?: number;
  /**
   * The longest a change committed on another instance may go unheard before this instance stops
   * trusting what it kept (and reads the store instead); default 2000. At least twice `heartbeatMs`.
   */
  maxStalenessMs?: number;
}

/**
 * Tells listeners the items changed by any instance (from NOTIFY) and by this one (told directly when
 * its own write commits, with the records it left while they are current, so a read after a write on
 * the same instance never waits for the notice, nor reads them again; the write's own notice, its echo,
 * is then not told again: `WriteEchoes`). While the connection is down or not known to be live,
 * listeners hear `'unknown'` (keep nothing); once it listens again, `'all'`, then a lease with every
 * heartbeat heard.
 */
export class ChangeFeed {
  readonly #pool: Pool;
  readonly #schema: string;
  readonly #listeners = new Set<ChangeListener>();
  readonly #echoes = new WriteEchoes();
  readonly #heartbeatMs: number;
  readonly #maxStalenessMs: number;
  /** This feed's own heartbeat channel (a NOTIFY heard by this session only). */
  readonly #beatChannel = `player_hypermedia_beat_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  /** The channels of changes the session listens to (`listenedChannels`). */
  #channels?: ListenedChannels;
  #client: PoolClient | undefined;
  #listening = false;
  #starting = false;
  /** The store is closing (`end`): no session is opened again, and one being opened is dropped once open. */
  #ended = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #beats: ReturnType<typeof setInterval> | undefined;
  /** Heartbeats sent and not yet heard: sequence number to the time it was sent. */
  readonly #sent = new Map<number, number>();
  #sequence = 0;
  /** When the last heartbeat heard (or the LISTEN that started the session) was sent. */
  #confirmedAt = 0;
  /** A heartbeat's NOTIFY has not completed yet (one statement at a time on a connection). */
  #beating = false;
  /** Heartbeats heard while notices were held: each confirms once those are told (`WriteEchoes.settled`). */
  readonly #waiting: { sentAt: number; upTo: number }[] = [];

  constructor(pool: Pool, schema: string, timing: ChangeFeedTiming = {}) {
    this.#pool = pool;
    this.#schema = schema;
    this.#heartbeatMs = timing.heartbeatMs ?? 500;
    this.#maxStalenessMs = Math.max(timing.maxStalenessMs ?? 2000, 2 * this.#heartbeatMs);
  }

  /** Adds a listener (starting the feed with the first one); returns a function that removes it. */
  add(listener: ChangeListener): () => void {
    this.#listeners.add(listener);
    if (!this.#listening) listener('unknown');
    if (!this.#ended && !this.#starting && !this.#listening && this.#timer === undefined) void this.#listen();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.close();
    };
  }

  /** Whether the feed is listening and its last heartbeat was heard within the staleness bound. */
  get live(): boolean {
    return this.#listening && Date.now() < this.#confirmedAt + this.#maxStalenessMs;
  }

  /**
   * A write of this instance of the items `keys` begins; `tellWrite` or `abandon` ends it. Undefined
   * while the feed does not listen (the listeners heard `'unknown'`, and hear `'all'` before anything
   * is kept again), or while no listener wants records: no notice is held then, and the write's echo
   * is told like any notice.
   */
  begin(keys: readonly string[]): WriteTicket | undefined {
    return this.#listening && this.#wantsRecords() ? this.#echoes.begin(keys) : undefined;
  }

  /** Whether a listener would keep records handed on (`ChangeListener.wantsRecords`; unsaid: yes). */
  #wantsRecords(): boolean {
    for (const listener of this.#listeners) if (listener.wantsRecords?.() ?? true) return true;
    return false;
  }

  /**
   * Tells the listeners of a change this instance committed (begun with `begin`), with those of
   * `records` (what it left or read, by item key) no notice heard since may have made stale; their
   * echoes are not told again. `lists`: what it did to their lists, when known (see `CurrentRecords`);
   * `handOn`: the one record to hand on, when not all.
   */
  tellWrite(ticket: WriteTicket | undefined, changed: Changes, records?: ReadonlyMap<string, StoredItem>, lists?: CurrentRecords['lists'], handOn?: string): void {
    if (ticket === undefined) return this.#tell(changed);
    const { current, release } = this.#echoes.end(ticket, records, handOn);
    this.#tell(changed, current && { records: current, lists });
    this.#released(release);
  }

  /** A write begun with `begin` failed (or told nothing): the notices it held are told. */
  abandon(ticket: WriteTicket | undefined): void {
    if (ticket !== undefined && !ticket.ended) this.#released(this.#echoes.end(ticket).release);
  }

  #released(keys: string[]): void {
    if (keys.length > 0) this.#tell(keys);
    const waiting = this.#waiting;
    while (waiting.length > 0 && this.#echoes.settled(waiting[0]!.upTo)) this.#confirmNow(waiting.shift()!.sentAt);
  }

  #tell(changed: Changes, current?: CurrentRecords): void {
    for (const listener of this.#listeners) listener(changed, current);
  }

  /**
   * Stops listening for good (the store is closing): also a session still being opened, which would
   * otherwise keep a connection checked out of the pool and the pool's end waiting.
   */
  end(): void {
    this.#ended = true;
    this.close();
  }

  /** Stops listening and ends its connection. */
  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#drop(undefined);
  }

  async #listen(): Promise<void> {
    this.#starting = true;
    let client: PoolClient | undefined;
    try {
      const listening = await checkOut(this.#pool);
      client = listening;
      client.on('notification', (message) => this.#heard(message.channel, message.payload));
      client.on('error', (error) => this.#fail(error, listening));
      // Set before LISTEN: a notice may come before the LISTEN's own answer.
      this.#channels = await listenedChannels(client, this.#schema);
      const started = Date.now();
      await client.query([...this.#channels.names, this.#beatChannel].map((name) => `LISTEN ${name}`).join('; '));
      this.#client = client;
      this.#listening = true;
      this.#starting = false;
      if (this.#listeners.size === 0 || this.#ended) return this.close();
      // Changes committed before LISTEN took effect were never heard: everything kept may be stale.
      this.#echoes.clear();
      this.#tell('all');
      this.#confirm(started);
      this.#beats = setInterval(() => this.#beat(listening), this.#heartbeatMs);
      this.#beats.unref?.();
    } catch (error) {
      this.#starting = false;
      if (client && client !== this.#client) client.release(error instanceof Error ? error : true);
      this.#retry();
    }
  }

  /** One heartbeat: ends the session when the last one heard is too old, else sends the next. */
  #beat(client: PoolClient): void {
    if (client !== this.#client) return;
    const now = Date.now();
    if (now >= this.#confirmedAt + this.#maxStalenessMs) {
      return this.#fail(new Error(`the change feed heard no heartbeat for ${now - this.#confirmedAt} ms`), client);
    }
    // A notice held for a slow write longer than a quarter of the staleness bound is told now (the
    // lease waits for it).
    if (this.#echoes.holding) this.#released(this.#echoes.releaseHeld(now - this.#maxStalenessMs / 4));
    if (this.#beating) return;
    const sequence = ++this.#sequence;
    this.#sent.set(sequence, now);
    this.#beating = true;
    // Sent through the listening session itself: it proves the whole path a notice takes to it.
    client.query(`NOTIFY ${this.#beatChannel}, '${sequence}'`).then(
      () => {
        if (client === this.#client) this.#beating = false;
      },
      (error: Error) => this.#fail(error, client),
    );
  }

  #heard(channel: string, payload: string | undefined): void {
    if (payload === undefined) return;
    if (channel === this.#beatChannel) {
      const sequence = Number(payload);
      const sentAt = this.#sent.get(sequence);
      if (sentAt === undefined) return;
      for (const older of this.#sent.keys()) {
        if (older > sequence) break;
        this.#sent.delete(older);
      }
      return this.#confirm(sentAt);
    }
    const told: string[] = [];
    for (const [key, revision] of this.#channels?.changes(channel, payload) ?? []) if (this.#echoes.heard(key, revision) === 'tell') told.push(key);
    if (told.length > 0) this.#tell(told);
  }

  /** Every change committed before `sentAt` has been heard: kept answers hold until the staleness bound after it. */
  #confirm(sentAt: number): void {
    if (sentAt <= this.#confirmedAt) return;
    // A notice held for a write in flight has not been told: the lease waits until every notice held
    // when the heartbeat was heard is (the later ones were committed after the heartbeat).
    const upTo = this.#echoes.lastHeld;
    if (!this.#echoes.settled(upTo)) {
      this.#waiting.push({ sentAt, upTo });
      return;
    }
    this.#waiting.length = 0; // every notice held before is told: they are all settled
    this.#confirmNow(sentAt);
  }

  #confirmNow(sentAt: number): void {
    if (sentAt <= this.#confirmedAt) return;
    this.#confirmedAt = sentAt;
    this.#tell({ trustUntil: sentAt + this.#maxStalenessMs });
  }

  #fail(error: Error, client: PoolClient): void {
    // A session dropped before (its late errors) is no longer the feed's.
    if (client !== this.#client) return;
    this.#drop(error);
    this.#tell('unknown');
    this.#retry();
  }

  #retry(): void {
    if (this.#listeners.size === 0 || this.#ended || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#listen();
    }, RECONNECT_MS);
    this.#timer.unref?.();
  }

  /**
   * Discards the listening connection rather than pooling it (a session that listened is not one to
   * hand out for queries), its socket destroyed too: a black-holed one would otherwise keep the pool's
   * end waiting until TCP gives up.
   */
  #drop(error: Error | undefined): void {
    const client = this.#client;
    this.#client = undefined;
    this.#listening = false;
    this.#beating = false;
    this.#echoes.clear();
    this.#waiting.length = 0;
    clearInterval(this.#beats);
    this.#beats = undefined;
    this.#sent.clear();
    if (!client) return;
    client.removeAllListeners('notification');
    client.release(error ?? true);
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}

/**
 * Runs a write of the items `keys` on a store with `feed` (or none): the feed holds the notices naming
 * them meanwhile (one may be the write's own echo, `ChangeFeed.begin`) and tells them once it ends,
 * after the write's own notice (`ChangeFeed.tellWrite`, given the ticket) when it committed.
 *
 * @example
 * return writing(feed, ['player/alice'], async (ticket) => { const item = await update(); feed?.tellWrite(ticket, ['player/alice']); return item; });
 */
export async function writing<T>(feed: ChangeFeed | undefined, keys: readonly string[], work: (ticket: WriteTicket | undefined) => Promise<T>): Promise<T> {
  const ticket = feed?.begin(keys);
  try {
    return await work(ticket);
  } finally {
    feed?.abandon(ticket);
  }
}
