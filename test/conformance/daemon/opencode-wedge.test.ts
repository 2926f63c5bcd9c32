/**
 * OpenCode 1.18.33 wedges a session when an abort lands before the model answered: every later
 * prompt of that process ends at once with "All fibers interrupted without error" (opencode-driver.ts).
 * Before the driver knew it, each later message of that agent ended `completed_without_visible_reply /
 * no_reply` — the agent blamed for a silence that was the runtime's. Through the assembled daemon
 * with the real `opencode` and the fake model: the operator's Stop at turn start, then the next
 * message is answered — directly, or (when the session wedged) through the process replacement:
 * that wake ends `failed / cli_exited` naming why and its recovery wake replies. No wake ends `no_reply`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DaemonHarness, wakeCounters } from '../../fixtures/daemon-harness.js';

let h: DaemonHarness;

beforeAll(async () => {
  h = await DaemonHarness.start('opencode');
  await h.ready(90_000);
}, 120_000);

afterAll(async () => {
  await h?.dispose();
}, 60_000);

it('a Stop at turn start, then the next message is answered, never ended as "no reply"', async () => {
  const stopped = await h.send('#wedge', '[[hold:5000]] [[slow:600:1000]] A very long answer, please.');
  await h.busy(30_000);
  await h.api['agents.stop']({ agentId: h.agentId });
  const first = await h.terminal(stopped.wakeToken, 30_000);
  expect({ status: first.status, reason: first.reason }).toEqual({ status: 'failed', reason: 'stopped_by_operator' });
  await h.idle(30_000);

  const next = await h.send('#wedge', '[[tool]] And now a short one.');
  const done = await h.terminal(next.wakeToken, 60_000);
  const replies = async () =>
    (await h.api['messages.list']({ target: '#wedge' })).messages.filter((m) => m.authorKind === 'agent');
  if (done.status === 'failed') {
    // The wedge: named, and recovered in the replaced process (which resumed the same session).
    expect(done.reason).toBe('cli_exited');
    expect(done.detail).toContain('All fibers interrupted without error');
    const recovery = async () =>
      (await h.api['wakes.list']({ target: '#wedge', limit: 100 })).find((w) =>
        w.messageId.startsWith('msg_recovery_'),
      );
    await h.idle(90_000);
    const recovered = await recovery();
    expect(recovered).toBeDefined();
    expect((await h.terminal(recovered?.wakeToken ?? '', 60_000)).status).toBe('reply_sent');
    expect((await h.api['wakes.inspect']({ wakeToken: next.wakeToken })).continuedIn).toBe(recovered?.wakeToken);
  } else {
    expect(done.status).toBe('reply_sent');
  }
  expect(await replies()).toHaveLength(1);
  expect(wakeCounters(await h.daemon.metrics.metrics(), 'opencode').noReply).toBe(0);
}, 240_000);
