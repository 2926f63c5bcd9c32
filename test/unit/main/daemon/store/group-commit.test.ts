/**
 * issue 30: group commit. Every FULL write of one event-loop turn shares one WAL sync, run on the
 * thread pool; `whenDurable()` resolves only after that sync, rejects every waiter of a batch
 * whose sync failed, and nothing stored is lost either way. The sync is the real `fs.fdatasync`
 * of the store's WAL file, wrapped to count, hold or fail it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fdatasync, fstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DB_FILE, Store, StoreError } from '../../../../../main/daemon/store/index.js';
import type { WalSync } from '../../../../../main/daemon/store/group-commit.js';
import { targetKey } from '../../../../../shared/target.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

const general = targetKey('#general');

/** The real fdatasync, counted; `hold` keeps each sync's answer until `release()`. */
function syncProbe() {
  const calls: number[] = [];
  const held: Array<() => void> = [];
  let hold = false;
  let failWith: NodeJS.ErrnoException | null = null;
  const sync: WalSync = (fd, done) => {
    calls.push(fd);
    const fail = failWith;
    failWith = null;
    fdatasync(fd, (err) => {
      const answer = () => done(fail ?? err);
      if (hold) held.push(answer);
      else answer();
    });
  };
  return {
    sync,
    calls,
    holdSyncs: () => void (hold = true),
    failNext: (code: string) => void (failWith = Object.assign(new Error(`${code}: injected`), { code })),
    /** Answers the held syncs (waits until the thread pool finished the one started). */
    release: async () => {
      while (held.length === 0) await new Promise((r) => setImmediate(r));
      hold = false;
      for (const answer of held.splice(0)) answer();
    },
  };
}

/** Settles on the next turns whether or not `p` did: 'resolved' | 'rejected' | 'waiting'. */
async function state(p: Promise<void>): Promise<'resolved' | 'rejected' | 'waiting'> {
  let s: 'resolved' | 'rejected' | 'waiting' = 'waiting';
  p.then(
    () => (s = 'resolved'),
    () => (s = 'rejected'),
  );
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return s;
}

let dir: TempDir;
let store: Store;
let probe: ReturnType<typeof syncProbe>;

beforeEach(() => {
  dir = makeTempDir('agentteam-group-commit-');
  probe = syncProbe();
  store = Store.open(dir.path, { walSync: probe.sync });
  store.ensureConversation(general);
});
afterEach(() => {
  store.close();
  dir.remove();
});

const op = (content: string) =>
  store.appendMessage({ target: general, authorId: 'operator', authorKind: 'operator', content });

describe('group commit (issue 30)', () => {
  it('N FULL writes in one turn share one sync of the WAL file, started after the turn', async () => {
    await store.whenDurable();
    const syncs0 = store.walSyncs;
    const durable0 = store.durableCommits;
    const calls0 = probe.calls.length;
    for (let i = 0; i < 25; i++) op(`m${i}`);
    // Committed and visible at once; the sync has not even started (end of the turn).
    expect(store.lastSeq(general)).toBe(25);
    expect(probe.calls.length).toBe(calls0);
    expect(store.durabilityPending).toBe(true);
    await store.whenDurable();
    expect(store.durableCommits - durable0).toBe(25);
    expect(probe.calls.length - calls0).toBe(1);
    expect(store.walSyncs - syncs0).toBe(1);
    // …of the store's own WAL file.
    const fd = probe.calls.at(-1) as number;
    expect(store.durabilityPending).toBe(false);
    expect(fstatSync(fd).ino).toBe(statSync(join(dir.path, `${DB_FILE}-wal`)).ino);
  });

  it('NORMAL writes alone start no sync and leave nothing to wait for', async () => {
    await store.whenDurable();
    const calls0 = probe.calls.length;
    const wake = store.insertWake({
      wakeToken: 'wk1',
      messageId: op('hello').message.id,
      agentId: 'claude',
      runtime: 'claude-code',
      target: general,
      targetSeq: 1,
      deliveryClass: 'visible_reply',
    });
    await store.whenDurable();
    const after = probe.calls.length;
    store.appendPromptInput({ agentId: 'claude', wakeTokens: [wake.wakeToken], kind: 'delivery', text: 'x' });
    store.appendWakeEvent({ wakeToken: wake.wakeToken, kind: 'status', status: 'delivered' });
    expect(store.durabilityPending).toBe(false);
    expect(await state(store.whenDurable())).toBe('resolved');
    expect(probe.calls.length).toBe(after);
    expect(after - calls0).toBe(1);
  });

  it("a caller's wait resolves only after the sync returns; writes made meanwhile wait for the next one", async () => {
    await store.whenDurable();
    probe.holdSyncs();
    op('first');
    const first = store.whenDurable();
    expect(await state(first)).toBe('waiting'); // the sync started and is held
    const calls = probe.calls.length;
    op('second'); // during the held sync: the next batch
    const second = store.whenDurable();
    expect(second).not.toBe(first);
    expect(await state(second)).toBe('waiting');
    expect(probe.calls.length).toBe(calls); // one sync at a time
    await probe.release();
    expect(await state(first)).toBe('resolved');
    await second; // the next batch syncs on its own (not held any more)
    expect(probe.calls.length).toBe(calls + 1);
  });

  it('a failed sync rejects every caller of its batch; nothing stored is lost and the next batch syncs', async () => {
    await store.whenDurable();
    op('before');
    await store.whenDurable();
    probe.failNext('EIO');
    op('a');
    const waitA = store.whenDurable();
    op('b');
    const waitB = store.whenDurable();
    expect(waitB).toBe(waitA); // same turn, same batch
    const errors = await Promise.allSettled([waitA, waitB]);
    for (const e of errors) {
      expect(e.status).toBe('rejected');
      const reason = (e as PromiseRejectedResult).reason as StoreError;
      expect(reason).toBeInstanceOf(StoreError);
      expect(reason.code).toBe('store_sync_failed');
      expect(reason.message).toContain('EIO');
      expect(reason.message).toContain(`${DB_FILE}-wal`);
    }
    expect(store.listMessages(general).map((m) => m.content)).toEqual(['before', 'a', 'b']);
    op('c');
    await expect(store.whenDurable()).resolves.toBeUndefined();
    store.close();
    store = Store.open(dir.path, { walSync: probe.sync });
    expect(store.listMessages(general).map((m) => m.content)).toEqual(['before', 'a', 'b', 'c']);
  });

  it('close syncs what is pending and answers its waiters', async () => {
    await store.whenDurable();
    const calls0 = probe.calls.length;
    op('last');
    const wait = store.whenDurable();
    store.close();
    await expect(wait).resolves.toBeUndefined();
    expect(probe.calls.length).toBe(calls0); // synced on the closing thread, not through the pool
    store = Store.open(dir.path, { walSync: probe.sync });
    expect(store.listMessages(general).map((m) => m.content)).toEqual(['last']);
  });

  it('walSync false: every FULL commit syncs itself before it returns (nothing to wait for)', async () => {
    store.close();
    store = Store.open(dir.path, { walSync: false });
    const syncs0 = store.walSyncs;
    op('x');
    op('y');
    expect(store.durabilityPending).toBe(false);
    expect(store.walSyncs - syncs0).toBe(2);
    expect(await state(store.whenDurable())).toBe('resolved');
  });
});
