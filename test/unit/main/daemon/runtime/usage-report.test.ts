/** issue 27: each runtime's usage report, normalised (wire shapes from the CLIs' stream-json / app-server / SSE). */
import { describe, expect, it } from 'vitest';
import {
  acpPromptUsage,
  claudeRateLimitWindow,
  claudeResultUsage,
  codexRateLimitWindows,
  codexTokenUsage,
  openCodeMessageUsage,
} from '../../../../../main/daemon/runtime/usage-report.js';

describe('usage reports', () => {
  it('Claude Code result: cache writes count as input, cache reads as cached, total_cost_usd as cost', () => {
    const result = {
      type: 'result',
      subtype: 'success',
      total_cost_usd: 0.0123,
      usage: { input_tokens: 11, cache_creation_input_tokens: 200, cache_read_input_tokens: 3000, output_tokens: 42 },
    };
    expect(claudeResultUsage(result)).toEqual({
      inputTokens: 211,
      outputTokens: 42,
      cachedTokens: 3000,
      costUsd: 0.0123,
    });
    expect(claudeResultUsage({ type: 'result' })).toBeNull();
    expect(claudeResultUsage({ type: 'result', usage: { input_tokens: 'x', output_tokens: 1 } })).toBeNull();
  });

  it('Codex token usage: the last turn, cached taken out of input, no cost', () => {
    const breakdown = (n: number) => ({
      totalTokens: 0,
      inputTokens: 1000 * n,
      cachedInputTokens: 600 * n,
      cacheWriteInputTokens: 0,
      outputTokens: 50 * n,
      reasoningOutputTokens: 10 * n,
    });
    const params = {
      threadId: 't',
      turnId: 'u',
      tokenUsage: { total: breakdown(3), last: breakdown(1), modelContextWindow: null },
    };
    expect(codexTokenUsage(params)).toEqual({ inputTokens: 400, outputTokens: 50, cachedTokens: 600, costUsd: null });
    expect(codexTokenUsage({})).toBeNull();
  });

  it('Codex rate limits: primary and secondary windows with used percent and reset', () => {
    const windows = codexRateLimitWindows({
      rateLimits: {
        primary: { usedPercent: 72, windowDurationMins: 300, resetsAt: 1_796_220_300 },
        secondary: { usedPercent: 15.5, windowDurationMins: 10_080, resetsAt: null },
      },
    });
    expect(windows).toEqual([
      {
        runtime: 'codex',
        window: 'primary',
        windowMinutes: 300,
        usedPercent: 72,
        resetsAt: '2026-12-02T14:05:00.000Z',
      },
      { runtime: 'codex', window: 'secondary', windowMinutes: 10_080, usedPercent: 15.5, resetsAt: null },
    ]);
    expect(codexRateLimitWindows({ rateLimits: { primary: null, secondary: null } })).toEqual([]);
  });

  it('Claude Code rate limit event: a rejected window is 100 % with its reset', () => {
    expect(
      claudeRateLimitWindow({
        type: 'rate_limit_event',
        rate_limit_info: { status: 'rejected', resetsAt: 1_796_220_300, rateLimitType: 'five_hour' },
      }),
    ).toEqual({
      runtime: 'claude-code',
      window: 'five_hour',
      windowMinutes: 300,
      usedPercent: 100,
      resetsAt: '2026-12-02T14:05:00.000Z',
    });
    expect(claudeRateLimitWindow({ type: 'rate_limit_event' })).toBeNull();
    // 2.1.197's warning (`allowed_warning`, utilization a fraction) of a weekly model window.
    expect(
      claudeRateLimitWindow({
        type: 'rate_limit_event',
        rate_limit_info: {
          status: 'allowed_warning',
          resetsAt: 1_796_220_300,
          rateLimitType: 'seven_day_opus',
          utilization: 0.82,
        },
      }),
    ).toEqual({
      runtime: 'claude-code',
      window: 'seven_day_opus',
      windowMinutes: 10_080,
      usedPercent: 82,
      resetsAt: '2026-12-02T14:05:00.000Z',
    });
  });

  it('OpenCode assistant message: reasoning counts as output, cache write as input', () => {
    const info = {
      role: 'assistant',
      cost: 0.5,
      tokens: { input: 20, output: 7, reasoning: 3, cache: { read: 100, write: 5 } },
    };
    expect(openCodeMessageUsage(info)).toEqual({ inputTokens: 25, outputTokens: 10, cachedTokens: 100, costUsd: 0.5 });
    expect(openCodeMessageUsage({ ...info, role: 'user' })).toBeNull();
  });

  it("issue 41: an ACP prompt answer — ACP's own usage (disjoint counts), else Gemini CLI's _meta.quota; none is null", () => {
    expect(
      acpPromptUsage({
        stopReason: 'end_turn',
        usage: {
          totalTokens: 1900,
          inputTokens: 1000,
          outputTokens: 80,
          thoughtTokens: 20,
          cachedReadTokens: 600,
          cachedWriteTokens: 200,
        },
      }),
    ).toEqual({ inputTokens: 1200, outputTokens: 100, cachedTokens: 600, costUsd: null });
    // Gemini CLI 0.61's answer (its bundle: _meta.quota.token_count summed over the prompt's requests).
    expect(
      acpPromptUsage({
        stopReason: 'end_turn',
        _meta: {
          quota: {
            token_count: { input_tokens: 1234, output_tokens: 56 },
            model_usage: [{ model: 'gemini-2.5-pro', token_count: { input_tokens: 1234, output_tokens: 56 } }],
          },
        },
      }),
    ).toEqual({ inputTokens: 1234, outputTokens: 56, cachedTokens: 0, costUsd: null });
    // Copilot reports nothing: nothing is stored (never zeros); a malformed count is no report either.
    expect(acpPromptUsage({ stopReason: 'end_turn' })).toBeNull();
    expect(acpPromptUsage({ stopReason: 'end_turn', usage: { inputTokens: -1, outputTokens: 2 } })).toBeNull();
  });
});
