// The PostgreSQL store's change feed: one pooled connection LISTENing on the channel the migration's
// triggers NOTIFY, so every instance on the database hears of every committed change of a player.
import type { Pool, PoolClient } from 'pg';
import type { ChangedPlayers } from '../contract.js';
import { CHANGE_CHANNEL } from './migrations.js';
import { checkOut } from './connections.js';

/** How long the feed waits before listening again after its connection failed. */
const RECONNECT_MS = 1000;

/**
 * Tells listeners the players changed by any instance (from NOTIFY) and by this one (told directly when
 * its own write commits, so a read after a write on the same instance never waits for the notice).
 * While the connection is down, listeners hear `'unknown'` (keep nothing); once it listens again, `'all'`.
 */
export class ChangeFeed {
  readonly #pool: Pool;
  readonly #schema: string;
  readonly #listeners = new Set<(changed: ChangedPlayers) => void>();
  #client: PoolClient | undefined;
  #listening = false;
  #starting = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(pool: Pool, schema: string) {
    this.#pool = pool;
    this.#schema = schema;
  }

  /** Adds a listener (starting the feed with the first one); returns a function that removes it. */
  add(listener: (changed: ChangedPlayers) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#listening) listener('unknown');
    if (!this.#starting && !this.#listening && this.#timer === undefined) void this.#listen();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.close();
    };
  }

  /** Tells the listeners of a change this instance committed. */
  tell(changed: ChangedPlayers): void {
    for (const listener of this.#listeners) listener(changed);
  }

  /** Stops listening and returns the connection to the pool. */
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
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      this.#client = client;
      this.#listening = true;
      this.#starting = false;
      if (this.#listeners.size === 0) return this.close();
      // Changes committed before LISTEN took effect were never heard: everything kept may be stale.
      this.tell('all');
    } catch (error) {
      this.#starting = false;
      client?.release(error instanceof Error ? error : true);
      this.#retry();
    }
  }

  #heard(channel: string, payload: string | undefined): void {
    if (channel !== CHANGE_CHANNEL || payload === undefined) return;
    const newline = payload.indexOf('\n');
    if (newline < 0 || payload.slice(0, newline) !== this.#schema) return;
    this.tell([payload.slice(newline + 1)]);
  }

  #fail(error: Error, client: PoolClient): void {
    // A session dropped before (its late errors) is no longer the feed's.
    if (client !== this.#client) return;
    this.#drop(error);
    this.tell('unknown');
    this.#retry();
  }

  #retry(): void {
    if (this.#listeners.size === 0 || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#listen();
    }, RECONNECT_MS);
    this.#timer.unref?.();
  }

  /** Releases the listening connection: destroyed after an error, else UNLISTENed back to the pool. */
  #drop(error: Error | undefined): void {
    const client = this.#client;
    this.#client = undefined;
    this.#listening = false;
    if (!client) return;
    client.removeAllListeners('notification');
    if (error) return client.release(error);
    client.query(`UNLISTEN ${CHANGE_CHANNEL}`).then(
      () => client.release(),
      (failure: Error) => client.release(failure),
    );
  }
}
