/** issue 27: usage stored per wake, aggregated per agent per UTC day, budgets and the warn-once rule (real SQLite). */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_FILE, Store } from '../../../../../main/daemon/store/index.js';
import { UsageService, type UsageWarning } from '../../../../../main/daemon/usage/usage-service.js';
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

  it('keeps the day sums equal to summing every wake’s row, and fills them from the wakes of a store migrated to 14 (issue 30)', () => {
    // Mixed costs in one wake and one day: null first, then a cost; a turn of a wake already counted.
    let seed = 7;
    const rnd = (n: number): number => Math.floor(((seed = (seed * 48271) % 2147483647) / 2147483647) * n);
    for (let i = 0; i < 300; i++) {
      if (i % 100 === 0) clock = new Date(clock.getTime() + 86_400_000);
      const agent = rnd(2) === 0 ? 'claude' : 'codex';
      service.recordTurn(
        agent,
        agent === 'claude' ? 'claude-code' : 'codex',
        [`w${rnd(60)}`],
        turn(rnd(500), rnd(50), rnd(100), rnd(3) === 0 ? null : rnd(100) / 8),
        rnd(4) === 0 ? 'same-turn' : undefined,
      );
    }
    const summed = (): unknown[] => {
      const db = new DatabaseSync(join(dir.path, DB_FILE), { readOnly: true });
      try {
        return (
          db
            .prepare(
              `SELECT agent_id, runtime, day, SUM(input_tokens) AS i, SUM(output_tokens) AS o, SUM(cached_tokens) AS c,
                      SUM(cost_usd) AS cost, COUNT(*) AS wakes, SUM(turns) AS turns
                 FROM wake_usage GROUP BY agent_id, runtime, day ORDER BY day, agent_id, runtime`,
            )
            .all() as Record<string, unknown>[]
        ).map((r) => [r.agent_id, r.runtime, r.day, r.i, r.o, r.c, r.cost, r.wakes, r.turns]);
      } finally {
        db.close();
      }
    };
    const days = (): unknown[] =>
      service
        .summary({ since: '2000-01-01' })
        .days.map((d) => [
          d.agentId,
          d.runtime,
          d.day,
          d.inputTokens,
          d.outputTokens,
          d.cachedTokens,
          d.costUsd,
          d.wakes,
          d.turns,
        ]);
    const expected = summed();
    expect(expected.length).toBeGreaterThan(2);
    expect(days()).toEqual(expected);

    // A store written before migration 14: its wakes' usage is summed into the days once, on open.
    store.close();
    const db = new DatabaseSync(join(dir.path, DB_FILE));
    db.exec(
      'DROP TRIGGER wake_usage_days_insert; DROP TRIGGER wake_usage_days_update; DROP TABLE usage_days; PRAGMA user_version = 13;',
    );
    db.close();
    store = Store.open(dir.path, { now: () => clock });
    service = new UsageService({ store, now: () => clock, budgetOf: () => undefined, agentIds: () => [] });
    expect(days()).toEqual(expected);
    service.recordTurn('codex', 'codex', ['w-new'], turn(1, 2, 3, null));
    expect(days()).toEqual(summed());
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

  it('counts every runtime the agent ran on today against its budget (a runtime changed mid-day)', () => {
    budgets.claude = { tokens: 1000, costUsd: 1 };
    service.recordTurn('claude', 'claude-code', ['w1'], turn(600, 0, 0, 0.25));
    service.recordTurn('claude', 'codex', ['w2'], turn(300, 100, 0, 0.5));
    expect(service.summary({ agentId: 'claude' }).days.map((d) => d.runtime)).toEqual(['claude-code', 'codex']);
    expect(service.usageBudget('claude')).toMatchObject({ reached: true, kind: 'tokens', used: 1000, limit: 1000 });
    budgets.claude = { costUsd: 1 };
    expect(service.usageBudget('claude')).toMatchObject({ reached: false, kind: 'cost', used: 0.75, limit: 1 });
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

  it('issue 38: the limit reset is the latest reset of an exhausted window the runtime announced, never a parse', () => {
    const now = clock.getTime();
    const claude = { agentId: 'claude', runtime: 'claude-code' as const };
    expect(service.limitResetOf('claude', now)).toBeNull();
    // Under 100 %: no limit hit yet.
    service.recordLimitWindow({
      ...claude,
      window: 'five_hour',
      windowMinutes: 300,
      usedPercent: 95,
      resetsAt: '2026-12-02T01:00:00.000Z',
    });
    expect(service.limitResetOf('claude', now)).toBeNull();
    // Claude Code's rate_limit_event `rejected` (100 %) with its resetsAt, and a weekly one exhausted later still.
    service.recordLimitWindow({
      ...claude,
      window: 'five_hour',
      windowMinutes: 300,
      usedPercent: 100,
      resetsAt: '2026-12-02T01:00:00.000Z',
    });
    expect(service.limitResetOf('claude', now)).toBe(Date.parse('2026-12-02T01:00:00.000Z'));
    service.recordLimitWindow({
      ...claude,
      window: 'seven_day',
      windowMinutes: 10_080,
      usedPercent: 100,
      resetsAt: '2026-12-05T00:00:00.000Z',
    });
    expect(service.limitResetOf('claude', now)).toBe(Date.parse('2026-12-05T00:00:00.000Z'));
    // A reset already past, or another agent's window, is not this agent's limit now.
    expect(service.limitResetOf('claude', Date.parse('2026-12-06T00:00:00.000Z'))).toBeNull();
    expect(service.limitResetOf('codex', now)).toBeNull();
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
