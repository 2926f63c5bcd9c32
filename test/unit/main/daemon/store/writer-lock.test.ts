import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_OWNER_FILE, Store, StoreLockedError } from '../../../../../main/daemon/store/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';
import { spawnFixture } from '../../../../fixtures/child-process.js';

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('agentteam-lock-')));
afterEach(() => dir.remove());

function openError(path: string): unknown {
  try {
    Store.open(path).close();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('single writer per data dir', () => {
  it('refuses a second writer in the same process with store_locked naming this pid, and frees the dir on close', () => {
    const store = Store.open(dir.path);
    const err = openError(dir.path);
    expect(err).toBeInstanceOf(StoreLockedError);
    expect((err as StoreLockedError).code).toBe('store_locked');
    expect((err as StoreLockedError).holderPid).toBe(process.pid);
    expect((err as Error).message).toContain(`pid ${process.pid}`);
    expect(JSON.parse(readFileSync(join(dir.path, LOCK_OWNER_FILE), 'utf8')).pid).toBe(process.pid);
    store.close();
    expect(existsSync(join(dir.path, LOCK_OWNER_FILE))).toBe(false);
    expect(openError(dir.path)).toBeUndefined();
  });

  it('refuses while another live process holds the lock, naming it, then opens once it exits cleanly', async () => {
    const holder = spawnFixture('./store-child.ts', ['hold', dir.path]);
    const line = await holder.nextLine();
    expect(line).toBe(`locked ${holder.child.pid}`);
    const err = openError(dir.path);
    expect((err as StoreLockedError).code).toBe('store_locked');
    expect((err as StoreLockedError).message).toContain(`pid ${holder.child.pid}`);
    holder.child.stdin.end();
    expect(await holder.nextLine()).toBe('released');
    await holder.exited;
    expect(openError(dir.path)).toBeUndefined();
  });

  it('a lock left by a SIGKILLed writer is not stale: the next starter gets it at once', async () => {
    const holder = spawnFixture('./store-child.ts', ['hold', dir.path]);
    await holder.nextLine((l) => l.startsWith('locked'));
    holder.child.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');
    // The owner file still names the dead pid; it is information only and must not block.
    expect(existsSync(join(dir.path, LOCK_OWNER_FILE))).toBe(true);
    const store = Store.open(dir.path);
    expect(JSON.parse(readFileSync(join(dir.path, LOCK_OWNER_FILE), 'utf8')).pid).toBe(process.pid);
    store.close();
  });

  it('an owner file naming a live but unrelated pid (pid reuse) does not block: liveness is the OS lock, never the pid', () => {
    // A leftover owner file whose pid now belongs to some other live process (here: our parent).
    writeFileSync(
      join(dir.path, LOCK_OWNER_FILE),
      JSON.stringify({ pid: process.ppid, startedAt: '2020-01-01T00:00:00.000Z' }),
    );
    const store = Store.open(dir.path);
    expect(JSON.parse(readFileSync(join(dir.path, LOCK_OWNER_FILE), 'utf8')).pid).toBe(process.pid);
    store.close();
  });

  it('of several starters racing for one data dir, exactly one becomes the writer', async () => {
    const racers = [0, 1, 2, 3].map(() => spawnFixture('./store-child.ts', ['hold', dir.path]));
    const first = await Promise.all(racers.map((r) => r.nextLine()));
    expect(first.filter((l) => l.startsWith('locked '))).toHaveLength(1);
    expect(first.filter((l) => l.startsWith('busy store_locked '))).toHaveLength(3);
    for (const r of racers) r.child.stdin.end();
    await Promise.all(racers.map((r) => r.exited));
  });
});
