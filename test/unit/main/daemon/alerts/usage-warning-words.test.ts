/** issue 27: a usage warning's words, led by the agent's name, in English and Simplified Chinese (times UTC). */
import { describe, expect, it } from 'vitest';
import { usageWarningWords } from '../../../../../main/daemon/alerts/usage-warning-words.js';

const window = (windowMinutes: number | null, usedPercent: number | null, resetsAt: string | null) => ({
  kind: 'limit_window' as const,
  window: {
    agentId: 'codex',
    runtime: 'codex' as const,
    window: 'primary',
    windowMinutes,
    usedPercent,
    resetsAt,
    observedAt: '2026-12-03T09:00:00.000Z',
  },
});

describe('usageWarningWords', () => {
  it('names the window, its use and its reset', () => {
    expect(usageWarningWords('Codex', window(300, 82.4, '2026-12-03T14:05:00.000Z'), 'en')).toBe(
      'Codex · 5-hour window at 82 % · resets 14:05 UTC',
    );
    expect(usageWarningWords('Codex', window(10_080, 91, '2026-12-03T14:05:00.000Z'), 'zh-CN')).toBe(
      'Codex · 每周窗口已用 91% · 14:05 UTC 重置',
    );
    expect(usageWarningWords('Codex', window(null, 80, null), 'en')).toBe('Codex · primary window at 80 %');
  });

  it('says the daily budget, tokens or cost, used of its limit', () => {
    const state = {
      reached: false,
      kind: 'tokens' as const,
      used: 850,
      limit: 1000,
      resetsAt: '2026-12-04T00:00:00.000Z',
    };
    const budget = { kind: 'budget' as const, state };
    expect(usageWarningWords('Claude', budget, 'en')).toBe('Claude · daily token budget at 85 % (850 / 1000)');
    expect(usageWarningWords('Claude', budget, 'zh-CN')).toBe('Claude · 每日令牌预算已用 85%（850 / 1000）');
    const cost = { kind: 'budget' as const, state: { ...state, kind: 'cost' as const, used: 4.5, limit: 5 } };
    expect(usageWarningWords('Claude', cost, 'en')).toBe('Claude · daily cost budget at 90 % ($4.50 / $5)');
  });
});
