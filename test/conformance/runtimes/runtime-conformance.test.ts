/**
 * Runtime conformance with the real `claude`, `codex` and `opencode` CLIs against the fake model
 * servers (issue 10: the same table drives all three), each built by the runtime factory from an
 * agent config and bound to the wake lifecycle by the same host binding. One long-lived runtime process per runtime runs the whole case table in one
 * session (as an agent does), then the shared adapter behaviour: interrupt, crash → failed +
 * capped restart (resuming the same thread/session), and stop with no orphan processes.
 * Each runtime has its own temp HOME / CODEX_HOME / XDG dirs (runtime-harness.ts).
 *
 * issue 44: the runtimes' suites run side by side (`describe.concurrent`), each on its own process,
 * fake model server and temp dirs: a row's time is mostly waiting (quiet model steps, a restart).
 * Within a suite the rows keep their order on their one process (`it.sequential`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalChecksReceived } from '../../fixtures/model-final-checks.js';
import { RuntimeHarness, type RealRuntimeKind } from '../../fixtures/runtime-harness.js';
import { RUNTIME_CASES } from './runtime-cases.js';

const RUNTIMES: readonly Exclude<RealRuntimeKind, 'acp'>[] = ['claude-code', 'codex', 'opencode'];
/**
 * A Claude Code session killed mid-turn has no transcript to resume yet (a fresh session follows:
 * test/integration/runtime/claude-code-adapter.test.ts covers its crash and resume paths).
 */
const resumesAfterMidTurnCrash = (kind: RealRuntimeKind) => kind !== 'claude-code';
const CASE_TIMEOUT = 90_000;

describe.concurrent.each(RUNTIMES)('%s runtime conformance (real CLI, fake model)', (kind) => {
  let h: RuntimeHarness;

  beforeAll(async () => {
    h = await RuntimeHarness.start(kind, { watchdogThresholdSeconds: 1 });
  }, 180_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  it.sequential(
    'the prompt names the send tool this runtime really offers (contract §8.2)',
    async () => {
      const offered = {
        'claude-code': 'mcp__agentteam__message_send',
        codex: 'mcp__agentteam/message_send',
        opencode: 'agentteam_message_send',
      }[kind];
      const named = {
        'claude-code': '`mcp__agentteam__message_send`',
        codex: '`message_send` (tool namespace `mcp__agentteam`)',
        opencode: '`agentteam_message_send`',
      }[kind];
      const wake = h.post('[[tool]] Which tool do you have?', '#conf-names');
      await h.terminal(wake);
      const delivery = h.promptInputs.find((p) => p.kind === 'delivery' && p.wakeTokens.includes(wake));
      expect(delivery?.text).toContain(named);
      const answered = h.fake.requests.filter((r) => r.reply?.script === 'tool');
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.every((r) => r.tools.includes(offered))).toBe(true);
    },
    CASE_TIMEOUT,
  );

  for (const c of RUNTIME_CASES) {
    it.sequential(
      c.name,
      async () => {
        const beaconsBefore = h.beacons.length;
        const wake = h.post(c.text, c.target);
        const terminal = await h.terminal(wake);

        expect(terminal.status).toBe(c.status);
        expect(terminal.reason).toBe(c.reason);
        // contract §6.2: exactly one terminal status for the wake, ever.
        expect(
          h.statusesOf(wake).filter((s) => ['reply_sent', 'failed', 'completed_without_visible_reply'].includes(s)),
        ).toHaveLength(1);
        expect(h.finalChecksFor(wake)).toBe(c.finalChecks);
        expect(finalChecksReceived(h.fake.requests, c.target)).toBe(c.finalChecks);
        const agentMessages = h.messages.filter((m) => m.author === h.agentId);
        expect(agentMessages.filter((m) => m.target === c.target)).toHaveLength(c.sends);
        if (c.status === 'failed') expect(terminal.detail).toMatch(/400|scripted/);
        if (c.refusedTarget !== undefined) {
          expect(h.refusals).toContainEqual({ target: c.refusedTarget, code: 'out_of_scope' });
          expect(h.messages.filter((m) => m.target === c.refusedTarget)).toHaveLength(0);
        }
        if (c.beacons === true) {
          const mine = h.beacons.slice(beaconsBefore);
          expect(mine.length).toBeGreaterThanOrEqual(1);
          expect(mine.every((b) => b.wakeTokens.includes(wake))).toBe(true);
        }
        if (c.secret !== undefined) {
          // The model printed it locally; it must reach no message, status, journal entry, log line or tool call.
          const printed = h.fake.requests.some((r) => r.reply?.script === 'secret' && r.reply.text === c.secret);
          expect(printed).toBe(true);
          const everywhere = JSON.stringify({
            agentMessages,
            statuses: h.statuses,
            journal: h.journal,
            logs: h.logLines,
            toolCalls: h.toolCalls,
          });
          expect(everywhere).not.toContain(c.secret);
          // The adapter reduced it to counts (contract §6.5): an event with its length, never its text.
          expect(h.runtimeEvents.some((e) => e.type === 'local_text' && e.bytes === c.secret?.length)).toBe(true);
          expect(JSON.stringify(h.runtimeEvents)).not.toContain(c.secret);
        }
      },
      CASE_TIMEOUT,
    );
  }

  it.sequential(
    'interrupt: the running turn ends interrupted and its wake fails (no final-check)',
    async () => {
      const wake = h.post('[[slow:60:500]] [[tool]] A long job.', '#conf-interrupt');
      await h.nextRuntimeEvent((e) => e.type === 'turn_start');
      const turnEnd = h.nextRuntimeEvent((e) => e.type === 'turn_end');
      await h.adapter.interrupt();
      const end = await turnEnd;
      expect(end.type === 'turn_end' && end.outcome).toBe('interrupted');
      const terminal = await h.terminal(wake);
      expect(terminal.status).toBe('failed');
      expect(h.finalChecksFor(wake)).toBe(0);
    },
    CASE_TIMEOUT,
  );

  it.skipIf(!resumesAfterMidTurnCrash(kind)).sequential(
    'crash mid-turn → the wake ends failed/cli_exited and is recovered (§6.6, issue 24), capped restart resumes the same session, next wake replies',
    async () => {
      const sessionBefore = h.runtimeEvents.filter((e) => e.type === 'ready').at(-1);
      const wake = h.post('[[slow:60:500]] [[tool]] Crash during this.', '#conf-crash');
      await h.nextRuntimeEvent((e) => e.type === 'turn_start');
      const pid = h.inner.diagnostics().pid;
      expect(pid).not.toBeNull();
      const ready = h.nextRuntimeEvent((e) => e.type === 'ready');
      process.kill(-(pid as number), 'SIGKILL');
      const terminal = await h.terminal(wake);
      // issue 24 (contract §9.2, §12): the replacement process ends the runtime-visible row failed with
      // the crash's reason and hands its frontier to recovery (the daemon suite covers the recovery wake).
      expect(terminal.status).toBe('failed');
      expect(terminal.reason).toBe('cli_exited');
      expect(h.runtimeEvents.some((e) => e.type === 'restart_scheduled')).toBe(true);
      const again = await ready;
      expect(again.type === 'ready' && again.resumed).toBe(true);
      expect(
        again.type === 'ready' && sessionBefore?.type === 'ready' && again.sessionId === sessionBefore.sessionId,
      ).toBe(true);
      const next = h.post('[[tool]] Are you back?', '#conf-crash');
      expect((await h.terminal(next)).status).toBe('reply_sent');
    },
    CASE_TIMEOUT * 2,
  );

  it.sequential(
    'stop leaves no orphan processes and stderr stays diagnostics only',
    async () => {
      await h.session.stop();
      expect(h.inner.processGroupAlive()).toBe(false);
      // stderr never became a message.
      const tail = h.inner.diagnostics().stderrTail.trim();
      if (tail !== '') expect(h.messages.some((m) => m.content.includes(tail.slice(0, 40)))).toBe(false);
    },
    CASE_TIMEOUT,
  );
});
