/**
 * Where an adapter remembers its provider session for `--resume` (or `thread/resume`), with
 * the thread-contract fingerprint it was created under. A session is resumed only when the
 * fingerprint still matches (contract §8.1: the thread contract decides resumability).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface StoredRuntimeSession {
  readonly sessionId: string;
  readonly fingerprint: string;
}

export interface RuntimeSessionStore {
  load(): StoredRuntimeSession | null;
  save(session: StoredRuntimeSession): void;
  clear(): void;
}

/** A JSON file per agent in its runtime dir (atomic rename, owner-only). The integrator may back this by the store instead. */
export function fileSessionStore(path: string): RuntimeSessionStore {
  return {
    load() {
      try {
        const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<StoredRuntimeSession>;
        return typeof value.sessionId === 'string' && typeof value.fingerprint === 'string'
          ? { sessionId: value.sessionId, fingerprint: value.fingerprint }
          : null;
      } catch {
        return null;
      }
    },
    save(session) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(`${path}.tmp`, JSON.stringify(session), { mode: 0o600 });
      renameSync(`${path}.tmp`, path);
    },
    clear() {
      rmSync(path, { force: true });
    },
  };
}

/** An in-memory store (tests, the demo runtime). */
export function memorySessionStore(initial: StoredRuntimeSession | null = null): RuntimeSessionStore {
  let value = initial;
  return {
    load: () => value,
    save: (s) => {
      value = s;
    },
    clear: () => {
      value = null;
    },
  };
}
