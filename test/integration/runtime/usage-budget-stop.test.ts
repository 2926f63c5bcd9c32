/**
 * issue 41 "budgets … stop a turn beyond them", through the whole daemon around the real Codex CLI
 * (it reports usage per model request, as soon as the request completes) and its fake model server (`modelUsage`: every
 * scripted reply reports the same usage, fake-model-script.ts). The agent's daily budget is below
 * one reply's usage. The turn's first model reply asks the runtime's shell to `sleep` far longer
 * than the test: the turn would go on, but the usage report of that first reply reaches the
 * budget, so the daemon ends the turn through the runtime's own interrupt (the Stop path) — the
 * wake ends `failed / budget_reached` with the budget named, the model is asked nothing more for
 * it — and the next message waits `paused / daily_budget` (the admission hold).
 *
 * Not OpenCode here: it reports a message's tokens once the message is completed, which is after
 * the message's tool calls ran (measured with OpenCode 1.18.33: no report within 120 s while its
 * `sleep` ran), so a long tool call is not cut short by its own request's usage. Claude Code and
 * the ACP runtimes report once per turn, at its end (nothing is left to stop).
 */
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Wake } from '../../../shared/api/contract.js';
import { DaemonHarness, type RealRuntime } from '../../fixtures/daemon-harness.js';
import type { FixedUsage } from '../../fixtures/fake-model-script.js';

const FIXED: FixedUsage = { input: 1000, cached: 0, output: 10 };
/** Below one reply's usage: the first report of the turn reaches it. */
const BUDGET_TOKENS = 500;
/** Far longer than the test: the turn never ends by itself. */
const SLEEP_SECONDS = 600;

let harness: DaemonHarness | null = null;
afterEach(async () => {
  await harness?.dispose();
  harness = null;
}, 60_000);

/** The wake once `ok` holds (already, or at its next `wake.updated`). */
async function wakeWhere(h: DaemonHarness, wakeToken: string, ok: (w: Wake) => boolean): Promise<Wake> {
  const next = firstValueFrom(
    h.daemon.events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'wake.updated' }> =>
          e.name === 'wake.updated' && e.payload.wakeToken === wakeToken && ok(e.payload),
      ),
    ),
    { defaultValue: null },
  );
  const now = (await h.api['wakes.list']({})).find((w) => w.wakeToken === wakeToken);
  if (now !== undefined && ok(now)) return now;
  const seen = await next;
  if (seen === null) throw new Error(`the daemon stopped before wake ${wakeToken} was as expected`);
  return seen.payload;
}

describe.each(['codex'] as const satisfies readonly RealRuntime[])('%s', (kind) => {
  it('a usage report that reaches the daily budget ends the running turn (budget_reached); the next message waits paused', async () => {
    const h = await DaemonHarness.start(kind, {
      modelUsage: FIXED,
      agentConfig: { budget: { tokens: BUDGET_TOKENS }, permissions: 'full' },
    });
    harness = h;
    await h.ready(60_000);
    const started = Date.now();
    const { wakeToken } = await h.send('#general', `[[shell:sleep ${SLEEP_SECONDS}]] wait for me`);
    const end = await h.terminal(wakeToken, 120_000);
    const tookMs = Date.now() - started;
    console.info(`${kind}: ended ${end.status}/${end.reason} after ${tookMs} ms: ${end.detail}`);
    expect(end).toMatchObject({ status: 'failed', reason: 'budget_reached' });
    expect(end.detail).toMatch(
      new RegExp(
        `^the agent's daily budget \\(${BUDGET_TOKENS} tokens\\) was reached during this turn \\(\\d+ tokens used today\\); Raise budget to continue`,
      ),
    );
    expect(tookMs).toBeLessThan(SLEEP_SECONDS * 1000);
    // The turn did not go on: the model was asked nothing after the shell call it answered.
    const scripted = h.model.requests.filter((r) => r.reply !== null);
    expect(scripted.map((r) => r.reply?.script)).toEqual(['shell']);
    const state = (await h.api['usage.summary']({ agentId: h.agentId })).budgets[0]?.state;
    expect(state).toMatchObject({ reached: true, kind: 'tokens', limit: BUDGET_TOKENS });

    // The next message is refused a start, visibly: paused until the budget is raised or the day ends.
    const next = await h.send('#general', 'and now this');
    const paused = await wakeWhere(h, next.wakeToken, (w) => w.status === 'paused');
    expect(paused.reason).toBe('daily_budget');
    expect(h.model.requests.filter((r) => r.reply !== null)).toHaveLength(1);
  }, 240_000);
});
