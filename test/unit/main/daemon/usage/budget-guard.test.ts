/**
 * issue 41: the rule that a usage report reaching the agent's daily budget ends the turn running
 * on it — the real usage service (real SQLite) and the real turn-deadlines end path; the session is
 * a stand-in that answers as AgentSession does (`turnId`, `endTurn`, `stillEnding`).
 */
import type { Subscription } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Budget, TurnUsage } from '../../../../../shared/usage.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import { guardBudgets } from '../../../../../main/daemon/usage/budget-guard.js';
import type { TurnEndReason } from '../../../../../main/daemon/services/agent-session-state.js';
import { TurnDeadlines } from '../../../../../main/daemon/services/turn-deadlines.js';
import { UsageService } from '../../../../../main/daemon/usage/usage-service.js';
import { Store } from '../../../../../main/daemon/store/index.js';
import { makeTempDir, type TempDir } from '../../../../fixtures/temp-dir.js';

interface Ended {
  readonly agentId: string;
  readonly reason: TurnEndReason;
  readonly detail: string;
  readonly turnId: string | null;
}

/** An agent session as the end path sees it: the running turn, and whether it was asked to end. */
class Session {
  turnId: string | null = null;
  endAsked: string | null = null;
  constructor(
    private readonly agentId: string,
    private readonly ended: Ended[],
  ) {}
  endTurn(reason: TurnEndReason, detail: string, turnId: string | null = null): boolean {
    if (this.turnId === null || (turnId !== null && turnId !== this.turnId)) return false;
    this.ended.push({ agentId: this.agentId, reason, detail, turnId });
    this.endAsked = this.turnId;
    return true;
  }
  stillEnding(turnId: string): boolean {
    return this.turnId === turnId && this.endAsked === turnId;
  }
}

const tokens = (input: number, output: number, costUsd: number | null = null): TurnUsage => ({
  inputTokens: input,
  outputTokens: output,
  cachedTokens: 0,
  costUsd,
});

let dir: TempDir;
let store: Store;
let budgets: Record<string, Budget>;
let ended: Ended[];
let sessions: Record<string, Session>;
let usage: UsageService;
let guard: Subscription;

beforeEach(() => {
  dir = makeTempDir('agentteam-budget-guard-');
  const clock = new Date('2026-12-01T12:00:00.000Z');
  store = Store.open(dir.path, { now: () => clock });
  budgets = {};
  ended = [];
  sessions = { a: new Session('a', ended), b: new Session('b', ended) };
  usage = new UsageService({ store, now: () => clock, budgetOf: (id) => budgets[id], agentIds: () => ['a', 'b'] });
  const turns = new TurnDeadlines({
    bus: new HookBus(),
    session: (id) => sessions[id],
    timeoutMinutesOf: () => 120,
    agentName: (id) => id,
  });
  guard = guardBudgets(usage.budgetReached$, turns);
});

afterEach(() => {
  guard.unsubscribe();
  store.close();
  dir.remove();
});

describe('budget guard (issue 41)', () => {
  it("a report that crosses the daily token budget mid-turn ends that agent's running turn with budget_reached", () => {
    budgets.a = { tokens: 1000 };
    sessions.a!.turnId = 'turn_a1';
    sessions.b!.turnId = 'turn_b1';
    usage.recordTurn('a', 'codex', ['w1'], tokens(400, 100), 'turn_a1');
    expect(ended).toEqual([]);
    usage.recordTurn('a', 'codex', ['w1'], tokens(450, 100), 'turn_a1');
    expect(ended).toEqual([
      {
        agentId: 'a',
        reason: 'budget_reached',
        turnId: 'turn_a1',
        detail:
          "the agent's daily budget (1000 tokens) was reached during this turn (1050 tokens used today); Raise budget to continue",
      },
    ]);
  });

  it('a cost budget names dollars', () => {
    budgets.a = { costUsd: 2 };
    sessions.a!.turnId = 'turn_a1';
    usage.recordTurn('a', 'claude-code', ['w1'], tokens(10, 10, 2.5), 'turn_a1');
    expect(ended.map((e) => e.detail)).toEqual([
      "the agent's daily budget ($2) was reached during this turn ($2.5 used today); Raise budget to continue",
    ]);
  });

  it('under the budget, or without a budget: nothing is ended', () => {
    budgets.a = { tokens: 1000 };
    sessions.a!.turnId = 'turn_a1';
    sessions.b!.turnId = 'turn_b1';
    usage.recordTurn('a', 'codex', ['w1'], tokens(900, 99), 'turn_a1');
    usage.recordTurn('b', 'codex', ['w2'], tokens(90_000, 9_000), 'turn_b1');
    expect(ended).toEqual([]);
  });

  it('no running turn (the report came after the turn ended): nothing is ended', () => {
    budgets.a = { tokens: 100 };
    usage.recordTurn('a', 'claude-code', ['w1'], tokens(900, 99), 'turn_a1');
    expect(ended).toEqual([]);
  });

  it('a second report of the turn after its end was asked ends nothing more; the next turn is ended again', () => {
    budgets.a = { tokens: 100 };
    sessions.a!.turnId = 'turn_a1';
    usage.recordTurn('a', 'codex', ['w1'], tokens(90, 20), 'turn_a1');
    usage.recordTurn('a', 'codex', ['w1'], tokens(5, 5), 'turn_a1');
    expect(ended.map((e) => e.turnId)).toEqual(['turn_a1']);
    // A turn that still starts over the budget (a final-check, a budget lowered by hand) is ended at its first report.
    sessions.a!.turnId = 'turn_a2';
    usage.recordTurn('a', 'codex', ['w2'], tokens(1, 1), 'turn_a2');
    expect(ended.map((e) => e.turnId)).toEqual(['turn_a1', 'turn_a2']);
  });
});
