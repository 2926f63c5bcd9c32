/**
 * issue 42 through the assembled daemon with the demo runtime: an idle agent sleeps after its
 * `idleSleepSeconds`; with free memory (its /proc/meminfo injected) below
 * `resources.minFreeMemoryMB`, a message for it is held `paused / waiting_for_memory` — its process
 * is not started — and answered once memory is back, its timeline saying it was woken.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Wake } from '../../../shared/api/contract.js';
import { createDaemon, type Daemon } from '../../../main/daemon/index.js';
import type { ProcFs } from '../../../main/daemon/resources/process-sample.js';

const dirs: string[] = [];
const daemons: Daemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.stop()));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** The host's /proc, but MemAvailable is the test's. */
function procWithFree(free: { mb: number }): ProcFs {
  return {
    platform: 'linux',
    readFile: (path) =>
      path === '/proc/meminfo'
        ? `MemTotal:       16000000 kB\nMemAvailable:   ${free.mb * 1024} kB\n`
        : readFileSync(path, 'utf8'),
    readDir: (path) => readdirSync(path),
    conf: () => null,
  };
}

/**
 * The first status of the wake that `done` accepts, even one published before its token was known
 * (the send's answer waits for the WAL sync; the hold is decided before).
 */
function wakeStatuses(daemon: Daemon): (wakeToken: string, done: (w: Wake) => boolean) => Promise<Wake> {
  const seen: Wake[] = [];
  const waiting: Array<{ wakeToken: string; done: (w: Wake) => boolean; resolve: (w: Wake) => void }> = [];
  daemon.events$
    .pipe(filter((e): e is Extract<ApiEvent, { name: 'wake.status' }> => e.name === 'wake.status'))
    .subscribe(({ payload }) => {
      seen.push(payload);
      for (const w of waiting) if (w.wakeToken === payload.wakeToken && w.done(payload)) w.resolve(payload);
    });
  return (wakeToken, done) =>
    new Promise((resolve) => {
      const found = seen.find((w) => w.wakeToken === wakeToken && done(w));
      if (found !== undefined) resolve(found);
      else waiting.push({ wakeToken, done, resolve });
    });
}

describe('issue 42: sleep, and memory-aware admission', () => {
  it('a sleeping agent is not started while memory is short (paused / waiting_for_memory), then answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentteam-sleep-memory-'));
    dirs.push(dir);
    await writeFile(
      join(dir, 'agentteam.json'),
      JSON.stringify({
        agents: [{ id: 'demo', name: 'Demo', runtime: 'demo' }],
        resources: { idleSleepSeconds: 1, minFreeMemoryMB: 1024 },
      }),
    );
    const free = { mb: 8192 };
    const sleeping = (daemon: Daemon) =>
      firstValueFrom(daemon.events$.pipe(filter((e) => e.name === 'agent.updated' && e.payload.state === 'sleeping')));
    const daemon = await createDaemon({ dataDir: dir, procFs: procWithFree(free) });
    daemons.push(daemon);
    const asleep = sleeping(daemon);
    await asleep;
    expect((await daemon.api['agents.list']({})).find((a) => a.id === 'demo')).toMatchObject({
      state: 'sleeping',
      rssBytes: 0,
    });

    free.mb = 300;
    const status = wakeStatuses(daemon);
    const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo hello' });
    const token = (await daemon.api['wakes.list']({ target: '#general' })).find(
      (w) => w.messageId === sent.messageId,
    )!.wakeToken;
    expect((await status(token, (w) => w.status === 'paused')).reason).toBe('waiting_for_memory');
    // Held, not started: the agent still sleeps.
    expect((await daemon.api['agents.list']({})).find((a) => a.id === 'demo')?.state).toBe('sleeping');

    free.mb = 4096;
    await status(token, (w) => w.status === 'reply_sent');
    const { events } = await daemon.api['wakes.inspect']({ wakeToken: token });
    expect(events.map((e) => e.kind)).toContain('wake_up');
    expect(events.find((e) => e.kind === 'wake_up')?.detail).toMatch(/^woke the agent \(\d+\.\d s\)$/);
  }, 60_000);
});
