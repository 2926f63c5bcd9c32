/** issue 27: usage stored per wake, aggregated per agent per UTC day, budgets and the warn-once rule (real SQLite). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../../../../main/daemon/store/index.js';
import { UsageService, type UsageWarning } from '../../../../../main/daemon/services/usage-service.js';
import type { Budget, TurnUsage } from '../../../../../shared/usage.js';
import { BudgetSchema, neverReachedBudget } from '../../../../../shared/usage.js';
import { AgentConfigSchema } from '../../../../../shared/config.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

let dir: TempDir;
let store: Store;
let clock: Date;
let budgets: Record<string, Budget>;
let warnings: UsageWarning[];
let service: UsageService;

const turn = (input: number, output: number, cached: number, costUsd: number | null): TurnUsage => ({
  inputTokens: input,
  outputTokens: output,
  cachedTokens: cached,
  costUsd,
});

beforeEach(() => {
  dir = makeTempDir('agentteam-usage-');
  clock = new Date('2026-12-01T23:30:00.000Z');
  store = Store.open(dir.path, { now: () => clock });
  budgets = {};
  warnings = [];
  service = new UsageService({
    store,
    now: () => clock,
    budgetOf: (id) => budgets[id],
    agentIds: () => ['claude', 'codex'],
    onWarning: (w) => warnings.push(w),
  });
});

afterEach(() => {
  store.close();
  dir.remove();
});

describe('UsageService', () => {
  it('adds a wake’s turns, and aggregates per agent per UTC day exactly', () => {
    service.recordTurn('claude', 'claude-code', ['w1'], turn(100, 20, 5, 0.25));
    const second = service.recordTurn('claude', 'claude-code', ['w1'], turn(10, 2, 0, 0.5));
    expect(second).toMatchObject({ inputTokens: 110, outputTokens: 22, cachedTokens: 5, costUsd: 0.75, turns: 2 });
    service.recordTurn('claude', 'claude-code', ['w2', 'w3'], turn(7, 3, 1, 0.125));
    service.recordTurn('codex', 'codex', ['w4'], turn(50, 5, 40, null));
    clock = new Date('2026-12-02T00:10:00.000Z');
    service.recordTurn('claude', 'claude-code', ['w5'], turn(1, 1, 1, 1));

    expect(service.wake('w3')).toBeNull();
    const s = service.summary({ since: '2026-12-01' });
    expect(s.today).toBe('2026-12-02');
    expect(s.days).toEqual([
      {
        agentId: 'claude',
        runtime: 'claude-code',
        day: '2026-12-01',
        inputTokens: 117,
        outputTokens: 25,
        cachedTokens: 6,
        costUsd: 0.875,
        wakes: 2,
        turns: 3,
      },
      // Codex reports no cost: the day keeps a null cost, never 0.
      {
        agentId: 'codex',
        runtime: 'codex',
        day: '2026-12-01',
        inputTokens: 50,
        outputTokens: 5,
        cachedTokens: 40,
        costUsd: null,
        wakes: 1,
        turns: 1,
      },
      {
        agentId: 'claude',
        runtime: 'claude-code',
        day: '2026-12-02',
        inputTokens: 1,
        outputTokens: 1,
        cachedTokens: 1,
        costUsd: 1,
        wakes: 1,
        turns: 1,
      },
    ]);
    expect(service.summary({ agentId: 'codex', since: '2026-12-02' }).days).toEqual([]);
  });

  it('adds the per-request reports of one turn (Codex, OpenCode) into one turn of the wake', () => {
    service.recordTurn('codex', 'codex', ['w1'], turn(10, 1, 2, null), 't1');
    service.recordTurn('codex', 'codex', ['w1'], turn(20, 2, 4, null), 't1');
    expect(service.recordTurn('codex', 'codex', ['w1'], turn(30, 3, 6, null), 't2')).toMatchObject({
      inputTokens: 60,
      outputTokens: 6,
      cachedTokens: 12,
      costUsd: null,
      turns: 2,
    });
    // Another agent's report of a turn with the same id is its own turn.
    expect(service.recordTurn('claude', 'claude-code', ['w2'], turn(1, 1, 0, 0.5), 't2')).toMatchObject({ turns: 1 });
  });

  it('reports a budget reached at 100 % and warns once at 80 %, per day', () => {
    budgets.claude = { tokens: 1000 };
    expect(service.usageBudget('claude')).toEqual({
      reached: false,
      kind: 'tokens',
      used: 0,
      limit: 1000,
      resetsAt: '2026-12-02T00:00:00.000Z',
    });
    service.recordTurn('claude', 'claude-code', ['w1'], turn(700, 0, 0, null));
    expect(warnings).toEqual([]);
    service.recordTurn('claude', 'claude-code', ['w2'], turn(100, 0, 0, null));
    service.recordTurn('claude', 'claude-code', ['w3'], turn(150, 0, 0, null));
    expect(warnings.map((w) => w.kind)).toEqual(['budget']);
    expect(service.usageBudget('claude').reached).toBe(false);
    service.recordTurn('claude', 'claude-code', ['w4'], turn(0, 50, 0, null));
    expect(service.usageBudget('claude')).toMatchObject({ reached: true, used: 1000, limit: 1000 });
    expect(warnings).toHaveLength(1);
    // The next UTC day starts from zero, and warns again.
    clock = new Date('2026-12-02T08:00:00.000Z');
    expect(service.usageBudget('claude').reached).toBe(false);
    service.recordTurn('claude', 'claude-code', ['w5'], turn(900, 0, 0, null));
    expect(warnings).toHaveLength(2);
  });

  it('reports the cost budget when it is the closer one', () => {
    budgets.claude = { tokens: 1_000_000, costUsd: 2 };
    service.recordTurn('claude', 'claude-code', ['w1'], turn(10, 10, 0, 2.5));
    expect(service.usageBudget('claude')).toMatchObject({ reached: true, kind: 'cost', used: 2.5, limit: 2 });
    expect(service.usageBudget('codex')).toMatchObject({ reached: false, limit: null });
  });

  it('keeps the latest limit window and warns once per window at 80 %, even across a restart', () => {
    const window = { agentId: 'codex', runtime: 'codex' as const, window: 'primary', windowMinutes: 300 };
    service.recordLimitWindow({ ...window, usedPercent: 50, resetsAt: '2026-12-02T04:05:00.000Z' });
    service.recordLimitWindow({ ...window, usedPercent: 81, resetsAt: '2026-12-02T04:05:00.000Z' });
    store.close();
    store = Store.open(dir.path, { now: () => clock });
    service = new UsageService({
      store,
      now: () => clock,
      budgetOf: () => undefined,
      agentIds: () => ['codex'],
      onWarning: (w) => warnings.push(w),
    });
    service.recordLimitWindow({ ...window, usedPercent: 90, resetsAt: '2026-12-02T04:05:00.000Z' });
    expect(warnings).toHaveLength(1);
    expect(service.summary({}).limits).toEqual([
      { ...window, usedPercent: 90, resetsAt: '2026-12-02T04:05:00.000Z', observedAt: clock.toISOString() },
    ]);
    // A new window (a later reset) warns again.
    service.recordLimitWindow({ ...window, usedPercent: 85, resetsAt: '2026-12-02T09:05:00.000Z' });
    expect(warnings).toHaveLength(2);
  });

  it('the default port is never reached', () => {
    expect(neverReachedBudget(() => clock)('anyone')).toMatchObject({ reached: false, limit: null });
  });
});

describe('budget config', () => {
  it('accepts tokens and/or cost and names what is wrong', () => {
    expect(BudgetSchema.parse({ tokens: 5000, costUsd: 1.5 })).toEqual({ tokens: 5000, costUsd: 1.5 });
    const bad = AgentConfigSchema.safeParse({ id: 'a', name: 'A', runtime: 'demo', budget: { tokens: -1 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['budget', 'tokens']);
    const empty = AgentConfigSchema.safeParse({ id: 'a', name: 'A', runtime: 'demo', budget: {} });
    expect(empty.error?.issues[0]?.message).toMatch(/tokens.*costUsd/);
    const typo = AgentConfigSchema.safeParse({ id: 'a', name: 'A', runtime: 'demo', budget: { token: 5 } });
    expect(typo.success).toBe(false);
  });
});
