/**
 * A native compaction is a continuation, end to end with each REAL runtime CLI (issue 24;
 * contract §8.3, §9.2; DESIGN.md "Compaction, context overflow, crashes"). The fake model answers
 * `[[compact]]` with a tool call while reporting a context near full (COMPACT_USAGE_TOKENS), so the
 * CLI compacts its own session inside the turn: Claude Code auto-compacts (its threshold for a 200k
 * window), Codex auto-compacts (`model_auto_compact_token_limit`), OpenCode auto-compacts (the
 * model's `limit.context`). The fake answers the CLI's own summary request with the request's exact
 * target and `[[tool]]`, so the continued turn replies through message_send.
 *
 * Checked through the API, the store and the fake: the CLI really compacted (its summary request
 * reached the fake; the wake's timeline has one "compaction" entry); the wake stayed pending
 * through it and ends `reply_sent` (the send scope survived: the reply was not refused as out of
 * scope); ONE wake, no recovery marker, no recovery wake; the operator's input was written into the
 * runtime once (one delivery prompt, no recovery prompt), in the same runtime process.
 *
 * Run one runtime at a time: `npx vitest run test/conformance/daemon/compaction.test.ts -t codex`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../../main/daemon/store/index.js';
import { isTerminal } from '../../../shared/wake-status.js';
import { COMPACT_USAGE_TOKENS } from '../../fixtures/fake-model-script.js';
import {
  DaemonHarness,
  runtimeProcesses,
  type DaemonHarnessOptions,
  type RealRuntime,
} from '../../fixtures/daemon-harness.js';

const TARGET = '#compaction';
/** Below COMPACT_USAGE_TOKENS: where each CLI is told to compact (Claude Code's own default is below it). */
const LIMIT = Math.floor(COMPACT_USAGE_TOKENS / 2);

const OPTIONS: Readonly<Record<RealRuntime, DaemonHarnessOptions>> = {
  // Claude Code compacts against a window it is told (its minimum, 100k): without one it only compacts
  // reactively, when the provider refuses a prompt as too long.
  'claude-code': { agentEnv: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000' } },
  codex: { agentArgs: ['-c', `model_auto_compact_token_limit=${LIMIT}`] },
  opencode: {
    agentEnv: {
      // Merged over the daemon's opencode.json: the fake model's context window (OpenCode compacts past it).
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        provider: { agentteam: { models: { 'fake-model': { limit: { context: LIMIT, output: 4096 } } } } },
      }),
    },
  },
};

describe.each(Object.keys(OPTIONS) as RealRuntime[])(
  '%s: a native compaction is a continuation (real CLI)',
  (runtime) => {
    let h: DaemonHarness | undefined;

    afterEach(async () => {
      await h?.dispose();
      h = undefined;
    }, 60_000);

    it('the wake stays pending through the compaction and ends reply_sent: one wake per message, nothing recovered or re-sent', async () => {
      h = await DaemonHarness.start(runtime, OPTIONS[runtime]);
      await h.ready(90_000);
      await h.api['conversations.create']({ target: TARGET }).catch(() => undefined);
      const pidsBefore = (runtimeProcesses(h.dir) ?? []).map((p) => p.pid);

      // A first exchange: the session has history to summarise (Claude Code keeps the running turn's tail).
      const first = await h.send(TARGET, '[[tool]] Start the design review.');
      expect((await h.terminal(first.wakeToken, 60_000)).status).toBe('reply_sent');
      await h.idle(30_000);
      const requestsBefore = h.model.requests.length;

      const sent = await h.send(TARGET, '[[compact]] Please work through the whole design history, then answer.');
      const wake = await h.terminal(sent.wakeToken, 120_000);
      const requests = h.model.requests.slice(requestsBefore).map((r) => r.reply?.script ?? null);
      expect(wake.status, `${JSON.stringify(wake)}\n${JSON.stringify(requests)}\n${h.errorLog()}`).toBe('reply_sent');

      // The CLI compacted natively: the fake was asked for its summary, after the near-full context.
      expect(requests).toContain('compact');
      expect(requests.indexOf('compaction_summary')).toBeGreaterThan(requests.indexOf('compact'));
      // …and the reply came after it, through the tool, in the continued turn or at its one final-check.
      const afterSummary = requests.slice(requests.indexOf('compaction_summary') + 1);
      expect(afterSummary.filter((s) => s === 'tool' || s === 'final_check')).toHaveLength(1);

      // The inspector: one "compaction" entry on the wake, which stayed active through it (one terminal).
      const { events, promptInputs } = await h.api['wakes.inspect']({ wakeToken: sent.wakeToken });
      expect(events.filter((e) => e.kind === 'compaction')).toHaveLength(1);
      const compactedAt = events.findIndex((e) => e.kind === 'compaction');
      expect(events.findIndex((e) => e.status !== null && isTerminal(e.status))).toBeGreaterThan(compactedAt);
      expect(events.filter((e) => e.status !== null && isTerminal(e.status))).toHaveLength(1);
      // Nothing re-sent: the input went into the runtime once, no recovery prompt; at most the one final-check.
      const kinds = promptInputs.map((p) => p.kind);
      expect(kinds.filter((k) => k === 'delivery')).toHaveLength(1);
      expect(kinds).not.toContain('recovery');
      expect(kinds.filter((k) => k === 'final_check').length).toBeLessThanOrEqual(1);

      // One wake per message, no recovery marker, no synthetic recovery wake.
      const wakes = await h.api['wakes.list']({ limit: 100 });
      expect(wakes.map((w) => w.wakeToken).sort()).toEqual([first.wakeToken, sent.wakeToken].sort());
      expect(wakes.every((w) => w.recoveries === 0 && isTerminal(w.status))).toBe(true);
      const store = Store.openReadOnly(h.dir);
      try {
        expect(store.listRecoveryMarkers(h.agentId)).toEqual([]);
      } finally {
        store.close();
      }

      // One visible reply per message, by the agent, on the exact target.
      const replies = (await h.api['messages.list']({ target: TARGET, limit: 50 })).messages.filter(
        (m) => m.authorId === h!.agentId,
      );
      expect(replies).toHaveLength(2);

      // The same runtime process throughout; the daemon saw the compaction as a continuation.
      expect(h.logLines.some((l) => l.message === 'runtime compacted its context; the turn continues')).toBe(true);
      expect(h.logLines.some((l) => l.message === 'recovery markers saved')).toBe(false);
      const pidsAfter = (runtimeProcesses(h.dir) ?? []).map((p) => p.pid);
      expect(pidsAfter.filter((p) => pidsBefore.includes(p)).length).toBeGreaterThan(0);
    }, 240_000);
  },
);
