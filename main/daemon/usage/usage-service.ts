/**
 * issue 27: the rules of usage — a turn's usage (the runtime's own report) is stored on the
 * wake it worked on, aggregated per agent per UTC day, compared with the agent's daily budget,
 * and the provider's limit windows are kept; the operator is warned once at 80 % of a window
 * (until its reset) and of a budget (per day). The store holds the rows (store/tables/usage-table.ts).
 *
 * A turn that handled several wakes at once (a batched delivery) is stored on the first of them:
 * the agent's day totals stay exactly what the runtime reported, never split by a guess.
 *
 * issue 41: each report that leaves the agent's day at or past its daily budget is announced on
 * `budgetReached$`; the budget guard (budget-guard.ts) ends the turn still running on it.
 */
import { Subject, type Observable } from 'rxjs';
import type {
  Budget,
  LimitWindow,
  TurnUsage,
  UsageBudgetState,
  UsageSummary,
  WakeUsage,
} from '../../../shared/usage.js';
import { USAGE_WARN_PERCENT, nextUtcMidnight, totalTokens, utcDay } from '../../../shared/usage.js';
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { Store } from '../store/index.js';

/**
 * A warning the operator is given once (status line, OS notification, Telegram of a bound
 * conversation). `wakeToken`: the wake whose usage crossed a budget's 80 %, or of the turn that
 * announced the window (null when unknown).
 */
export type UsageWarning =
  | {
      readonly kind: 'limit_window';
      readonly agentId: string;
      readonly window: LimitWindow;
      readonly wakeToken: string | null;
    }
  | { readonly kind: 'budget'; readonly agentId: string; readonly state: UsageBudgetState; readonly wakeToken: string };

/** issue 41: a usage report left the agent's day at or past its daily budget (`state.reached`). */
export interface BudgetReached {
  readonly agentId: string;
  readonly state: UsageBudgetState;
  /** The wake the report was stored on. */
  readonly wakeToken: string;
}

export interface UsageServiceDeps {
  readonly store: Store;
  readonly now: () => Date;
  /** The agent's budget in agentteam.json now (undefined: none). */
  readonly budgetOf: (agentId: string) => Budget | undefined;
  readonly agentIds: () => readonly string[];
  /** Metrics. */
  readonly onRecorded?: (usage: TurnUsage, runtime: RuntimeKind, agentId: string) => void;
  /** The API's `usage.updated`: a wake's usage stored, a limit window announced, a budget edited. */
  readonly onChanged?: (agentId: string) => void;
  readonly onWarning?: (warning: UsageWarning) => void;
}

const DAY_MS = 86_400_000;

export class UsageService {
  /** The turn each agent last reported usage for: a runtime that reports per model request counts its turn once. */
  readonly #lastTurn = new Map<string, string>();
  readonly #budgetReached = new Subject<BudgetReached>();
  /** issue 41: every stored report after which the agent's day is at or past its budget. */
  readonly budgetReached$: Observable<BudgetReached> = this.#budgetReached.asObservable();

  constructor(private readonly d: UsageServiceDeps) {}

  /**
   * Stores a turn's usage report on the turn's first wake; answers that wake's total. Codex and
   * OpenCode report per model request: the reports of one `turnId` add up and count one turn.
   */
  recordTurn(
    agentId: string,
    runtime: RuntimeKind,
    wakeTokens: readonly string[],
    usage: TurnUsage,
    turnId: string | null = null,
  ): WakeUsage | null {
    const wakeToken = wakeTokens[0];
    if (wakeToken === undefined) return null;
    const sameTurn = turnId !== null && this.#lastTurn.get(agentId) === turnId;
    if (turnId !== null) this.#lastTurn.set(agentId, turnId);
    // issue 30: in a store transaction, so it joins this turn's group commit (an autocommit write
    // would fsync on the main thread before returning).
    const at = this.d.now();
    const stored = this.d.store.transaction(() =>
      this.d.store.usage.addTurn({ wakeToken, agentId, runtime }, usage, at, sameTurn ? 0 : 1),
    );
    this.d.onRecorded?.(usage, runtime, agentId);
    const state = this.usageBudget(agentId);
    this.#checkBudget(agentId, wakeToken, state);
    this.d.onChanged?.(agentId);
    if (state.reached) this.#budgetReached.next({ agentId, state, wakeToken });
    return stored;
  }

  /** Keeps the latest announcement of a provider's limit window; warns once at 80 % until it resets. */
  recordLimitWindow(window: Omit<LimitWindow, 'observedAt'>, wakeToken: string | null = null): void {
    const w: LimitWindow = { ...window, observedAt: this.d.now().toISOString() };
    this.d.store.usage.putWindow(w);
    this.d.onChanged?.(w.agentId);
    if (w.usedPercent !== null && w.usedPercent >= USAGE_WARN_PERCENT) {
      const key = `window:${w.window}:${w.resetsAt ?? 'unknown'}`;
      if (this.d.store.usage.warnOnce(w.agentId, key, this.d.now()))
        this.d.onWarning?.({ kind: 'limit_window', agentId: w.agentId, window: w, wakeToken });
    }
  }

  /**
   * issue 38: when the agent's provider limit resets, as its runtime announced it structured — the
   * latest reset (epoch ms, still ahead of `nowMs`) of its limit windows at 100 % (Claude Code's
   * `rate_limit_event` `rejected` with `resetsAt`, Codex's `account/rateLimits/updated`; the drivers'
   * `limit_window` events, runtime/usage-report.ts). Null when none is exhausted. The usage pause
   * reads it before anything else (usage-pause-service.ts); never a parse of text.
   */
  readonly limitResetOf = (agentId: string, nowMs: number): number | null => {
    let reset: number | null = null;
    for (const w of this.d.store.usage.windows(agentId)) {
      if (w.usedPercent === null || w.usedPercent < 100 || w.resetsAt === null) continue;
      const at = Date.parse(w.resetsAt);
      if (at > nowMs && (reset === null || at > reset)) reset = at;
    }
    return reset;
  };

  /** The port the pause part reads before a new wake is delivered. */
  readonly usageBudget = (agentId: string): UsageBudgetState => {
    const now = this.d.now();
    const resetsAt = nextUtcMidnight(now);
    const budget = this.d.budgetOf(agentId);
    // Today's rows of the agent, one per runtime it ran on today (its runtime may change mid-day):
    // the budget is the agent's, so all of them count.
    let tokens = 0;
    let cost = 0;
    for (const today of this.d.store.usage.days(utcDay(now), agentId)) {
      tokens += totalTokens(today);
      cost += today.costUsd ?? 0;
    }
    if (budget === undefined) return { reached: false, kind: 'tokens', used: tokens, limit: null, resetsAt };
    const candidates: UsageBudgetState[] = [];
    if (budget.tokens !== undefined)
      candidates.push({
        reached: tokens >= budget.tokens,
        kind: 'tokens',
        used: tokens,
        limit: budget.tokens,
        resetsAt,
      });
    if (budget.costUsd !== undefined)
      candidates.push({ reached: cost >= budget.costUsd, kind: 'cost', used: cost, limit: budget.costUsd, resetsAt });
    // The one closest to (or past) its limit.
    return candidates.reduce((a, b) => (b.used / (b.limit ?? 1) > a.used / (a.limit ?? 1) ? b : a));
  };

  summary(filter: { agentId?: string; since?: string }): UsageSummary {
    const now = this.d.now();
    const since = filter.since ?? utcDay(new Date(now.getTime() - 6 * DAY_MS));
    const agentId = filter.agentId ?? null;
    const ids = agentId === null ? this.d.agentIds() : [agentId];
    return {
      today: utcDay(now),
      days: this.d.store.usage.days(since, agentId),
      limits: this.d.store.usage.windows(agentId),
      budgets: ids.map((id) => ({ agentId: id, budget: this.d.budgetOf(id) ?? null, state: this.usageBudget(id) })),
    };
  }

  /**
   * The agent's budget was edited (Raise budget, or agentteam.json by hand): the surfaces read it again.
   */
  budgetChanged(agentId: string): void {
    this.d.onChanged?.(agentId);
  }

  wake(wakeToken: string): WakeUsage | null {
    return this.d.store.usage.ofWake(wakeToken);
  }

  #checkBudget(agentId: string, wakeToken: string, state: UsageBudgetState): void {
    if (state.limit === null || state.used < (state.limit * USAGE_WARN_PERCENT) / 100) return;
    if (this.d.store.usage.warnOnce(agentId, `budget:${utcDay(this.d.now())}`, this.d.now()))
      this.d.onWarning?.({ kind: 'budget', agentId, state, wakeToken });
  }
}
