/**
 * issue 15 "each reason code reachable by a test": the model provider's own failures, through
 * the real Claude Code CLI and the fake Anthropic API (a real HTTP error on the wire), end the
 * wake `failed` with the reason from the closed vocabulary — `provider_error` carrying the HTTP
 * status in its detail (which the Details words quote), `provider_rate_limited` for a 429.
 * (auth_required and cli_missing: claude-sign-in / daemon-sign-in tests; cli_exited,
 * context_overflow, daemon_restarted: test/unit/main/daemon/wake/failure-reasons.test.ts and
 * agent-session.test.ts; approval_expired belongs to the approvals feature.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { failureWords, httpStatusOf } from '../../../shared/agent-readiness.js';
import { RuntimeHarness } from '../../fixtures/runtime-harness.js';
import { wordsOf } from '../../fixtures/runtime-words.js';

let harnesses: RuntimeHarness[] = [];
afterEach(async () => {
  await Promise.allSettled(harnesses.map((h) => h.stop()));
  harnesses = [];
});

describe('claude-code: provider failures end failed with their reason', () => {
  it.each([
    ['[[error500]]', 'provider_error', 500],
    ['[[error502]]', 'provider_error', 502],
    ['[[error429]]', 'provider_rate_limited', 429],
  ] as const)(
    '%s → %s',
    async (script, reason, status) => {
      // issue 27: `onUsageLimit: "fail"` keeps this behaviour (the default `wait` pauses a 429 instead).
      const h = await RuntimeHarness.start('claude-code', { onUsageLimit: 'fail' });
      harnesses.push(h);
      const end = await h.terminal(h.post(`@agent1 hello ${script}`));
      expect(end).toMatchObject({ status: 'failed', reason });
      expect(httpStatusOf(end.detail)).toBe(status);
      if (reason === 'provider_error')
        expect(
          failureWords(reason, 'en', { words: wordsOf('claude-code'), httpStatus: httpStatusOf(end.detail) }),
        ).toContain(`(HTTP ${status})`);
    },
    60_000,
  );
});
