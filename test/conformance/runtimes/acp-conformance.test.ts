/**
 * issue 28: the runtime conformance table (runtime-cases.ts) for the ACP presets, with the real
 * CLIs against the fake model servers, each built by the runtime factory from
 * `{ "runtime": "acp", "preset": … }` and bound to the wake lifecycle by the same host binding as
 * the native runtimes (runtime-harness.ts). One long-lived agent process per preset runs the
 * whole table in one session, then interrupt (`session/cancel`) and stop.
 *
 * issue 44: the presets' suites run side by side (`describe.concurrent`, at most Vitest's
 * maxConcurrency of the suites in this file at once): much of their time is waiting, not CPU —
 * the CLIs' retry back-off on model errors, the start guard's deadline, Gemini's next-minute wait
 * before `session/load`. Within a suite the rows keep their order on their one agent (`it.sequential`).
 *
 * Gemini CLI speaks the Gemini API (`:streamGenerateContent`, `functionCall` parts), which the
 * fake model server serves as well as Chat Completions (qwen, copilot).
 */
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AcpPreset } from '../../../shared/config.js';
import { finalCheckTargets } from '../../../main/daemon/prompt/final-check.js';
import { targetKey } from '../../../shared/target.js';
import { finalChecksReceived, isFinalCheckInput, sendToolsNamed } from '../../fixtures/model-final-checks.js';
import { RuntimeHarness } from '../../fixtures/runtime-harness.js';
import { RUNTIME_CASES } from './runtime-cases.js';

const CASE_TIMEOUT = 120_000;

/** The name each preset's CLI gives our tool on the model wire, and how the prompt names it. */
const TOOL_NAMES: Readonly<Record<AcpPreset, string>> = {
  gemini: 'mcp_agentteam_message_send',
  qwen: 'mcp__agentteam__message_send',
  copilot: 'agentteam-message_send',
};

const PRESETS: readonly AcpPreset[] = ['gemini', 'qwen', 'copilot'];

/** issue 38: what a model may write that reads like a provider's usage limit (Copilot's own error text has this shape). */
const MODEL_ERROR_TEXT = 'Error: 429 too many requests, try again in 5 hours';

describe.concurrent.each(PRESETS)('acp preset %s conformance (real CLI, fake model)', (preset) => {
  let h: RuntimeHarness;

  beforeAll(async () => {
    h = await RuntimeHarness.start('acp', { preset, watchdogThresholdSeconds: 1 });
  }, 240_000);

  afterAll(async () => {
    await h?.stop();
  }, 60_000);

  it.sequential(
    'the prompt names the send tool this agent really offers its model (contract §8.2)',
    async () => {
      const wake = h.post('[[tool]] Which tool do you have?', '#conf-names');
      await h.terminal(wake);
      const delivery = h.promptInputs.find((p) => p.kind === 'delivery' && p.wakeTokens.includes(wake));
      expect(delivery?.text).toContain(`\`${TOOL_NAMES[preset]}\``);
      const answered = h.fake.requests.filter((r) => r.reply?.script === 'tool');
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.every((r) => r.tools.includes(TOOL_NAMES[preset]))).toBe(true);
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'the final-check the agent received names the send tool it offers its model (issue 38, contract §8.3)',
    async () => {
      const target = '#conf-fc-tool';
      const wake = h.post('[[local]] Summarise the logs.', target);
      expect((await h.terminal(wake)).status).toBe('reply_sent');
      // What really reached the model: the request whose newest input is this wake's final-check.
      const checks = h.fake.requests.filter(
        (r) => isFinalCheckInput(r.input) && finalCheckTargets(r.input).includes(targetKey(target)),
      );
      expect(checks).toHaveLength(1);
      const check = checks[0]!;
      expect(sendToolsNamed(check.input)).toEqual([TOOL_NAMES[preset]]);
      expect(check.tools).toContain(TOOL_NAMES[preset]);
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'model text that reads like a provider error is no status: the turn ends by the ordinary rule (issue 38, contract §6.5, §9.3)',
    async () => {
      const target = '#conf-error-text';
      // secret-hex: the model prints the text; the operator's message does not contain it.
      const wake = h.post(`[[secret-hex:${Buffer.from(MODEL_ERROR_TEXT).toString('hex')}]] Print it.`, target);
      // A pause would hold the wake for hours: whichever comes first, a terminal or a pause.
      const paused = firstValueFrom(
        h.lifecycle.wakeStatus$.pipe(filter((e) => e.wakeToken === wake && e.status === 'paused')),
      );
      const end = await Promise.race([h.terminal(wake), paused]);
      expect(h.fake.requests.some((r) => r.reply?.script === 'secret' && r.reply.text === MODEL_ERROR_TEXT)).toBe(true);
      // Local text, then the one final-check, answered through the tool: reply_sent. Never failed, never paused.
      expect([end.status, end.reason]).toEqual(['reply_sent', null]);
      expect(h.statusesOf(wake)).not.toContain('paused');
      expect(h.statusesOf(wake)).not.toContain('failed');
      expect(h.finalChecksFor(wake)).toBe(1);
      expect(JSON.stringify(h.statuses)).not.toContain('try again in 5 hours');
    },
    CASE_TIMEOUT,
  );

  // issue 41: budgets count ACP agents: Gemini CLI answers each prompt with its token counts
  // (`_meta.quota.token_count`), turned into the turn's usage before its end (usage-report.ts acpPromptUsage).
  it.runIf(preset === 'gemini').sequential(
    'issue 41: the turn reports the usage Gemini CLI counted from the model (the fake reports 5 output tokens a reply)',
    async () => {
      const from = h.runtimeEvents.length;
      const requests = h.fake.requests.length;
      const wake = h.post('[[tool]] Count me.', '#conf-usage');
      await h.terminal(wake);
      const served = h.fake.requests.slice(requests).length;
      const usage = h.runtimeEvents.slice(from).flatMap((e) => (e.type === 'usage' ? [e.usage] : []));
      expect(usage).toHaveLength(1);
      expect(usage[0]?.inputTokens).toBeGreaterThan(0);
      expect(usage[0]?.outputTokens).toBe(5 * served);
      expect(usage[0]?.costUsd).toBeNull();
    },
    CASE_TIMEOUT,
  );

  // Qwen keeps a failed prompt in its history (the fake model then sees its marker again), so the
  // failing rows run after the others, the restart included.
  const ordered = [...RUNTIME_CASES.filter((c) => c.status !== 'failed')];
  const runCase = (c: (typeof RUNTIME_CASES)[number]) =>
    it.sequential(
      c.name,
      async () => {
        const wake = h.post(c.text, c.target);
        const terminal = await h.terminal(wake);
        expect(terminal.status).toBe(c.status);
        expect(terminal.reason).toBe(c.reason);
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
        if (c.secret !== undefined) {
          const everywhere = JSON.stringify({
            agentMessages,
            statuses: h.statuses,
            journal: h.journal,
            logs: h.logLines,
            toolCalls: h.toolCalls,
            events: h.runtimeEvents,
          });
          expect(everywhere).not.toContain(c.secret);
          expect(h.runtimeEvents.some((e) => e.type === 'local_text' && e.bytes >= c.secret!.length)).toBe(true);
        }
      },
      CASE_TIMEOUT,
    );
  ordered.forEach(runCase);

  it.sequential(
    'interrupt: session/cancel ends the running turn interrupted and its wake fails (no final-check)',
    async () => {
      const wake = h.post('[[slow:60:500]] [[tool]] A long job.', '#conf-interrupt');
      await h.nextRuntimeEvent((e) => e.type === 'turn_start');
      // Mid-stream: the model's quiet stream has run a threshold long (a silence beacon).
      await firstValueFrom(h.watchdog);
      const turnEnd = h.nextRuntimeEvent((e) => e.type === 'turn_end');
      await h.adapter.interrupt();
      const end = await turnEnd;
      expect(end.type === 'turn_end' && end.outcome).toBe('interrupted');
      // Ended by the cancel itself, not by the kill after the grace period: the agent lives on.
      expect(h.logLines.filter((l) => l.includes('did not end after session/cancel'))).toEqual([]);
      expect(h.inner.processGroupAlive()).toBe(true);
      const terminal = await h.terminal(wake);
      expect(terminal.status).toBe('failed');
      expect(h.finalChecksFor(wake)).toBe(0);
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'restart: the agent process dies → the capped restart resumes the same session (session/resume or session/load), next wake replies',
    async () => {
      const before = h.runtimeEvents.filter((e) => e.type === 'ready').at(-1);
      const pid = h.inner.diagnostics().pid;
      expect(pid).not.toBeNull();
      const ready = h.nextRuntimeEvent((e) => e.type === 'ready');
      process.kill(-(pid as number), 'SIGKILL');
      const again = await ready;
      expect(again.type === 'ready' && again.resumed).toBe(true);
      expect(again.type === 'ready' && before?.type === 'ready' && again.sessionId === before.sessionId).toBe(true);
      const next = h.post('[[tool]] Are you back?', '#conf-restart');
      expect((await h.terminal(next)).status).toBe('reply_sent');
    },
    CASE_TIMEOUT * 2,
  );

  RUNTIME_CASES.filter((c) => c.status === 'failed').forEach(runCase);

  it.sequential('no secret in any log: the MCP bearer token and the provider key appear in no log line', () => {
    const logs = h.logLines.join('\n');
    expect(logs).not.toContain(h.mcpToken);
    expect(logs).not.toContain('fake-key');
  });

  it.sequential(
    'stop leaves no orphan processes',
    async () => {
      await h.session.stop();
      expect(h.inner.processGroupAlive()).toBe(false);
    },
    CASE_TIMEOUT,
  );
});

/**
 * Model errors → the closed failure vocabulary (issue 15), one fresh agent per status: each CLI
 * keeps or retries a failed request its own way (research/acp.md §3, §4).
 *
 * issue 44: these rows spend their time in the CLIs' own retry back-off (Qwen's HTTP 500 about
 * 85 s with its SDK retries off in tests (runtime-harness.ts qwenTestRetries), Copilot's 429 about
 * 75 s: its retries are in its native runtime, with no setting found) and the MCP rows below in the start guard's 20 s deadline, so
 * they run beside the other suites (see the top); each preset's rows keep their order, one agent
 * at a time. Every row still has its own agent, fake model server and temp dirs.
 */
const ERROR_ROWS = [
  { status: 401, reason: 'auth_required' },
  { status: 429, reason: 'provider_rate_limited' },
  { status: 500, reason: 'provider_error' },
] as const;

/** Rows a preset cannot finish here, with the exact reason. */
const ERROR_SKIPS: Partial<Record<AcpPreset, Partial<Record<number, string>>>> = {
  // research/acp.md §3: Qwen Code 0.24.4 retries a 429 forever (retry-after followed, no ACP update);
  // only the daemon's turn timeout or Stop ends it (session/cancel), covered by the interrupt row.
  qwen: { 429: 'Qwen Code retries HTTP 429 forever without an ACP update; the turn timeout ends it' },
};

describe.concurrent.each(PRESETS)('acp preset %s: model errors → failure reasons', (preset) => {
  for (const row of ERROR_ROWS) {
    const skip = ERROR_SKIPS[preset]?.[row.status];
    it.skipIf(skip !== undefined).sequential(
      `HTTP ${row.status} → failed / ${row.reason}${skip === undefined ? '' : ` (skipped: ${skip})`}`,
      async () => {
        // `onUsageLimit: "fail"`: these rows are the failure vocabulary; a 429 pauses by default (issue 27).
        const h = await RuntimeHarness.start('acp', { preset, onUsageLimit: 'fail' });
        try {
          const wake = h.post(`[[error${row.status}]] This request fails.`, `#conf-e${row.status}`);
          const terminal = await h.terminal(wake);
          expect(terminal.status).toBe('failed');
          expect(terminal.reason).toBe(row.reason);
          expect(terminal.detail).toContain(String(row.status));
          expect(h.finalChecksFor(wake)).toBe(0);
        } finally {
          await h.stop();
        }
      },
      240_000,
    );
  }
});

/**
 * issue 38: a provider's 429, as the CLI itself reports it structured (Gemini: the JSON-RPC error of
 * `session/prompt`; Copilot: the `session.error` event of its session event log, while its ACP
 * wire only shows agent text), pauses the wake under the default `onUsageLimit: "wait"`.
 *
 * issue 44: side by side with the suites above (Copilot's own retries of the 429 are about a
 * minute of waiting); each row still has its own agent, whose wake stays paused for an hour.
 */
describe.concurrent.each(['gemini', 'copilot'] as const)('acp preset %s: a provider 429 pauses the wake', (preset) => {
  it('[[error429]] → paused / usage_limit, never failed', async () => {
    // A long backoff: the wake stays paused for the assertion (Copilot retries the 429 itself for about a minute first).
    const h = await RuntimeHarness.start('acp', { preset, usageLimitBackoffSeconds: 3600 });
    try {
      const wake = h.post('[[error429]] This request is rate limited.', '#conf-pause');
      const paused = await firstValueFrom(
        h.lifecycle.wakeStatus$.pipe(filter((s) => s.wakeToken === wake && s.status === 'paused')),
      );
      expect(paused.reason).toBe('usage_limit');
      expect(paused.detail).toContain('429');
      expect(h.statusesOf(wake)).not.toContain('failed');
      expect(h.finalChecksFor(wake)).toBe(0);
    } finally {
      await h.stop();
    }
  }, 240_000);
});

/**
 * The guard ACP lacks (research/acp.md §8.1): an agent whose MCP connection is refused opens its
 * session anyway, without our tools. The start must fail with the reason and the fix instead.
 */
describe.concurrent.each(PRESETS)('acp preset %s: MCP server refused → the start fails', (preset) => {
  it('a wrong bearer token: no authenticated tools/list → start failure naming the reason and the fix', async () => {
    const started = RuntimeHarness.start('acp', { preset, mcpToken: 'not-the-agent-token' });
    await expect(started).rejects.toThrow(/opened its session without AgentTeam's tools.*Fix:/);
  }, 240_000);
});
