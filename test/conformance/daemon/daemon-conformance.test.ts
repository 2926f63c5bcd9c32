/**
 * Whole-daemon conformance (issue 7 for Claude Code, issue 10 for Codex and OpenCode): the
 * assembled daemon (`createDaemon`) with the real runtime CLI against a scripted fake model on
 * 127.0.0.1, checked only through the surfaces a person has — `messages.send` on a channel with
 * an `@agent` mention, `wakes.list` / `wakes.inspect`, `messages.list`, the API events, the
 * Prometheus text, the info log and the store file's bytes.
 *
 * The same table (`RUNTIME_CASES`, shared with the adapter-level suite) drives all three
 * runtimes; one daemon with one long-lived runtime session per runtime runs it in sequence.
 *
 * issue 44: the three runtimes' suites run side by side (`describe.concurrent`): each has its own
 * daemon, data dir, fake model server and metrics registry, and most of a row's time is waiting
 * (quiet model steps, watchdog thresholds, a runtime's restart). Within a suite the rows keep
 * their order on their one daemon (`it.sequential`): each begins once the previous turn has ended.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTerminal } from '../../../shared/wake-status.js';
import {
  DaemonHarness,
  hexSecretMarker,
  MODEL_API_KEY,
  parseMetrics,
  runtimeProcesses,
  wakeCounters,
  runtimeProcessesAfter,
  type RealRuntime,
} from '../../fixtures/daemon-harness.js';
import { startBudgetMs } from '../../fixtures/load-budget.js';
import { finalChecksReceived } from '../../fixtures/model-final-checks.js';
import { RUNTIME_CASES, SECRET } from '../runtimes/runtime-cases.js';

const RUNTIMES: readonly RealRuntime[] = ['claude-code', 'codex', 'opencode'];
const CASE_TIMEOUT = 60_000;
/** Small, so the table's long tool-only turn (4 quiet seconds) shows beacons (watchdog spec A). */
const WATCHDOG_SECONDS = 1;
const metric = (text: string, sample: string): number => parseMetrics(text).get(sample) ?? 0;

describe.concurrent.each(RUNTIMES)('%s: whole-daemon conformance (real CLI, fake model)', (runtime) => {
  let h: DaemonHarness;
  /**
   * issue 44: a wake right after the runtime (re)started waits on that start too (OpenCode's took
   * over 40 s at load 12–18): its bound is the measured start scaled to the load, never below 40 s.
   */
  const AFTER_START = Math.max(40_000, startBudgetMs(runtime));
  /** The terminal outcomes the table produced, for the closing metrics check. */
  const outcomes = { received: 0, replySent: 0, noReply: 0, failed: 0 };

  beforeAll(
    async () => {
      h = await DaemonHarness.start(runtime, { watchdogThresholdSeconds: WATCHDOG_SECONDS });
      await h.ready(Math.max(90_000, AFTER_START));
    },
    Math.max(120_000, AFTER_START + 30_000),
  );

  afterAll(async () => {
    await h?.dispose();
  }, 60_000);

  for (const c of RUNTIME_CASES) {
    it.sequential(
      c.name,
      async () => {
        // One case per runtime turn: the previous case's turn has ended (agents.list shows idle).
        await h.idle(20_000);
        const beforeText = await h.daemon.metrics.metrics();
        const before = wakeCounters(beforeText, runtime);
        const eventsBefore = h.events.length;
        const requestsBefore = h.model.requests.length;
        const logsBefore = h.logLines.length;
        // The secret travels hex-encoded: the operator's own message (stored, quoted in the
        // delivery prompt) must not hold the text the model prints, or "appears nowhere" is moot.
        const text = c.secret !== undefined ? hexSecretMarker(c.text) : c.text;
        if (c.secret !== undefined) expect(text).not.toContain(c.secret);
        const { wakeToken } = await h.send(c.target, text);
        const wake = await h.terminal(wakeToken, CASE_TIMEOUT - 10_000);

        // wakes.list / wakes.inspect: status, reason, final-check (contract §6.2, §6.4, §8.4, §9.3).
        expect({ status: wake.status, reason: wake.reason }).toEqual({ status: c.status, reason: c.reason });
        const listed = (await h.api['wakes.list']({ target: c.target })).find((w) => w.wakeToken === wakeToken);
        expect(listed?.status).toBe(c.status);
        expect(listed?.runtime).toBe(runtime);
        const inspected = await h.api['wakes.inspect']({ wakeToken });
        const terminalEvents = inspected.events.filter(
          (e) => e.kind === 'status' && e.status !== null && isTerminal(e.status),
        );
        expect(terminalEvents).toHaveLength(1);
        // The wake's timeline as the inspector shows it: bounded, in order, one final-check at most.
        const timeline = inspected.events.filter((e) => e.status !== null).map((e) => e.status);
        expect(timeline).toEqual([
          'queued',
          'delivered',
          ...(c.finalChecks === 1 ? ['final_check_sent'] : []),
          c.status,
        ]);
        expect(inspected.promptInputs.filter((p) => p.kind === 'final_check')).toHaveLength(c.finalChecks);
        expect(inspected.wake.finalCheck).toBe(c.finalChecks === 1);
        expect(inspected.promptInputs.filter((p) => p.kind === 'delivery')).toHaveLength(1);
        if (c.finalChecks === 1)
          expect(inspected.promptInputs.find((p) => p.kind === 'final_check')?.text).toContain(`"${c.target}"`);
        // …and what really reached the model (contract §6.4): one final-check where expected, none after a reply.
        expect(finalChecksReceived(h.model.requests.slice(requestsBefore), c.target)).toBe(c.finalChecks);

        // messages.list: the agent's sends on the case's target; the operator's one message.
        const { messages } = await h.api['messages.list']({ target: c.target });
        expect(messages.filter((m) => m.authorKind === 'agent')).toHaveLength(c.sends);
        expect(messages.filter((m) => m.authorKind === 'operator')).toHaveLength(1);

        // metrics: exactly this wake counted, under its runtime (contract §10.2).
        const after = wakeCounters(await h.daemon.metrics.metrics(), runtime);
        const expected = {
          received: before.received + 1,
          replySent: before.replySent + (c.status === 'reply_sent' ? 1 : 0),
          noReply: before.noReply + (c.status === 'completed_without_visible_reply' ? 1 : 0),
          failed: before.failed + (c.status === 'failed' ? 1 : 0),
        };
        expect(after).toEqual(expected);
        // Delivery confirmation (watchdog spec B): each agent send confirmed delivered on the local channel.
        const delivered = 'agentteam_delivery_results_total{channel="local",purpose="reply",state="delivered"}';
        expect(metric(await h.daemon.metrics.metrics(), delivered) - metric(beforeText, delivered)).toBe(c.sends);
        outcomes.received += 1;
        outcomes.replySent += expected.replySent - before.replySent;
        outcomes.noReply += expected.noReply - before.noReply;
        outcomes.failed += expected.failed - before.failed;

        if (c.status === 'failed') expect(wake.detail ?? '').toMatch(/400/);
        // A no-reply outcome is a neutral alert (a status, never a chat message); a failure is not reclassified as one.
        const alerts = h.events
          .slice(eventsBefore)
          .flatMap((e) => (e.name === 'alert.raised' && e.payload.wakeToken === wakeToken ? [e.payload.kind] : []));
        expect(alerts.filter((k) => k === 'no_response')).toHaveLength(
          c.status === 'completed_without_visible_reply' ? 1 : 0,
        );

        if (c.refusedTarget !== undefined) {
          // The model got a tool error naming the refusal; nothing was stored on that target.
          const toolErrorSeen = h.model.requests.some((r) => JSON.stringify(r.body).includes('out_of_scope:'));
          expect(toolErrorSeen).toBe(true);
          expect((await h.api['messages.list']({ target: c.refusedTarget })).messages).toEqual([]);
          expect((await h.api['conversations.list']({})).map((conv) => conv.target)).not.toContain(c.refusedTarget);
        }

        if (c.beacons === true) {
          // Beacons are statuses on the wake's chip, never chat messages (watchdog spec A, DESIGN.md).
          expect(wake.beacons).toBeGreaterThanOrEqual(1);
          expect(inspected.events.filter((e) => e.kind === 'beacon').length).toBe(inspected.wake.beacons);
          expect(
            metric(await h.daemon.metrics.metrics(), 'agentteam_watchdog_beacons_total{channel="local"}'),
          ).toBeGreaterThan(metric(beforeText, 'agentteam_watchdog_beacons_total{channel="local"}'));
          expect(messages.some((m) => m.content.includes('Working…'))).toBe(false);
        }

        if (c.secret !== undefined) {
          // The model really printed it (as local text)…
          expect(h.model.requests.some((r) => r.reply?.script === 'secret' && r.reply.text === c.secret)).toBe(true);
          // …and it is nowhere a person or a file could see it (contract §6.1, §6.5).
          expect((await h.storeBytes()).includes(Buffer.from(c.secret, 'utf8'))).toBe(false);
          expect(JSON.stringify(await h.everyApiAnswer())).not.toContain(c.secret);
          expect(JSON.stringify(h.events)).not.toContain(c.secret);
          // Every log level, debug included: the harness's sink captures debug lines, and this turn wrote some.
          expect(h.logLines.slice(logsBefore).some((l) => l.level === 'debug')).toBe(true);
          expect(JSON.stringify(h.logLines)).not.toContain(c.secret);
          expect(await h.daemon.metrics.metrics()).not.toContain(c.secret);
        }
      },
      CASE_TIMEOUT,
    );
  }

  it.sequential(
    'metrics: the four wake counters by runtime add up over the table, never an agent id as a label (contract §10.1, §10.2)',
    async () => {
      const text = await h.daemon.metrics.metrics();
      expect(wakeCounters(text, runtime)).toEqual(outcomes);
      expect(outcomes.received).toBe(RUNTIME_CASES.length);
      // Counted again at the model once every turn has ended: no late second final-check for any case (§6.4).
      for (const c of RUNTIME_CASES)
        expect(finalChecksReceived(h.model.requests, c.target), c.target).toBe(c.finalChecks);
      expect(text).not.toContain(h.agentId);
      expect(text).not.toMatch(/agent_?id=/i);
    },
  );

  // The operator writes while the agent works: the first wake's model call is streaming (quiet
  // steps) when the second message arrives. Each adapter takes it as the next turn once the
  // running one ends (the Claude Code CLI itself would show it mid-turn as a role:"system" entry).
  it.sequential(
    'a message written while the agent is in its turn is answered too: each wake ends once, one final-check for the late one (contract §6.2, §6.4, §9.2)',
    async () => {
      await h.idle(20_000);
      const first = await h.send('#conf-busy-1', '[[slow:2:500]] [[tool]] First question.');
      await h.busy(20_000);
      const second = await h.send('#conf-busy-2', '[[local]] Second question, while you are busy.');
      expect((await h.terminal(first.wakeToken, 40_000)).status).toBe('reply_sent');
      const wake = await h.terminal(second.wakeToken, 40_000);
      expect({ status: wake.status, finalCheck: wake.finalCheck }).toEqual({ status: 'reply_sent', finalCheck: true });
      const { promptInputs, events } = await h.api['wakes.inspect']({ wakeToken: second.wakeToken });
      expect(promptInputs.filter((p) => p.kind === 'final_check')).toHaveLength(1);
      expect(finalChecksReceived(h.model.requests, '#conf-busy-2')).toBe(1);
      expect(finalChecksReceived(h.model.requests, '#conf-busy-1')).toBe(0);
      expect(events.filter((e) => e.kind === 'status' && e.status !== null && isTerminal(e.status))).toHaveLength(1);
      expect(
        (await h.api['wakes.inspect']({ wakeToken: first.wakeToken })).promptInputs.filter(
          (p) => p.kind === 'final_check',
        ),
      ).toHaveLength(0);
      expect(
        (await h.api['messages.list']({ target: '#conf-busy-2' })).messages.filter((m) => m.authorKind === 'agent'),
      ).toHaveLength(1);
      expect(
        (await h.api['messages.list']({ target: '#conf-busy-1' })).messages.filter((m) => m.authorKind === 'agent'),
      ).toHaveLength(1);
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'a wake that arrives during a running turn gets silence beacons on its own chip once it is worked on (watchdog spec A)',
    async () => {
      await h.idle(20_000);
      const first = await h.send('#conf-busy-3', '[[slow:2:500]] [[tool]] A quick one.');
      await h.busy(20_000);
      const second = await h.send('#conf-busy-4', '[[slow:3:1000]] [[tool]] Then a slow one.');
      expect((await h.terminal(first.wakeToken, 40_000)).status).toBe('reply_sent');
      const wake = await h.terminal(second.wakeToken, 40_000);
      expect(wake.status).toBe('reply_sent');
      expect(wake.beacons).toBeGreaterThanOrEqual(1);
      const { events } = await h.api['wakes.inspect']({ wakeToken: second.wakeToken });
      expect(events.filter((e) => e.kind === 'beacon').length).toBe(wake.beacons);
    },
    CASE_TIMEOUT,
  );

  it.sequential(
    'runtime crash mid-turn: the wake ends failed/cli_exited (never "no visible reply"); the restarted runtime gets one recovery wake that replies, then the next wake replies (contract §6.6, §9.2, issues 16 and 24)',
    async () => {
      await h.idle(20_000);
      const before = wakeCounters(await h.daemon.metrics.metrics(), runtime);
      const { wakeToken } = await h.send('#conf-crash', '[[slow:60:500]] [[tool]] A long job.');
      await h.busy(20_000);
      const cli = (runtimeProcesses(h.dir) ?? []).filter((p) => p.ppid === process.pid);
      expect(cli).toHaveLength(1);
      // The whole process group, as a crash or the OOM killer would end it.
      process.kill(-(cli[0]?.pid ?? 0), 'SIGKILL');
      const wake = await h.terminal(wakeToken, AFTER_START);
      // issue 24: the replacement process ends the runtime-visible row failed with the crash's reason
      // (contract §9.2 "runtime error → failed", §12 "never reclassified") and recovers it.
      expect({ status: wake.status, reason: wake.reason }).toEqual({ status: 'failed', reason: 'cli_exited' });
      expect(wake.detail).toMatch(/exited|SIGKILL|signal/i);
      // One synthetic recovery wake on the exact target, delivered into the restarted session.
      const recoveryWake = async () =>
        (await h.api['wakes.list']({ target: '#conf-crash', limit: 100 })).find((w) =>
          w.messageId.startsWith('msg_recovery_'),
        );
      await h.idle(Math.max(90_000, AFTER_START));
      const recovered = await recoveryWake();
      expect(recovered).toBeDefined();
      expect((await h.terminal(recovered?.wakeToken ?? '', Math.max(60_000, AFTER_START))).status).toBe('reply_sent');
      // The original says it was continued, and the inspector links the two wakes both ways.
      expect(
        (await h.api['wakes.list']({ target: '#conf-crash', limit: 100 })).find((w) => w.wakeToken === wakeToken)
          ?.recoveries,
      ).toBe(1);
      expect((await h.api['wakes.inspect']({ wakeToken })).continuedIn).toBe(recovered?.wakeToken);
      expect((await h.api['wakes.inspect']({ wakeToken: recovered?.wakeToken ?? '' })).continues).toEqual([wakeToken]);
      // §10.2: the crash is one failure; `no_reply` counts only agents that ended without the tool.
      const counters = wakeCounters(await h.daemon.metrics.metrics(), runtime);
      expect(counters.failed).toBe(before.failed + 1);
      expect(counters.noReply).toBe(before.noReply);
      await h.idle(60_000);
      const next = await h.send('#conf-crash', '[[tool]] Are you back?');
      expect((await h.terminal(next.wakeToken, 40_000)).status).toBe('reply_sent');
      // The recovery's reply and the next wake's: one each, nothing duplicated.
      expect(
        (await h.api['messages.list']({ target: '#conf-crash' })).messages.filter((m) => m.authorKind === 'agent'),
      ).toHaveLength(2);
    },
    CASE_TIMEOUT + 2 * AFTER_START,
  );

  it.sequential(
    'daemon restart on the same data dir: history and wake statuses survive, the runtime resumes its session, the next wake replies',
    async () => {
      await h.idle(20_000);
      const marker = `before-restart-${runtime}`;
      const earlier = await h.send('#conf-restart', `[[tool]] Remember ${marker}.`);
      expect((await h.terminal(earlier.wakeToken, 40_000)).status).toBe('reply_sent');
      await h.idle(20_000);
      const wakesBefore = (await h.api['wakes.list']({ limit: 1000 })).map((w) => [w.wakeToken, w.status]);
      const historyBefore = (await h.api['messages.list']({ target: '#conf-restart' })).messages;
      await h.restart();
      await h.ready(Math.max(90_000, AFTER_START));
      expect((await h.api['wakes.list']({ limit: 1000 })).map((w) => [w.wakeToken, w.status])).toEqual(wakesBefore);
      expect((await h.api['messages.list']({ target: '#conf-restart' })).messages).toEqual(historyBefore);
      const requestsBefore = h.model.requests.length;
      const { wakeToken } = await h.send('#conf-restart', '[[tool]] Are you back?');
      expect((await h.terminal(wakeToken, AFTER_START)).status).toBe('reply_sent');
      // The same session: the model's context after the restart still holds the earlier message.
      const answered = h.model.requests.slice(requestsBefore).find((r) => r.reply?.script === 'tool');
      expect(JSON.stringify(answered?.body ?? {})).toContain(marker);
    },
    CASE_TIMEOUT + 2 * AFTER_START,
  );

  it.sequential(
    'stop: the runtime processes (HOME isolated in the data dir) end with the daemon, no orphans; the secret is in no file of the store',
    async () => {
      const running = runtimeProcesses(h.dir);
      if (running === null) return expect.fail('cannot list processes on this platform (/proc)');
      // The check can fail: the runtime CLI is running now, with its HOME inside the data dir.
      expect(running.length).toBeGreaterThan(0);
      for (const p of running) expect(p.home?.startsWith(join(h.dir, 'runtimes', h.agentId))).toBe(true);
      await h.stop();
      expect(await runtimeProcessesAfter(h.dir)).toEqual([]);
      // After the store closed (WAL checkpointed into the database file).
      expect((await h.storeBytes()).includes(Buffer.from(SECRET, 'utf8'))).toBe(false);
      // No log line of any level (debug included) holds the secret or the runtime's model API key.
      expect(h.logLines.some((l) => l.level === 'debug')).toBe(true);
      expect(JSON.stringify(h.logLines)).not.toContain(SECRET);
      expect(JSON.stringify(h.logLines)).not.toContain(MODEL_API_KEY);
    },
    30_000,
  );
});
