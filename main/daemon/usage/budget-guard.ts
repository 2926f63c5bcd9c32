/**
 * issue 41 "budgets … stop — or visibly refuse to start — a turn beyond them": the admission hold
 * (usage-pause-service.ts) refuses to start a wake while the agent's daily budget is reached; this
 * guard stops the turn that is running when its own usage report reaches it. On each report after
 * which the agent's day is at or past its budget (usage-service.ts `budgetReached$`), the agent's
 * running turn is ended through the one end-turn path Stop and the turn timeout use
 * (turn-deadlines.ts `end` → AgentSession.endTurn: the runtime's own interrupt, the turn's visible
 * rows end `failed / budget_reached`, a deaf runtime replaced after the grace). The wakes queued
 * behind it are then held `paused / daily_budget` by the admission hold. No running turn (the
 * report came after the turn's end), or a turn already ending: nothing.
 */
import type { Observable, Subscription } from 'rxjs';
import type { UsageBudgetState } from '../../../shared/usage.js';
import type { DaemonLog } from '../daemon-log.js';
import type { BudgetReached } from './usage-service.js';

/**
 * The one end-turn path as this room needs it (services/turn-deadlines.ts `end`): true when a
 * running turn was ended. A port, so the usage room does not import the services above it.
 */
export interface TurnEnder {
  end(agentId: string, reason: 'budget_reached', detail: string): boolean;
}

/** Ends `budgetReached$`'s agents' running turns through `turns`; the subscription ends the guard. */
export function guardBudgets(
  budgetReached$: Observable<BudgetReached>,
  turns: TurnEnder,
  log?: DaemonLog,
): Subscription {
  return budgetReached$.subscribe(({ agentId, state }) => {
    if (turns.end(agentId, 'budget_reached', budgetReachedDetail(state)))
      log?.info('daily budget reached during a turn: the turn was ended', {
        agentId,
        kind: state.kind,
        used: state.used,
        limit: state.limit,
      });
  });
}

/** The wake's detail: which budget, how much was used, and the operator's way on. */
export function budgetReachedDetail(state: UsageBudgetState): string {
  const amount = (n: number) => (state.kind === 'cost' ? `$${n}` : `${n} tokens`);
  const limit = state.limit === null ? 'daily budget' : `daily budget (${amount(state.limit)})`;
  return `the agent's ${limit} was reached during this turn (${amount(state.used)} used today); Raise budget to continue`;
}
