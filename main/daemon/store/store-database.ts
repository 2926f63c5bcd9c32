/**
 * Opening the store's database file: the writer takes the data dir's writer lock, sets the
 * durability pragmas (issue 3: WAL, synchronous=FULL) and migrates; a reader takes no lock and
 * only checks the schema version. Every failure is a StoreError a person can act on.
 */
import { DatabaseSync } from 'node:sqlite';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DaemonLog } from '../daemon-log.js';
import { migrate, SCHEMA_VERSION } from './migrations.js';
import { StoreError } from './store-errors.js';
import { WriterLock } from './writer-lock.js';

export const DB_FILE = 'agentteam.db';

/**
 * Opens (creating if needed) the database of a data dir for writing, holding its writer lock.
 * @throws StoreLockedError (`store_locked`); StoreError (`store_too_new`, `store_unopenable`).
 */
export function openWritable(
  dataDir: string,
  now: Date,
  log: DaemonLog | undefined,
): { db: DatabaseSync; lock: WriterLock; walPath: string | null } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lock = WriterLock.acquire(dataDir, now);
  const path = join(dataDir, DB_FILE);
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(path, { enableForeignKeyConstraints: true, timeout: 5000 });
    const mode = db.prepare('PRAGMA journal_mode=WAL').get()?.journal_mode;
    if (mode !== 'wal')
      log?.warn('store: WAL is not available on this file system; using rollback journal', { path, mode });
    // Issue 3: synchronous=FULL for messages and wake events (and everything else: one connection).
    db.exec('PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;');
    migrate(db, path, log);
    // issue 30: the WAL file group commit syncs (group-commit.ts); none without WAL.
    return { db, lock, walPath: mode === 'wal' ? `${path}-wal` : null };
  } catch (err) {
    db?.close();
    lock.release();
    if (err instanceof StoreError) throw err;
    throw new StoreError(
      'store_unopenable',
      `Cannot open the store ${path}: ${(err as Error).message}. Move the file aside to start with an empty store.`,
    );
  }
}

/**
 * Opens an existing database read-only, without the writer lock (WAL lets it see every committed
 * write without blocking the writer).
 * @throws StoreError `store_missing`, `store_outdated` / `store_too_new` (only the writer migrates), `store_unopenable`.
 */
export function openReadable(dataDir: string): DatabaseSync {
  const path = join(dataDir, DB_FILE);
  if (!existsSync(path))
    throw new StoreError(
      'store_missing',
      `There is no store at ${path} yet; start AgentTeam with --data-dir ${dataDir} first.`,
    );
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
    const version = Number(db.prepare('PRAGMA user_version').get()?.user_version ?? 0);
    if (version < SCHEMA_VERSION)
      throw new StoreError(
        'store_outdated',
        `The store ${path} has schema version ${version}, older than this AgentTeam (${SCHEMA_VERSION}); start the daemon once to migrate it.`,
      );
    if (version > SCHEMA_VERSION)
      throw new StoreError(
        'store_too_new',
        `The store ${path} has schema version ${version}, newer than this AgentTeam (${SCHEMA_VERSION}); update AgentTeam.`,
      );
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof StoreError) throw err;
    throw new StoreError('store_unopenable', `Cannot read the store ${path}: ${(err as Error).message}.`);
  }
}
