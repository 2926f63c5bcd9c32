/**
 * issue 27 "usage from the runtimes' own reports", through each real CLI: the whole daemon around
 * Claude Code, Codex and OpenCode, each against its fake model server that reports a fixed usage
 * for every reply (`modelUsage`: uncached input, cached input, output — each wire in its own shape,
 * fake-model-script.ts). A `[[tool]]` turn takes the model requests the fake records (the
 * message_send call, then the answer after its result); the usage stored on the wake, the agent's
 * day in `usage.summary` (what `agentteam usage` prints) and the `agentteam_agent_tokens_total` metric
 * equal exactly that many times the fixed usage — no estimate, nothing lost or counted twice.
 * Measured: each CLI passes the counts through unchanged (Codex and OpenCode subtract nothing:
 * OpenAI's cached tokens are inside the prompt count, the daemon splits them out); Claude Code
 * reports the turn's sum once in its `result`, Codex and OpenCode once per model request.
 */
import { filter, firstValueFrom, timeout } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { WakeUsage } from '../../../shared/usage.js';
import { DaemonHarness, type RealRuntime } from '../../fixtures/daemon-harness.js';
import type { FixedUsage } from '../../fixtures/fake-model-script.js';

/** Distinct numbers per kind, so a kind counted as another shows. */
const FIXED: FixedUsage = { input: 1234, cached: 567, output: 89 };

/**
 * The wake's stored usage once `done` holds, re-read on each `usage.updated` (subscribed before
 * each read, so none is missed); what is stored when none comes within `ms`.
 */
async function usageOf(
  h: DaemonHarness,
  wakeToken: string,
  done: (u: WakeUsage) => boolean,
  ms: number,
): Promise<WakeUsage | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const next = firstValueFrom(
      h.daemon.events$.pipe(
        filter((e) => e.name === 'usage.updated'),
        timeout({ first: Math.max(1, deadline - Date.now()) }),
      ),
    ).catch(() => null);
    const usage = (await h.api['wakes.inspect']({ wakeToken })).usage ?? null;
    if ((usage !== null && done(usage)) || (await next) === null) return usage;
  }
}

let harness: DaemonHarness | null = null;
afterEach(async () => {
  await harness?.dispose();
  harness = null;
}, 60_000);

describe.each(['claude-code', 'codex', 'opencode'] as const satisfies readonly RealRuntime[])('%s', (kind) => {
  it('stores exactly the usage the fake model reported for the turn (wake, day, metric)', async () => {
    const h = await DaemonHarness.start(kind, { modelUsage: FIXED });
    harness = h;
    await h.ready(60_000);
    const { wakeToken } = await h.send('#general', 'count me [[tool]]');
    expect((await h.terminal(wakeToken, 90_000)).status).toBe('reply_sent');
    await h.idle(60_000);
    // The scripted replies the fake served for this turn (a CLI's title request is not one).
    const replies = h.model.requests.filter((r) => r.reply !== null).length;
    expect(replies).toBeGreaterThanOrEqual(2);
    const expected = {
      inputTokens: replies * FIXED.input,
      cachedTokens: replies * FIXED.cached,
      outputTokens: replies * FIXED.output,
    };
    // A CLI may report after the turn's end (Codex's token usage, OpenCode's message update): wait for it.
    const usage = await usageOf(h, wakeToken, (u) => u.inputTokens >= expected.inputTokens, 30_000);
    console.info(`${kind}: ${replies} scripted model replies; stored ${JSON.stringify(usage)}`);
    // One turn, whether the CLI reports once per turn (Claude Code's result) or per model request.
    expect(usage).toMatchObject({ ...expected, agentId: h.agentId, runtime: kind, turns: 1 });
    // Cost as each CLI reports it: Claude Code prices a model it does not know ("fake-model") at
    // $5 / $25 / $0.50 per million input / output / cache-read tokens; OpenCode reports 0 for a
    // model without pricing; Codex reports none (null, never 0).
    const cost = {
      'claude-code': (expected.inputTokens * 5 + expected.outputTokens * 25 + expected.cachedTokens * 0.5) / 1e6,
      opencode: 0,
      codex: null,
    }[kind];
    if (cost === null) expect(usage?.costUsd).toBeNull();
    else expect(usage?.costUsd).toBeCloseTo(cost, 9);

    const summary = await h.api['usage.summary']({ agentId: h.agentId });
    expect(summary.days).toHaveLength(1);
    expect(summary.days[0]).toMatchObject({ ...expected, wakes: 1, turns: 1 });

    const metrics = await h.daemon.metrics.metrics();
    for (const [k, n] of [
      ['input', expected.inputTokens],
      ['cached', expected.cachedTokens],
      ['output', expected.outputTokens],
    ] as const)
      expect(metrics).toContain(`agentteam_agent_tokens_total{runtime="${kind}",kind="${k}"} ${n}`);
  }, 240_000);
});
