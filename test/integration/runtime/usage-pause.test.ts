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
    // queued → delivered → paused → delivered (again, once) → … → reply_sent.
    expect(statuses.slice(0, 4)).toEqual(['queued', 'delivered', 'paused', 'delivered']);
    expect(statuses.filter((s) => s === 'paused')).toHaveLength(1);
    const resumed = h.statuses.filter((s) => s.wakeToken === token && s.status === 'delivered')[1] as WakeStatusEvent;
    expect(Date.parse(resumed.at)).toBeGreaterThanOrEqual(Date.parse(until as string));
    expect(h.promptInputs.filter((p) => p.kind === 'delivery' && p.wakeTokens.includes(token))).toHaveLength(2);
    // No silence beacon while paused (the operator has been told).
    expect(h.beacons).toEqual([]);
  }, 120_000);
});
