/**
 * issue 14 on the real CLIs against the fake model: the model asks to run a shell command in the
 * agent's workspace (`[[shell:…]]`, the runtime's own shell tool); under `permissions: "ask"` the
 * CLI's own permission question becomes a durable approval the operator answers. Allow → the file
 * exists and the reply arrives via message_send (reply_sent); deny → the command did not run, the
 * agent is told and replies; expiry → a deny the agent sees; a runtime restart cancels a pending
 * request (the wake then ends as every replaced process's does, §6.6); `read-only` → no approval,
 * the CLI refuses the command itself.
 *
 * issue 44: the runtimes' suites run side by side (`describe.concurrent`), each on its own process,
 * store and temp dirs: a row's time is mostly waiting (the operator's answer, an expiry, a restart).
 * Within a suite the rows keep their order on their one process (`it.sequential`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuntimeHarness, type RealRuntimeKind } from '../../fixtures/runtime-harness.js';

const RUNTIMES: readonly RealRuntimeKind[] = (process.env.APPROVAL_RUNTIMES?.split(',') as RealRuntimeKind[]) ?? [
  'claude-code',
  'codex',
  'opencode',
];
const CASE_TIMEOUT = 90_000;

const replyOn = (h: RuntimeHarness, target: string) =>
  h.messages.filter((m) => m.target === target && m.author === h.agentId);

describe.concurrent.each(RUNTIMES)('%s approvals (real CLI, fake model, permissions "ask")', (kind) => {
  let h: RuntimeHarness;

  beforeAll(async () => {
    h = await RuntimeHarness.start(kind, { permissions: 'ask', watchdogThresholdSeconds: 1 });
  }, 180_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  it.sequential(
    'allow → the command runs in the workspace → the reply arrives via the tool → reply_sent',
    async () => {
      const wake = h.post('[[shell:touch approved.txt]] Please create the file.', '#ap-allow');
      const asked = await h.approval((a) => a.status === 'pending' && a.wakeTokens.includes(wake));
      expect(asked.kind).toBe('command');
      expect(asked.summary).toContain('touch approved.txt');
      expect(asked.rule).toMatch(/^\w+\(.*touch approved\.txt.*\)$/);
      // The command has not run before the operator answered.
      expect(existsSync(join(h.cwd, 'approved.txt'))).toBe(false);
      // The wait is operator-visible: no silence beacon while it lasts (threshold 1 s).
      const beaconsBefore = h.beacons.length;
      await new Promise((r) => setTimeout(r, 2500));
      expect(h.beacons.length).toBe(beaconsBefore);
      h.approvals.answer(asked.id, 'allow', 'once');
      const done = await h.terminal(wake);
      expect(done.status).toBe('reply_sent');
      expect(existsSync(join(h.cwd, 'approved.txt'))).toBe(true);
      expect(replyOn(h, '#ap-allow').at(-1)?.content).toContain('Shell result');
      expect(h.store.approvals.get(asked.id)?.status).toBe('allowed');
      // Codex's own liveness signal (thread/status/changed waitingOnApproval) was used, on and off.
      if (kind === 'codex')
        expect(h.runtimeEvents.flatMap((e) => (e.type === 'operator_wait' ? [e.waiting] : []))).toEqual([true, false]);
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'deny → the command did not run, the agent is told and replies',
    async () => {
      const wake = h.post('[[shell:touch denied.txt]] Please create the other file.', '#ap-deny');
      const asked = await h.approval((a) => a.status === 'pending' && a.wakeTokens.includes(wake));
      h.approvals.answer(asked.id, 'deny', 'once', 'not in this folder');
      const done = await h.terminal(wake);
      expect(done.status).toBe('reply_sent');
      expect(existsSync(join(h.cwd, 'denied.txt'))).toBe(false);
      const reply = replyOn(h, '#ap-deny').at(-1)?.content ?? '';
      expect(reply).toContain('Shell result');
      expect(reply).toMatch(kind === 'codex' ? /reject|declin|denied/i : /not in this folder/);
      expect(h.store.approvals.get(asked.id)?.status).toBe('denied');
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'an unanswered request expires as a deny the agent sees; the wake still ends by the contract',
    async () => {
      h.approvalPolicy.timeoutSeconds = 2;
      try {
        const wake = h.post('[[shell:touch expired.txt]] Create a third file.', '#ap-expire');
        const expired = await h.approval((a) => a.status === 'expired' && a.wakeTokens.includes(wake));
        expect(expired.reason).toMatch(/No answer from the operator within 2 s/);
        const done = await h.terminal(wake);
        expect(done.status).toBe('reply_sent');
        expect(existsSync(join(h.cwd, 'expired.txt'))).toBe(false);
      } finally {
        h.approvalPolicy.timeoutSeconds = 900;
      }
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'a runtime restart with a pending request cancels it (no chip left waiting) and the wake ends failed/cli_exited, recovered by §6.6 (issue 24)',
    async () => {
      const wake = h.post('[[shell:touch crashed.txt]] And one more.', '#ap-restart');
      const asked = await h.approval((a) => a.status === 'pending' && a.wakeTokens.includes(wake));
      const ready = h.nextRuntimeEvent((e) => e.type === 'ready');
      process.kill(h.inner.pid as number, 'SIGKILL');
      const cancelled = await h.approval((a) => a.id === asked.id && a.status === 'cancelled');
      expect(cancelled.reason).toMatch(/exited/);
      // issue 24 (contract §9.2, §12): the crashed process's runtime-visible wake ends failed with the
      // crash's reason, and is recovered by a continuation (§6.6) — never "no visible reply".
      const done = await h.terminal(wake);
      expect({ status: done.status, reason: done.reason }).toEqual({ status: 'failed', reason: 'cli_exited' });
      await ready;
      expect(existsSync(join(h.cwd, 'crashed.txt'))).toBe(false);
    },
    CASE_TIMEOUT,
  );
});

describe.concurrent.each(RUNTIMES)('%s with permissions "read-only"', (kind) => {
  let h: RuntimeHarness;

  beforeAll(async () => {
    h = await RuntimeHarness.start(kind, { permissions: 'read-only' });
  }, 180_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  it.sequential(
    'no approval is asked; the CLI itself refuses the command and the agent replies',
    async () => {
      const wake = h.post('[[shell:touch readonly.txt]] Create the file.', '#ro');
      const done = await h.terminal(wake);
      expect(h.approvalChanges).toEqual([]);
      expect(existsSync(join(h.cwd, 'readonly.txt'))).toBe(false);
      expect(done.status).toBe('reply_sent');
    },
    CASE_TIMEOUT,
  );
});
