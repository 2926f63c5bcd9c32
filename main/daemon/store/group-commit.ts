/**
 * Group commit (issue 30): every FULL write of one event-loop turn shares ONE fsync of the WAL,
 * done on libuv's thread pool instead of the daemon's main thread.
 *
 * Why this keeps the guarantees of durability.ts, step by step (SQLite 3, WAL mode, wal.c):
 * - In WAL mode a commit only appends frames to the `-wal` file; the database file is written
 *   only by checkpoints, which sync the WAL and then the database themselves in every
 *   synchronous mode but OFF. `synchronous=FULL` differs from `NORMAL` at a commit by exactly
 *   one thing: after appending, `sqlite3WalFrames` syncs the WAL file (`sqlite3OsSync`; the
 *   sector padding before it is skipped on powersafe-overwrite devices, SQLite's default). So a
 *   NORMAL commit followed by an fsync of the WAL file is, on disk, the FULL commit.
 * - fsync/fdatasync of a file makes durable every write() to it that returned before the call
 *   began, through any descriptor of that file. A commit on the main thread returns after its
 *   write()s; the sync of its batch is started later, from the main thread, so it covers it —
 *   and every earlier commit, NORMAL ones included (the prefix rule of durability.ts holds).
 * - The WAL is one file for the connection's life: SQLite deletes it only when the last
 *   connection closes (the daemon's stays open; `close()` syncs first), and a WAL restart after a
 *   checkpoint rewrites it in place with a header SQLite syncs itself in NORMAL too (wal.c
 *   `syncHeader`, ticket ff5be73dee); committed frames are never rewritten before a checkpoint
 *   copied them into the synced database file. The descriptor opened here after the migrations
 *   is therefore the file every later commit appends to.
 * - Nobody is told before the sync: a caller answers outside the daemon only after
 *   `whenDurable()` resolves (the API answers, pushes and tool results wait for it). A process
 *   crash loses nothing committed (the page cache keeps it); an OS crash or power loss loses only
 *   commits whose batch had not synced — whose callers were not answered yet.
 * - A failed sync rejects every waiter of its batch (nothing is claimed durable); what earlier
 *   batches made durable stays so. Like SQLite's own failed FULL commit, the rows stay visible;
 *   and as there, after a failed fsync the OS may have dropped those pages, so a later successful
 *   sync does not prove them written (the callers of the failed batch were told it failed).
 */
import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { StoreError } from './store-errors.js';

/** Syncs the WAL's data (fdatasync); tests inject a slow or failing one. */
export type WalSync = (fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void;

/** The FULL commits waiting for one sync, and the promise their callers wait on. */
interface Batch {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (err: Error) => void;
}

const DURABLE: Promise<void> = Promise.resolve();

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody waits on must not become an unhandled rejection; waiters still see the error.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class GroupCommit {
  #fd: number;
  /** FULL commits made since the last sync started: they share the next sync. */
  #pending: Batch | null = null;
  /** The sync running on the thread pool, and the commits it covers. */
  #inFlight: Batch | null = null;
  #scheduled = false;
  #syncs = 0;
  #closed = false;

  private constructor(
    private readonly walPath: string,
    fd: number,
    private readonly sync: WalSync,
    private readonly onFailure: (err: StoreError) => void,
  ) {
    this.#fd = fd;
  }

  /**
   * Opens the connection's WAL file for syncing, or null when there is none (the file system
   * gave no WAL: the store keeps synchronous=FULL on its own commits).
   */
  static open(walPath: string, options: { sync?: WalSync; onFailure: (err: StoreError) => void }): GroupCommit | null {
    let fd: number;
    try {
      // r+: never create it (a WAL that is not there is not ours to make); write access for Windows' FlushFileBuffers.
      fd = openSync(walPath, 'r+');
    } catch {
      return null;
    }
    return new GroupCommit(walPath, fd, options.sync ?? fdatasync, options.onFailure);
  }

  /** WAL syncs started since open: one per batch, however many FULL commits it covers. */
  get syncs(): number {
    return this.#syncs;
  }

  /** A FULL commit just returned (synchronous=NORMAL): it joins the batch synced at the end of this turn. */
  committed(): void {
    if (this.#closed) return;
    if (this.#pending === null) this.#pending = newBatch();
    if (this.#inFlight === null) this.#schedule();
  }

  /** Resolves once every FULL commit made before this call is on disk; rejects if its sync failed. */
  whenDurable(): Promise<void> {
    // A commit made while a sync runs is in `#pending`; with none pending, the last ones are in flight.
    return (this.#pending ?? this.#inFlight)?.promise ?? DURABLE;
  }

  /** True while some FULL commit is not yet known durable. */
  get waiting(): boolean {
    return this.#pending !== null || this.#inFlight !== null;
  }

  /**
   * Syncs what is pending on the calling thread and stops; idempotent. The store calls it before
   * closing the connection, so no commit it answered for is left unsynced.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const pending = this.#pending;
    this.#pending = null;
    if (pending !== null) {
      try {
        fdatasyncSync(this.#fd);
        pending.resolve();
      } catch (err) {
        pending.reject(this.#failure(err as NodeJS.ErrnoException));
      }
    }
    // A sync still on the thread pool uses the descriptor: it is closed when that sync returns.
    if (this.#inFlight === null) closeSync(this.#fd);
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // The end of this turn: after every I/O callback the loop runs now, so they share the sync.
    setImmediate(() => {
      this.#scheduled = false;
      this.#start();
    });
  }

  #start(): void {
    const batch = this.#pending;
    if (batch === null || this.#inFlight !== null || this.#closed) return;
    this.#pending = null;
    this.#inFlight = batch;
    this.#syncs += 1;
    this.sync(this.#fd, (err) => {
      this.#inFlight = null;
      if (err === null) batch.resolve();
      else batch.reject(this.#failure(err));
      if (this.#closed) closeSync(this.#fd);
      else if (this.#pending !== null) this.#schedule();
    });
  }

  #failure(err: NodeJS.ErrnoException): StoreError {
    const failure = new StoreError(
      'store_sync_failed',
      `Could not make the store's last writes durable (fsync of ${this.walPath}: ${err.code ?? err.message}). They are stored but may not survive a power loss; check the disk (space, errors).`,
    );
    this.onFailure(failure);
    return failure;
  }
}
