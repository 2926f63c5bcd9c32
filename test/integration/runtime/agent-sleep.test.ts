/**
 * issue 42 "Sleep and wake", through each real CLI (Claude Code, Codex, OpenCode) against its fake
 * model server: with `resources.idleSleepSeconds` of 1 s, after a first exchange the agent's CLI
 * process is gone, `agents.list` (what `agentteam agents --json` prints) says `sleeping` with
 * `rssBytes` 0; a second message wakes it IN THE SAME SESSION — the fake model receives the first
 * exchange's words in the second request (the resumed conversation), and the wake's timeline says
 * how long the wake-up took.
 *
 * A usage pause survives a sleep (Claude Code: the CLI that surfaces the provider's 429 itself, the
 * harness runs it with no retries; Codex and OpenCode retry a 429 on their own, usage-pause.test.ts):
 * the agent whose only wake is paused sleeps, and the reset starts it in the same session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agentJson } from '../../../main/serve/cli-main.js';
import { DaemonHarness, runtimeProcessesAfter, type RealRuntime } from '../../fixtures/daemon-harness.js';

let harness: DaemonHarness | null = null;
afterEach(async () => {
  await harness?.dispose();
  harness = null;
}, 60_000);

describe.each(['claude-code', 'codex', 'opencode'] as const satisfies readonly RealRuntime[])('%s', (kind) => {
  it('sleeps when idle (process gone, rssBytes 0) and answers the next message in the resumed session', async () => {
    const h = await DaemonHarness.start(kind, { agentConfig: { resources: { idleSleepSeconds: 1 } } });
    harness = h;
    await h.ready(60_000);
    const awake = agentJson((await h.api['agents.list']({})).find((a) => a.id === h.agentId)!);
    // While it runs, its process tree costs memory (Linux: read from /proc).
    expect(awake.rssBytes).toBeGreaterThan(10 * 1024 * 1024);

    const marker = `first-turn-marker-${kind}-7f3a`;
    const first = await h.send('#general', `remember ${marker} [[tool]]`);
    expect((await h.terminal(first.wakeToken, 90_000)).status).toBe('reply_sent');

    // Idle for 1 s: its CLI process stops and the agent reads `sleeping`, costing nothing.
    await h.agentState('sleeping', 30_000);
    expect(await runtimeProcessesAfter(h.dir, 15_000)).toEqual([]);
    const asleep = agentJson((await h.api['agents.list']({})).find((a) => a.id === h.agentId)!);
    expect(asleep).toMatchObject({ state: 'sleeping', ready: true, rssBytes: 0 });

    const before = h.model.requests.length;
    const second = await h.send('#general', 'what did I ask you to remember? [[tool]]');
    expect((await h.terminal(second.wakeToken, 120_000)).status).toBe('reply_sent');
    // The woken process resumed the same session: the model got the first exchange with the second.
    const later = h.model.requests.slice(before).filter((r) => r.reply !== null);
    expect(later.length).toBeGreaterThan(0);
    expect(JSON.stringify(later[0]?.body)).toContain(marker);
    // The wake's timeline says the agent was woken, and how long it took.
    const timeline = (await h.api['wakes.inspect']({ wakeToken: second.wakeToken })).events;
    expect(timeline.map((e) => e.detail)).toContainEqual(expect.stringMatching(/^woke the agent \(\d+\.\d s\)$/));
  }, 300_000);
});

describe('claude-code: a usage pause survives a sleep', () => {
  it('the agent sleeps while its wake is paused; at the reset it wakes in the same session and answers', async () => {
    const h = await DaemonHarness.start('claude-code', {
      // The reset comes from the backoff (the scripted 429 names none): long enough to fall asleep first.
      agentConfig: { resources: { idleSleepSeconds: 1 }, usageLimitBackoffSeconds: 8 },
    });
    harness = h;
    await h.ready(60_000);
    const marker = 'paused-turn-marker-3c9e';
    const first = await h.send('#general', `remember ${marker} [[tool]]`);
    expect((await h.terminal(first.wakeToken, 90_000)).status).toBe('reply_sent');

    const before = h.model.requests.length;
    const limited = await h.send('#general', 'and now this one [[error429]]');
    await h.wakeWhere(limited.wakeToken, (w) => w.status === 'paused', 'paused', 90_000);
    await h.agentState('sleeping', 60_000);
    // Asleep with its wake paused: the process is gone, the pause is not.
    expect(await runtimeProcessesAfter(h.dir, 15_000)).toEqual([]);
    const wake = (await h.api['wakes.list']({ target: '#general' })).find((w) => w.wakeToken === limited.wakeToken);
    expect(wake).toMatchObject({ status: 'paused', reason: 'usage_limit' });

    const end = await h.terminal(limited.wakeToken, 120_000);
    expect(end.status).toBe('reply_sent');
    // The request refused 429, then the woken process's: the same session (the first turn's words in it).
    const later = h.model.requests.slice(before).filter((r) => r.reply !== null);
    expect(later.length).toBeGreaterThan(0);
    expect(JSON.stringify(later[0]?.body)).toContain(marker);
    const timeline = (await h.api['wakes.inspect']({ wakeToken: limited.wakeToken })).events;
    expect(timeline.map((e) => e.kind)).toContain('wake_up');
    expect(timeline.map((e) => e.kind).filter((k) => k === 'wake_up')).toHaveLength(1);
  }, 300_000);
});
