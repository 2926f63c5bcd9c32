/**
 * issue 42 through the assembled daemon with the demo runtime: an idle agent sleeps after its
 * `idleSleepSeconds`; with free memory (its /proc/meminfo injected) below
 * `resources.minFreeMemoryMB`, a message for it is held `paused / waiting_for_memory` — its process
 * is not started — and answered once memory is back, its timeline saying it was woken.
 *
 * "Pending approvals, worktrees, usage pauses, hop chains and recovery markers survive a sleep": a
 * usage pause's wake sleeps with its agent and is delivered to the woken one at the reset; an agent
 * waiting on the operator's approval is in a turn, so it never sleeps; a hop chain whose lead sleeps
 * while its teammate works goes on when the hand-back wakes the lead.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Approval, Wake } from '../../../shared/api/contract.js';
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

/** A daemon on the demo runtime with these agents and `resources`; `order` lists its agent states and wake statuses as they came. */
async function demoDaemon(
  agents: ReadonlyArray<Record<string, unknown>>,
  resources: Record<string, unknown>,
): Promise<{ daemon: Daemon; order: string[]; status: ReturnType<typeof wakeStatuses> }> {
  const dir = await mkdtemp(join(tmpdir(), 'agentteam-sleep-keeps-'));
  dirs.push(dir);
  await writeFile(join(dir, 'agentteam.json'), JSON.stringify({ agents, resources }));
  const daemon = await createDaemon({ dataDir: dir });
  daemons.push(daemon);
  const order: string[] = [];
  daemon.events$.subscribe((e) => {
    if (e.name === 'agent.updated') order.push(`${e.payload.id}:${e.payload.state}`);
    if (e.name === 'wake.status') order.push(`${e.payload.wakeToken}:${e.payload.status}`);
  });
  return { daemon, order, status: wakeStatuses(daemon) };
}

function agentState(daemon: Daemon, agentId: string, state: string): Promise<unknown> {
  return firstValueFrom(
    daemon.events$.pipe(
      filter((e) => e.name === 'agent.updated' && e.payload.id === agentId && e.payload.state === state),
    ),
  );
}

async function wakeOf(daemon: Daemon, messageId: string): Promise<string> {
  return (await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.messageId === messageId)!.wakeToken;
}

describe('issue 42: starts at once (resources.startsAtOnce)', () => {
  it('two sleeping agents woken at once with one start place: the second waits paused / waiting_for_start, then answers', async () => {
    const { daemon, order, status } = await demoDaemon(
      [
        { id: 'one', name: 'One', runtime: 'demo' },
        { id: 'two', name: 'Two', runtime: 'demo' },
      ],
      { idleSleepSeconds: 1, startsAtOnce: 1 },
    );
    await Promise.all([agentState(daemon, 'one', 'sleeping'), agentState(daemon, 'two', 'sleeping')]);
    const first = await daemon.api['messages.send']({ target: '#general', content: '@one hello' });
    const second = await daemon.api['messages.send']({ target: '#general', content: '@two hello' });
    const [t1, t2] = [await wakeOf(daemon, first.messageId), await wakeOf(daemon, second.messageId)];
    const held = await status(t2, (w) => w.status === 'paused');
    expect(held).toMatchObject({ reason: 'waiting_for_start' });
    expect(held.detail).toContain('resources.startsAtOnce');
    await status(t1, (w) => w.status === 'reply_sent');
    await status(t2, (w) => w.status === 'reply_sent');
    // Two starts only once one's start was over: never two starting at once.
    const heldAt = order.indexOf(`${t2}:paused`);
    const oneUp = order.indexOf('one:idle', heldAt);
    expect(oneUp).toBeGreaterThan(-1);
    expect(order.indexOf('two:starting', heldAt)).toBeGreaterThan(oneUp);
    const { events } = await daemon.api['wakes.inspect']({ wakeToken: t2 });
    expect(events.map((e) => e.kind)).toContain('wake_up');
  }, 60_000);
});

describe('issue 42: what a sleep keeps', () => {
  it('a usage pause: the agent sleeps while its wake is paused, and the reset wakes it to answer that wake once', async () => {
    const { daemon, order, status } = await demoDaemon(
      [{ id: 'demo', name: 'Demo', runtime: 'demo', env: { DEMO_LIMIT_SECONDS: '4' } }],
      { idleSleepSeconds: 1 },
    );
    await agentState(daemon, 'demo', 'idle');
    const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /limit hello' });
    const token = await wakeOf(daemon, sent.messageId);
    expect((await status(token, (w) => w.status === 'paused')).reason).toBe('usage_limit');
    // Its only row is paused: the agent sleeps (its process stopped) and the wake stays paused.
    const asleep = agentState(daemon, 'demo', 'sleeping');
    await asleep;
    expect(order.indexOf('demo:sleeping', order.indexOf(`${token}:paused`))).toBeGreaterThan(-1);
    expect((await daemon.api['wakes.list']({ target: '#general' })).find((w) => w.wakeToken === token)).toMatchObject({
      status: 'paused',
      reason: 'usage_limit',
    });
    expect((await daemon.api['agents.list']({})).find((a) => a.id === 'demo')).toMatchObject({
      state: 'sleeping',
      rssBytes: 0,
    });
    // The reset resumes the pause: the woken agent gets the wake, which ends reply_sent once.
    expect((await status(token, (w) => w.status === 'reply_sent')).status).toBe('reply_sent');
    const mine = order.filter((o) => o.startsWith(`${token}:`)).map((o) => o.slice(token.length + 1));
    expect(mine).toEqual(['queued', 'delivered', 'paused', 'queued', 'delivered', 'reply_sent']);
    const { events } = await daemon.api['wakes.inspect']({ wakeToken: token });
    expect(events.filter((e) => e.kind === 'wake_up').map((e) => e.detail)).toEqual([
      expect.stringMatching(/^woke the agent \(\d+\.\d s\)$/),
    ]);
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.filter((m) => m.authorId === 'demo')).toHaveLength(1);
  }, 60_000);

  it('a pending approval keeps its agent awake (its turn waits on the operator); answered, the agent sleeps', async () => {
    const { daemon, order, status } = await demoDaemon([{ id: 'demo', name: 'Demo', runtime: 'demo' }], {
      idleSleepSeconds: 1,
    });
    await agentState(daemon, 'demo', 'idle');
    const pending = firstValueFrom(
      daemon.events$.pipe(
        filter((e): e is Extract<ApiEvent, { name: 'approval.updated' }> => e.name === 'approval.updated'),
        filter((e) => e.payload.status === 'pending'),
      ),
    ).then((e): Approval => e.payload);
    const sent = await daemon.api['messages.send']({ target: '#general', content: '@demo /approve' });
    const token = await wakeOf(daemon, sent.messageId);
    const approval = await pending;
    // Absence over time can only be watched: three idle-sleep periods waiting on the operator.
    await new Promise((r) => setTimeout(r, 3000));
    expect(order).not.toContain('demo:sleeping');
    expect((await daemon.api['agents.list']({})).find((a) => a.id === 'demo')?.state).toBe('busy');
    expect((await daemon.api['approvals.list']({ status: 'pending' })).map((a) => a.id)).toEqual([approval.id]);
    const asleep = agentState(daemon, 'demo', 'sleeping');
    await daemon.api['approvals.answer']({ id: approval.id, decision: 'allow' });
    expect((await status(token, (w) => w.status === 'reply_sent')).status).toBe('reply_sent');
    // The turn ended: now it is idle, and it sleeps.
    await asleep;
  }, 60_000);

  it('a hop chain: the lead sleeps while its teammate works, and the hand-back wakes it to post the answer', async () => {
    const { daemon, order, status } = await demoDaemon(
      [
        { id: 'demo', name: 'Demo', runtime: 'demo', resources: { idleSleepSeconds: 1 } },
        // The teammate works 3 s on its question (long enough for the lead to fall asleep) and never sleeps.
        { id: 'helper', name: 'Helper', runtime: 'demo', env: { DEMO_WORK_MS: '3000' } },
      ],
      { idleSleepSeconds: 0 },
    );
    await Promise.all([agentState(daemon, 'demo', 'idle'), agentState(daemon, 'helper', 'idle')]);
    const sent = await daemon.api['messages.send']({
      target: '#general',
      content: '@demo /ask helper which test first?',
    });
    const handBack = await firstValueFrom(
      daemon.events$.pipe(
        filter((e): e is Extract<ApiEvent, { name: 'wake.status' }> => e.name === 'wake.status'),
        filter((e) => e.payload.agentId === 'demo' && e.payload.cause === 'hand_back'),
      ),
    ).then((e) => e.payload);
    const ended = await status(handBack.wakeToken, (w) => w.status === 'reply_sent');
    // The chain went on through the sleep: the same chain, the next hop, asked by the teammate.
    expect(ended).toMatchObject({ chainId: sent.messageId, hop: 2, askedById: 'helper', status: 'reply_sent' });
    // The lead was asleep when the hand-back came, and was woken for it.
    const slept = order.indexOf('demo:sleeping');
    expect(slept).toBeGreaterThan(-1);
    expect(slept).toBeLessThan(order.indexOf(`${handBack.wakeToken}:queued`));
    const { events } = await daemon.api['wakes.inspect']({ wakeToken: handBack.wakeToken });
    expect(events.map((e) => e.kind)).toContain('wake_up');
    const { messages } = await daemon.api['messages.list']({ target: '#general' });
    expect(messages.map((m) => m.authorId)).toEqual(['operator', 'demo', 'helper', 'demo']);
    expect(messages[3]?.content).toContain('Helper answered: You asked: "which test first?"');
  }, 60_000);
});
