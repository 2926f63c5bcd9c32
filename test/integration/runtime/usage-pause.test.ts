/**
 * issue 27 "pause, don't fail", through each real CLI and its fake model server: the provider
 * refuses the turn with a 429 and `retry-after: 1` once (`[[rate-limit]]`), then answers. Each CLI
 * decides itself what it does with a 429 (Claude Code runs with `CLAUDE_CODE_MAX_RETRIES=0`, the
 * harness's setting; Codex and OpenCode keep their own retries): the test records what the daemon
 * saw. When the CLI surfaces the refusal, the wake pauses (never fails), shows its reset — from
 * what the CLI surfaced, else the agent's `usageLimitBackoffSeconds` — is delivered again after
 * it and ends `reply_sent` once, with exactly one reply stored. `"fail"` keeps
 * `failed/provider_rate_limited` (failure-reasons.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { filter, firstValueFrom } from 'rxjs';
import { isTerminal } from '../../../shared/wake-status.js';
import type { WakeStatusEvent } from '../../../main/daemon/wake/wake-status-event.js';
import { RuntimeHarness } from '../../fixtures/runtime-harness.js';

let harnesses: RuntimeHarness[] = [];
afterEach(async () => {
  await Promise.allSettled(harnesses.map((h) => h.stop()));
  harnesses = [];
});

/** The wake's first event with `status` (already seen, or the next one). */
function statusOf(h: RuntimeHarness, wakeToken: string, status: string): Promise<WakeStatusEvent> {
  const seen = h.statuses.find((s) => s.wakeToken === wakeToken && s.status === status);
  if (seen !== undefined) return Promise.resolve(seen);
  return firstValueFrom(h.lifecycle.wakeStatus$.pipe(filter((s) => s.wakeToken === wakeToken && s.status === status)));
}

const BACKOFF_SECONDS = 2;

describe.each(['claude-code', 'codex', 'opencode'] as const)('%s: a 429 with retry-after pauses the wake', (kind) => {
  it('pauses, shows the reset, is delivered again once after it and ends reply_sent once', async () => {
    const h = await RuntimeHarness.start(kind, { usageLimitBackoffSeconds: BACKOFF_SECONDS });
    harnesses.push(h);
    const token = h.post('@agent1 hello [[rate-limit]] [[tool]]');
    const end = await h.terminal(token);
    expect(end.status).toBe('reply_sent');
    const statuses = h.statusesOf(token);
    expect(statuses.filter((s) => isTerminal(s as WakeStatusEvent['status']))).toEqual(['reply_sent']);
    // Exactly one reply stored for the one operator message: nothing lost, nothing duplicated.
    expect(h.messages.filter((m) => m.author === 'agent1')).toHaveLength(1);
    // The fake refused exactly once (its 429 is spent) — whoever retried.
    const refused = h.fake.requests.filter((r) => r.reply === null && r.input.includes('[[rate-limit]]'));
    expect(refused.length).toBe(1);
    if (!statuses.includes('paused')) {
      // The CLI retried the 429 itself (honouring retry-after) and never surfaced it: no pause
      // is due, and the wake was delivered once.
      expect(h.promptInputs.filter((p) => p.kind === 'delivery' && p.wakeTokens.includes(token))).toHaveLength(1);
      console.info(`${kind}: retried the 429 itself; the daemon saw no limit`);
      return;
    }
    const paused = await statusOf(h, token, 'paused');
    expect(paused.reason).toBe('usage_limit');
    const until = /until (\S+?)(?:;|$)/.exec(paused.detail ?? '')?.[1];
    expect(until, `the pause names its reset: ${paused.detail}`).toBeDefined();
    const waitMs = Date.parse(until as string) - Date.parse(paused.at);
    // From retry-after (1 s) when the CLI surfaced it, else the configured backoff.
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(BACKOFF_SECONDS * 1000 + 50);
    console.info(
      `${kind}: paused ${waitMs} ms (${waitMs <= 1050 ? 'retry-after surfaced' : 'backoff'}): ${paused.detail}`,
    );
    // queued → delivered → paused → queued (the reset) → delivered (again, once) → … → reply_sent.
    expect(statuses.slice(0, 5)).toEqual(['queued', 'delivered', 'paused', 'queued', 'delivered']);
    expect(statuses.filter((s) => s === 'paused')).toHaveLength(1);
    const resumed = h.statuses.filter((s) => s.wakeToken === token && s.status === 'delivered')[1] as WakeStatusEvent;
    expect(Date.parse(resumed.at)).toBeGreaterThanOrEqual(Date.parse(until as string));
    const deliveries = h.promptInputs.filter((p) => p.kind === 'delivery' && p.wakeTokens.includes(token));
    expect(deliveries).toHaveLength(2);
    // issue 38: the operator's task is written once; the resume continues it in the same session.
    expect(deliveries.filter((p) => p.text.includes('@agent1 hello'))).toHaveLength(1);
    expect(deliveries[1]?.text).toContain('<agentteam-resume target="#general"');
    // No silence beacon while paused (the operator has been told).
    expect(h.beacons).toEqual([]);
  }, 120_000);
});

describe('claude-code: a usage limit inside a final-check turn (issue 38)', () => {
  it('pauses the wake (never fails it), never re-asks the task, and the model gets at most one final-check', async () => {
    const h = await RuntimeHarness.start('claude-code', { usageLimitBackoffSeconds: BACKOFF_SECONDS });
    harnesses.push(h);
    // The model answers locally, the final-check goes out, and the provider refuses that turn: 429.
    const token = h.post('@agent1 which file first? [[local]] [[429-on-check]]');
    const end = await h.terminal(token);
    const statuses = h.statusesOf(token);
    // Paused in the final-check turn, then continued: never failed, one terminal.
    expect(statuses).toContain('paused');
    expect(statuses).not.toContain('failed');
    expect(statuses.filter((s) => isTerminal(s as WakeStatusEvent['status']))).toHaveLength(1);
    expect(statuses.slice(0, 5)).toEqual(['queued', 'delivered', 'final_check_sent', 'paused', 'queued']);
    // The model answered the continuation without the tool: the row had had its one final-check.
    expect(end).toMatchObject({ status: 'completed_without_visible_reply', reason: 'no_reply' });
    // One final-check recorded, and the model received its text once (the refused request aside).
    expect(h.finalChecksFor(token)).toBe(1);
    const answered = h.fake.requests.filter((r) => r.reply !== null && /final delivery check/i.test(r.input));
    expect(answered).toHaveLength(0);
    // The operator's task was written into the runtime once; the resume was a continuation.
    const deliveries = h.promptInputs.filter((p) => p.kind === 'delivery' && p.wakeTokens.includes(token));
    expect(deliveries.filter((p) => p.text.includes('which file first?'))).toHaveLength(1);
    expect(deliveries.at(-1)?.text).toContain('<agentteam-resume');
    expect(h.fake.requests.filter((r) => r.input.includes('which file first?'))).toHaveLength(1);
  }, 120_000);
});
