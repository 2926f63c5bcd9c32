/**
 * issue 30 end to end: with group commit the assembled daemon stores an operator message at once
 * (a second, read-only connection sees it) and pushes `message.stored` at once (the page shows
 * what is stored; durable-answers.ts says why a push never waits), but answers the call only
 * after the WAL sync of that write returned. The sync is the real fdatasync, held by the test.
 */
import { fdatasync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import type { WalSync } from '../../../main/daemon/store/group-commit.js';
import { Store } from '../../../main/daemon/store/index.js';
import { targetKey } from '../../../shared/target.js';
import type { ApiEvent } from '../../../shared/api/contract.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setImmediate(r));
};

it('an operator message is answered only after its sync; it was stored and pushed before', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-group-commit-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(
    join(dir, 'agentteam.json'),
    JSON.stringify({ agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }] }),
  );
  const held: Array<() => void> = [];
  let holding = false;
  const walSync: WalSync = (fd, done) => {
    const real = new Promise<NodeJS.ErrnoException | null>((resolve) => fdatasync(fd, resolve));
    const answer = () => void real.then(done);
    if (holding) held.push(answer);
    else answer();
  };
  const daemon: Daemon = await createDaemon({ dataDir: dir, walSync });
  cleanups.push(() => daemon.stop());
  const pushed: ApiEvent[] = [];
  const sub = daemon.events$.subscribe((e) => pushed.push(e));
  cleanups.push(() => sub.unsubscribe());
  await daemon.api['conversations.list']({}); // the start's writes are durable

  holding = true;
  let answered = false;
  const answer = daemon.api['messages.send']({ target: '#general', content: 'no mention, no wake' }).then((r) => {
    answered = true;
    return r;
  });
  await until(() => held.length > 0); // its sync started, and is held
  const reader = Store.openReadOnly(dir);
  cleanups.push(() => reader.close());
  expect(reader.listMessages(targetKey('#general')).map((m) => m.content)).toContain('no mention, no wake');
  const storedPush = () =>
    pushed.find((e) => e.name === 'message.stored' && e.payload.content === 'no mention, no wake');
  await until(() => storedPush() !== undefined);
  // Pushed while the sync is still held: a chip never waits behind a sync.
  expect(held.length).toBeGreaterThan(0);
  expect(answered).toBe(false);

  holding = false;
  for (const release of held.splice(0)) release();
  const { messageId } = await answer;
  expect(storedPush()?.payload).toMatchObject({ id: messageId });
});
