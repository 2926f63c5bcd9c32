/**
 * One writer per data dir (issue 3). Mutual exclusion comes from an operating-system lock,
 * not from a pid file: a tiny SQLite file opened with `locking_mode=EXCLUSIVE` and an exclusive
 * transaction holds a POSIX/Windows file lock for as long as the connection lives. The kernel
 * drops that lock when the process dies however it dies (SIGKILL, crash, power cut), so
 * - a lock left by a killed process is never stale: the next starter simply gets it;
 * - pid reuse cannot matter: liveness is never inferred from a pid;
 * - two starters racing: the kernel grants the lock to exactly one of them.
 * The pid file next to it is information only (it names the holder in the error message).
 */
import { DatabaseSync } from 'node:sqlite';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError, StoreLockedError } from './store-errors.js';

const LOCK_FILE = 'writer.lock';
export const LOCK_OWNER_FILE = 'writer.lock.owner.json';

/** SQLITE_BUSY / SQLITE_LOCKED: someone else holds the lock. */
const BUSY_CODES = new Set([5, 6]);

interface LockOwner {
  readonly pid: number;
  readonly startedAt: string;
}

export class WriterLock {
  private db: DatabaseSync | null;

  private constructor(
    private readonly dataDir: string,
    db: DatabaseSync,
  ) {
    this.db = db;
  }

  /** Takes the data dir's writer lock or throws `StoreLockedError` naming the holder. */
  static acquire(dataDir: string, now: Date): WriterLock {
    const path = join(dataDir, LOCK_FILE);
    let db: DatabaseSync;
    try {
      db = new DatabaseSync(path, { timeout: 0 });
    } catch (err) {
      throw new StoreError(
        'store_unopenable',
        `Cannot open ${path}: ${(err as Error).message}. Check that the data dir is writable.`,
      );
    }
    try {
      // No journal: nothing is ever written; the exclusive transaction only takes the file lock,
      // and locking_mode=EXCLUSIVE keeps it after COMMIT until the connection closes.
      db.exec('PRAGMA journal_mode=OFF; PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;');
    } catch (err) {
      db.close();
      const errcode = (err as { errcode?: number }).errcode;
      if (errcode !== undefined && BUSY_CODES.has(errcode)) throw new StoreLockedError(dataDir, readOwnerPid(dataDir));
      throw new StoreError('store_unopenable', `Cannot lock ${path}: ${(err as Error).message}.`);
    }
    const owner: LockOwner = { pid: process.pid, startedAt: now.toISOString() };
    // Write-then-rename so a concurrent reader never sees a half-written owner file.
    const ownerPath = join(dataDir, LOCK_OWNER_FILE);
    const tmp = `${ownerPath}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, `${JSON.stringify(owner)}\n`, { mode: 0o600 });
      renameSync(tmp, ownerPath);
    } catch (err) {
      db.close();
      rmSync(tmp, { force: true });
      throw new StoreError(
        'store_unopenable',
        `Cannot write ${ownerPath}: ${(err as Error).message}. Check that the data dir is writable and not full.`,
      );
    }
    return new WriterLock(dataDir, db);
  }

  get held(): boolean {
    return this.db !== null;
  }

  /** Releases the lock; idempotent. */
  release(): void {
    if (this.db === null) return;
    // Remove the owner file first, while we still hold the lock, so it never names a dead holder
    // after a clean shutdown (after a SIGKILL it may; it is information only).
    rmSync(join(this.dataDir, LOCK_OWNER_FILE), { force: true });
    this.db.close();
    this.db = null;
  }
}

/** The pid recorded by the current holder, if it has written one and it is still running. */
function readOwnerPid(dataDir: string): number | null {
  try {
    const owner = JSON.parse(readFileSync(join(dataDir, LOCK_OWNER_FILE), 'utf8')) as Partial<LockOwner>;
    if (typeof owner.pid !== 'number' || !Number.isInteger(owner.pid) || owner.pid <= 0) return null;
    // The holder may not have written its own file yet (it is between lock and write): an owner
    // file naming a dead process is a leftover, not the holder.
    return isRunning(owner.pid) ? owner.pid : null;
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
