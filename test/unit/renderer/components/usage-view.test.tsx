// @vitest-environment happy-dom
/** issue 27: the usage store (fetch, coalesced refetch on `usage.updated`) and the Usage view's words and table. */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClientApi } from '../../../../shared/api/contract.js';
import type { UsageSummary } from '../../../../shared/usage.js';
import { AgentUsageFacts, UsageView, WakeUsageFacts } from '../../../../renderer/src/components/usage-view.js';
import { budgetText, formatCost, limitWindowText } from '../../../../renderer/src/components/usage-words.js';
import { agentDays, lastDays, UsageStore } from '../../../../renderer/src/state/usage-store.js';
import { agentOf } from '../../../fixtures/contract-values.js';

afterEach(cleanup);

const summaryOf = (over: Partial<UsageSummary> = {}): UsageSummary => ({
  today: '2026-12-02',
  days: [
    {
      agentId: 'claude',
      runtime: 'claude-code',
      day: '2026-12-02',
      wakes: 2,
      turns: 3,
      inputTokens: 1200,
      outputTokens: 340,
      cachedTokens: 5000,
      costUsd: 0.0123,
    },
    {
      agentId: 'claude',
      runtime: 'claude-code',
      day: '2026-11-30',
      wakes: 1,
      turns: 1,
      inputTokens: 10,
      outputTokens: 20,
      cachedTokens: 0,
      costUsd: 0.001,
    },
    {
      agentId: 'codex',
      runtime: 'codex',
      day: '2026-12-02',
      wakes: 1,
      turns: 1,
      inputTokens: 900,
      outputTokens: 100,
      cachedTokens: 0,
      costUsd: null,
    },
  ],
  limits: [
    {
      agentId: 'codex',
      runtime: 'codex',
      window: 'secondary',
      windowMinutes: 10080,
      usedPercent: 12,
      resetsAt: null,
      observedAt: '2026-12-02T10:00:00.000Z',
    },
    {
      agentId: 'codex',
      runtime: 'codex',
      window: 'primary',
      windowMinutes: 300,
      usedPercent: 72.4,
      resetsAt: null,
      observedAt: '2026-12-02T10:00:00.000Z',
    },
  ],
  budgets: [
    {
      agentId: 'claude',
      budget: { tokens: 1_000_000 },
      state: { reached: false, kind: 'tokens', used: 800_000, limit: 1_000_000, resetsAt: '2026-12-03T00:00:00.000Z' },
    },
    {
      agentId: 'codex',
      budget: null,
      state: { reached: false, kind: 'tokens', used: 1000, limit: null, resetsAt: '2026-12-03T00:00:00.000Z' },
    },
  ],
  ...over,
});

function apiAnswering(answers: Array<UsageSummary | string>) {
  const summary = vi.fn(async () => {
    const next = answers.shift();
    if (next === undefined) throw new Error('no more answers');
    return typeof next === 'string'
      ? { ok: false as const, code: 'internal', message: next }
      : { ok: true as const, value: next };
  });
  return { api: { usage: { summary } } as unknown as ClientApi, summary };
}

describe('UsageStore', () => {
  it('fetches the summary; loads asked while one is in flight become exactly one more fetch, ending on the latest', async () => {
    const first = summaryOf();
    const latest = summaryOf({ today: '2026-12-03' });
    const { api, summary } = apiAnswering([first, latest]);
    const store = new UsageStore(api);
    const seen: Array<string | undefined> = [];
    const done = new Promise<void>((resolve) =>
      store.subscribe('summary', () => {
        seen.push(store.summary?.today);
        if (seen.length === 2) resolve();
      }),
    );
    // The first subscriber's fetch is in flight; two changes meanwhile are one more fetch.
    store.changed();
    store.changed();
    await done;
    expect(summary).toHaveBeenCalledTimes(2);
    expect(seen).toEqual(['2026-12-02', '2026-12-03']);
    expect(store.summary).toBe(latest);
  });

  it('fetches only while something shows the summary: a change unseen is fetched by the next subscriber, once (issue 30)', async () => {
    const { api, summary } = apiAnswering([summaryOf(), summaryOf({ today: '2026-12-03' })]);
    const store = new UsageStore(api);
    // Start and a stream of usage.updated with nothing shown: no request at all.
    for (let i = 0; i < 50; i++) store.changed();
    expect(summary).not.toHaveBeenCalled();
    // The Usage view opens: one fetch.
    let seen = 0;
    const shown = new Promise<void>((resolve) =>
      store.subscribe('summary', () => {
        seen++;
        resolve();
      }),
    );
    expect(summary).toHaveBeenCalledTimes(1);
    await shown;
    expect(store.summary?.today).toBe('2026-12-02');
    // A second viewer of a fresh summary fetches nothing; a change while shown fetches at once.
    const stop = store.subscribe('summary', () => undefined);
    expect(summary).toHaveBeenCalledTimes(1);
    stop();
    const next = new Promise<void>((resolve) => store.subscribe('summary', resolve));
    store.changed();
    expect(summary).toHaveBeenCalledTimes(2);
    await next;
    expect(store.summary?.today).toBe('2026-12-03');
    expect(seen).toBe(2);
  });

  it('keeps the last summary and says why when a fetch fails', async () => {
    const { api } = apiAnswering([summaryOf(), 'daemon unavailable']);
    const store = new UsageStore(api);
    await store.load();
    await store.load();
    expect(store.summary?.today).toBe('2026-12-02');
    expect(store.error).toBe('daemon unavailable');
  });

  it('gives every one of the 7 UTC days, a day without usage as zeros', () => {
    const days = lastDays('2026-12-02', 7);
    expect(days).toEqual([
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
    const claude = agentDays(summaryOf(), 'claude', days);
    expect(claude.map((d) => d.inputTokens)).toEqual([0, 0, 0, 0, 10, 0, 1200]);
    expect(claude[0]!.costUsd).toBeNull();
  });
});

describe('usage words', () => {
  it('a limit window with its share and reset, a budget, a cost or "not reported"', () => {
    const reset = new Date(2026, 11, 2, 14, 5).toISOString();
    const window = summaryOf().limits[1]!;
    expect(limitWindowText({ ...window, resetsAt: reset }, 'en', new Date(2026, 11, 2, 9, 0))).toMatch(
      /^5-hour window 72 % · resets 2:05\sPM$|^5-hour window 72 % · resets 14:05$/,
    );
    expect(limitWindowText({ ...window, resetsAt: reset }, 'zh-CN', new Date(2026, 11, 2, 9, 0))).toBe(
      '5 小时窗口 72 % · 14:05 重置',
    );
    expect(limitWindowText({ ...window, usedPercent: null }, 'en')).toBe('5-hour window: limit reached');
    const b = summaryOf().budgets[0]!;
    expect(budgetText(b.budget, b.state, 'en')).toBe('Daily budget 80 % of 1,000,000 tokens');
    expect(budgetText(b.budget, { ...b.state, used: 1_000_000, reached: true }, 'en')).toBe(
      'Daily budget 100 % of 1,000,000 tokens · daily budget reached',
    );
    expect(budgetText(null, b.state, 'zh-CN')).toBe('无每日预算');
    expect(formatCost(null, 'en')).toBe('not reported');
    expect(formatCost(0.0123, 'en')).toBe('$0.0123');
  });
});

describe('UsageView', () => {
  const agents = [agentOf({ id: 'claude', name: 'Claude' }), agentOf({ id: 'codex', name: 'Codex', runtime: 'codex' })];

  it('per agent: its limit windows shortest first, its budget, and a table of the 7 UTC days with totals', async () => {
    const { api } = apiAnswering([summaryOf()]);
    const usage = new UsageStore(api);
    await usage.load();
    render(<UsageView usage={usage} agents={agents} language="en" />);
    const codex = document.querySelector('[data-agent="codex"]') as HTMLElement;
    expect([...codex.querySelectorAll('.usage-window')].map((e) => e.textContent)).toEqual([
      '5-hour window 72 %',
      'Weekly window 12 %',
    ]);
    expect(codex.querySelector('.usage-budget')?.textContent).toBe('No daily budget');
    const claude = document.querySelector('[data-agent="claude"]') as HTMLElement;
    expect(claude.querySelector('.usage-budget')?.textContent).toBe('Daily budget 80 % of 1,000,000 tokens');
    const table = within(claude).getByRole('table', { name: 'Claude: usage per day (UTC)' });
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 7 + 1);
    const today = table.querySelector('tr[data-day="2026-12-02"]') as HTMLElement;
    expect([...today.querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      '1,200',
      '5,000',
      '340',
      '$0.0123',
      '2',
    ]);
    const total = table.querySelector('tr[data-day="total"]') as HTMLElement;
    expect(total.querySelector('[data-kind="input"]')?.textContent).toBe('1,210');
    expect(total.querySelector('[data-kind="cost"]')?.textContent).toBe('$0.0133');
    // Codex reports no cost: said, not shown as zero.
    expect(codex.querySelector('tr[data-day="2026-12-02"] [data-kind="cost"]')?.textContent).toBe('not reported');
    // The chart is one labelled image (its numbers are the table's).
    expect(within(claude).getByRole('img', { name: 'Claude: tokens per day (UTC), last 7 days' })).toBeTruthy();
  });

  it('updates live when the store fetches a new summary, and speaks 简体中文', async () => {
    const later = summaryOf();
    later.days[0] = { ...later.days[0]!, inputTokens: 2000 };
    const { api } = apiAnswering([summaryOf(), later]);
    const usage = new UsageStore(api);
    await usage.load();
    render(<UsageView usage={usage} agents={agents} language="zh-CN" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('用量');
    const cell = () => document.querySelector('[data-agent="claude"] tr[data-day="2026-12-02"] [data-kind="input"]');
    expect(cell()?.textContent).toBe('1,200');
    await act(() => usage.load());
    expect(cell()?.textContent).toBe('2,000');
    expect(document.querySelector('[data-agent="codex"] [data-kind="cost"]')?.textContent).toBe('未报告');
  });

  it('says when an agent reported nothing in the 7 days, and when the summary could not load', async () => {
    const { api } = apiAnswering([summaryOf({ days: [] }), 'boom']);
    const usage = new UsageStore(api);
    await usage.load();
    render(<UsageView usage={usage} agents={agents} language="en" />);
    expect(screen.getAllByText('No usage reported in the last 7 days.')).toHaveLength(2);
    await act(() => usage.load());
    expect(screen.getByRole('alert').textContent).toBe('Could not load usage: boom');
  });
});

describe('Raise budget and Remove budget', () => {
  const agents = [agentOf({ id: 'claude', name: 'Claude' }), agentOf({ id: 'codex', name: 'Codex', runtime: 'codex' })];

  it('issue 39: Remove budget asks the daemon to remove the budget (null), next to Raise budget; a refusal is said', async () => {
    const { api } = apiAnswering([summaryOf()]);
    const usage = new UsageStore(api);
    await usage.load();
    const raiseBudget = vi.fn(async () => 'agentteam.json: line 3, column 5: expected a value');
    render(<UsageView usage={usage} agents={agents} language="zh-CN" raiseBudget={raiseBudget} />);
    const claude = document.querySelector('[data-agent="claude"]') as HTMLElement;
    expect(within(claude).getByRole('button', { name: '提高预算' })).toBeTruthy();
    await act(async () => within(claude).getByRole('button', { name: '移除预算' }).click());
    expect(raiseBudget).toHaveBeenCalledWith('claude', null);
    expect(within(claude).getByRole('alert').textContent).toBe('agentteam.json: line 3, column 5: expected a value');
    // An agent without a budget has nothing to raise or remove; issue 40 item 9: it can set its first one.
    const codex = document.querySelector('[data-agent="codex"]') as HTMLElement;
    expect(
      within(codex)
        .queryAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['设置预算']);
  });

  it('issue 40 item 9: Set budget gives an agent with none its first daily budget (tokens); nothing is said before typing', async () => {
    const { api } = apiAnswering([summaryOf()]);
    const usage = new UsageStore(api);
    await usage.load();
    const raiseBudget = vi.fn(async () => null);
    render(<UsageView usage={usage} agents={agents} language="en" raiseBudget={raiseBudget} />);
    const codex = document.querySelector('[data-agent="codex"]') as HTMLElement;
    await act(async () => within(codex).getByRole('button', { name: 'Set budget' }).click());
    const field = within(codex).getByLabelText('Daily budget (tokens)') as HTMLInputElement;
    expect(field.value).toBe('');
    expect(codex.querySelector('.usage-raise-error')).toBeNull();
    expect((within(codex).getByRole('button', { name: 'Save budget' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => fireEvent.change(field, { target: { value: '25000' } }));
    await act(async () => within(codex).getByRole('button', { name: 'Save budget' }).click());
    expect(raiseBudget).toHaveBeenCalledWith('codex', { tokens: 25_000 });
  });
});

describe('the inspector and agent detail usage', () => {
  it("the wake's tokens by kind and cost, or that none was reported", () => {
    const usage = {
      wakeToken: 'w1',
      agentId: 'codex',
      runtime: 'codex' as const,
      turns: 2,
      day: '2026-12-02',
      updatedAt: '2026-12-02T10:00:00.000Z',
      inputTokens: 900,
      cachedTokens: 64,
      outputTokens: 100,
      costUsd: null,
    };
    const { unmount } = render(<WakeUsageFacts usage={usage} language="en" />);
    const kinds = [...document.querySelectorAll('.wake-usage dd')].map((e) => [
      e.getAttribute('data-kind'),
      e.textContent,
    ]);
    expect(kinds).toEqual([
      ['input', '900'],
      ['cached', '64'],
      ['output', '100'],
      ['cost', 'not reported'],
      ['turns', '2 turns'],
    ]);
    unmount();
    render(<WakeUsageFacts usage={null} language="zh-CN" />);
    expect(document.querySelector('.wake-usage p')?.textContent).toBe('此次唤醒没有报告用量。');
  });

  it("the agent's today (UTC) and 7 days, and its budget", async () => {
    const { api } = apiAnswering([summaryOf()]);
    const usage = new UsageStore(api);
    await usage.load();
    render(<AgentUsageFacts usage={usage} agentId="claude" language="en" />);
    expect(document.querySelector('[data-usage="today"]')?.textContent).toBe(
      '1,200 in · 5,000 cached · 340 out · $0.0123',
    );
    expect(document.querySelector('[data-usage="week"]')?.textContent).toBe(
      '1,210 in · 5,000 cached · 360 out · $0.0133',
    );
    expect(document.querySelector('.usage-budget')?.textContent).toBe('Daily budget 80 % of 1,000,000 tokens');
  });
});
