/** issue 27: the usage counters, by runtime and kind, with no agent label. */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createUsageMetrics } from '../../../../../main/daemon/usage/usage-metrics.js';

describe('usage metrics', () => {
  it('counts each token kind and the reported cost per runtime', async () => {
    const registry = new Registry();
    const m = createUsageMetrics(registry);
    m.record('claude-code', { inputTokens: 11, outputTokens: 4, cachedTokens: 100, costUsd: 0.25 });
    m.record('claude-code', { inputTokens: 1, outputTokens: 1, cachedTokens: 0, costUsd: 0.5 });
    m.record('codex', { inputTokens: 7, outputTokens: 2, cachedTokens: 3, costUsd: null });
    const text = await registry.metrics();
    expect(text).toContain('agentteam_agent_tokens_total{runtime="claude-code",kind="input"} 12');
    expect(text).toContain('agentteam_agent_tokens_total{runtime="claude-code",kind="cached"} 100');
    expect(text).toContain('agentteam_agent_tokens_total{runtime="codex",kind="output"} 2');
    expect(text).toContain('agentteam_agent_cost_usd_total{runtime="claude-code"} 0.75');
    // issue 41: a series at 0 from the start; a runtime that reports no cost stays there.
    expect(text).toContain('agentteam_agent_cost_usd_total{runtime="codex"} 0');
    expect(text).toContain('agentteam_agent_tokens_total{runtime="acp",kind="output"} 0');
    expect(text).not.toMatch(/agent_(tokens|cost_usd)_total\{[^}]*agent/);
  });
});
