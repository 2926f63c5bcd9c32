/**
 * issue 41 "budgets … stop a turn beyond them", through the whole daemon around the real CLIs that
 * report usage per model request (Codex, OpenCode) and their fake model server (`modelUsage`:
 * every scripted reply reports the same usage, fake-model-script.ts). The agent's daily budget is
 * below one reply's usage. The turn's first model request calls the runtime's shell (answered at
 * once); its usage report comes once that tool ran (measured: both CLIs report a request after its
 * tool calls), while the turn's second request streams far longer than the test
 * (`[[slow-after-tool:…]]`): the turn would go on. The report reaches the budget, so the daemon
 * ends the turn through the runtime's own interrupt (the Stop path): the wake ends `failed /
 * budget_reached` with the budget named, nothing is posted for it, and the next message waits
 * `paused / daily_budget` (the admission hold). Claude Code and the ACP runtimes report once per
 * turn, at its end: nothing is left to stop there (their next wakes wait).
 */
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiEvent, Wake } from '../../../shared/api/contract.js';
import { DaemonHarness, type RealRuntime } from '../../fixtures/daemon-harness.js';
import type { FixedUsage } from '../../fixtures/fake-model-script.js';

const FIXED: FixedUsage = { input: 1000, cached: 0, output: 10 };
/** Below one reply's usage: the first report of the turn reaches it. */
const BUDGET_TOKENS = 500;
/** Seconds the turn's second model request streams: far longer than the test. */
const SLOW_SECONDS = 600;

let harness: DaemonHarness | null = null;
afterEach(async () => {
  await harness?.dispose();
  harness = null;
}, 60_000);

/** The wake once `ok` holds (already, or at its next `wake.status`). */
async function wakeWhere(h: DaemonHarness, wakeToken: string, ok: (w: Wake) => boolean): Promise<Wake> {
  const next = firstValueFrom(
    h.daemon.events$.pipe(
      filter(
        (e): e is Extract<ApiEvent, { name: 'wake.status' }> =>
          e.name === 'wake.status' && e.payload.wakeToken === wakeToken && ok(e.payload),
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

describe.each(['codex', 'opencode'] as const satisfies readonly RealRuntime[])('%s', (kind) => {
  it('a usage report that reaches the daily budget ends the running turn (budget_reached); the next message waits paused', async () => {
    const h = await DaemonHarness.start(kind, {
      modelUsage: FIXED,
      // `full`: the shell call is answered at once, no approval to wait for.
      agentConfig: { budget: { tokens: BUDGET_TOKENS }, permissions: 'full' },
    });
    harness = h;
    await h.ready(60_000);
    const started = Date.now();
    const { wakeToken } = await h.send('#general', `[[shell:true]] [[slow-after-tool:${SLOW_SECONDS}]] go on`);
    const end = await h.terminal(wakeToken, 120_000);
    const tookMs = Date.now() - started;
    console.info(`${kind}: ended ${end.status}/${end.reason} after ${tookMs} ms: ${end.detail}`);
    expect(end).toMatchObject({ status: 'failed', reason: 'budget_reached' });
    expect(end.detail).toMatch(
      new RegExp(
        `^the agent's daily budget \\(${BUDGET_TOKENS} tokens\\) was reached during this turn \\(\\d+ tokens used today\\); Raise budget to continue$`,
      ),
    );
    // Cut short within the second request's stream, which alone lasts SLOW_SECONDS.
    expect(tookMs).toBeLessThan(SLOW_SECONDS * 1000);
    // The first request answered completely; the second (its shell result reported through
    // message_send) never finished streaming: nothing was posted for the wake.
    const scripted = h.model.requests.filter((r) => r.reply !== null).map((r) => r.reply?.script);
    expect(scripted[0]).toBe('shell');
    expect(scripted).not.toContain('after_shell');
    const posted = (await h.api['messages.list']({ target: '#general' })).messages.filter(
      (m) => m.authorId === h.agentId,
    );
    expect(posted).toEqual([]);
    const state = (await h.api['usage.summary']({ agentId: h.agentId })).budgets[0]?.state;
    expect(state).toMatchObject({ reached: true, kind: 'tokens', limit: BUDGET_TOKENS });

    // The next message is refused a start, visibly: paused until the budget is raised or the day ends.
    const next = await h.send('#general', 'and now this');
    const paused = await wakeWhere(h, next.wakeToken, (w) => w.status === 'paused');
    expect(paused.reason).toBe('daily_budget');
    expect(h.model.requests.filter((r) => r.input.includes('and now this'))).toEqual([]);
  }, 240_000);
});
