/**
 * issue 39: the usage room's wiring — usage per wake and per agent per UTC day, limit windows,
 * daily budgets, and the pause that holds an agent's wakes at a usage limit or a budget (issue 27,
 * issue 41). The root calls `wireUsage` once and merges `api` into the daemon's API; what the
 * room tells the rest of the daemon leaves as events (`changed$`, `warning$`), never as calls into
 * services built after it.
 *
 * Which wakes a usage report or a warning belongs to is decided here, once: the wakes of the turn
 * that reported it, else the wakes the agent works on now (a runtime may report between turns).
 */
import { filter, map, Subject, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { Registry } from 'prom-client';
import type { AgentConfig, Config } from '../../../shared/config.js';
import { isTerminal, type RuntimeKind } from '../../../shared/wake-status.js';
import type { AnnouncedLimitWindow, TurnUsage } from '../../../shared/usage.js';
import type { UsagePausePort } from '../api/daemon-api.js';
import type { UsagePort } from '../api/api-ports.js';
import type { ConfigSource } from '../config/config-source.js';
import { budgetChanges, budgetEdits } from '../config/agent-edits.js';
import type { DaemonLog } from '../daemon-log.js';
import type { Store } from '../store/index.js';
import type { WakeLifecycle, WakePause } from '../wake/wake-lifecycle.js';
import { guardBudgets, type TurnEnder } from './budget-guard.js';
import { createUsageMetrics } from './usage-metrics.js';
import { UsagePauseService, type UsageBudgetPort } from './usage-pause-service.js';
import { UsageService, type UsageWarning } from './usage-service.js';

/** A usage warning with where it is said: the conversation and wake it belongs to (either may be unknown). */
export interface UsageWarningRaised {
  readonly warning: UsageWarning;
  readonly target: string | null;
  readonly wakeToken: string | null;
}

export interface UsageWiringDeps {
  readonly store: Store;
  readonly source: ConfigSource;
  /** The config as it was at start: the agents the usage summary lists. */
  readonly config: Config;
  readonly lifecycle: WakeLifecycle;
  readonly registry: Registry;
  /** The daemon's one clock (issue 39): dates of usage rows and the pauses' resets. */
  readonly clock: SchedulerLike;
  /** The agent's policy as configured now; undefined for an unknown agent. */
  readonly policyOf: (agentId: string) => AgentConfig | undefined;
  /** A test's own daily-budget port; the usage service's budgets by default. */
  readonly usageBudget?: UsageBudgetPort | undefined;
  readonly log: DaemonLog;
}

export interface UsageRoom {
  /** The lifecycle's admission hold: a budget reached holds the agent's new wakes. */
  readonly admissionHold: (agentId: string) => WakePause | null;
  /** The API's `usage.updated` per agent: a wake's usage stored, a limit window announced, a budget edited. */
  readonly changed$: Observable<string>;
  /** Once each: a limit window or a budget at 80 %, with the conversation and wake it is said in. */
  readonly warning$: Observable<UsageWarningRaised>;
  /** The session ports of one agent: its runtime's usage reports and limit windows, its usage-limit refusals. */
  sessionPorts(agent: AgentConfig): UsageSessionPorts;
  /** A stored pause of the agent, re-armed at start; `resume` applies it to the restored wakes. */
  restore(agentId: string, resume: (pause: WakePause | null) => void): void;
  /** issue 41: a report that reaches the agent's daily budget ends its running turn through `turns`. */
  guard(turns: TurnEnder): Subscription;
  readonly api: { readonly usage: UsagePort; readonly usagePause: UsagePausePort };
  dispose(): void;
}

export interface UsageSessionPorts {
  onUsage(usage: TurnUsage, turn: { readonly turnId: string | null; readonly wakeTokens: readonly string[] }): void;
  onLimitWindow(window: AnnouncedLimitWindow, turnWakes: readonly string[]): void;
  onUsageLimit(generation: number, detail: string): boolean;
}

export function wireUsage(d: UsageWiringDeps): UsageRoom {
  const changed = new Subject<string>();
  const warnings = new Subject<UsageWarningRaised>();
  const metrics = createUsageMetrics(d.registry);
  /** The wakes a report belongs to: its turn's, else those the agent works on now. */
  const wakesOf = (agentId: string, turnWakes: readonly string[]): readonly string[] =>
    turnWakes.length > 0 ? turnWakes : d.lifecycle.workingOn(agentId, []);
  const usage = new UsageService({
    store: d.store,
    now: () => new Date(d.clock.now()),
    // The budgets as agentteam.json has them now: a budget applies at once, no restart.
    budgetOf: (agentId) => d.source.config.agents.find((a) => a.id === agentId)?.budget,
    agentIds: () => d.config.agents.map((a) => a.id),
    onRecorded: (turnUsage, runtime: RuntimeKind) => metrics.record(runtime, turnUsage),
    onChanged: (agentId) => changed.next(agentId),
    onWarning: (warning) => {
      const wakeToken = warning.wakeToken ?? wakesOf(warning.agentId, [])[0] ?? null;
      const target = wakeToken === null ? null : (d.store.getWake(wakeToken)?.target ?? null);
      warnings.next({ warning, target, wakeToken });
    },
  });
  const pause = new UsagePauseService({
    lifecycle: d.lifecycle,
    pauses: d.store.pauses,
    policyOf: d.policyOf,
    usageBudget: d.usageBudget ?? usage.usageBudget,
    announcedReset: usage.limitResetOf,
    scheduler: d.clock,
    log: d.log,
  });
  // issue 27: a budget edited in agentteam.json applies at once: the surfaces read it again, and
  // wakes waiting on a budget it no longer reaches are released.
  const edits = budgetChanges(d.config, d.source.state$.pipe(map(({ loaded }) => loaded.config))).subscribe(
    (agentId) => {
      usage.budgetChanged(agentId);
      pause.budgetChanged(agentId);
    },
  );
  // issue 40 item 8: a wake of the agent that ends means its provider took a turn: the probe backoff starts over.
  const ended = d.lifecycle.wakeStatus$
    .pipe(filter((e) => isTerminal(e.status)))
    .subscribe((e) => pause.wakeEnded(e.agentId));
  return {
    admissionHold: pause.admissionHold,
    changed$: changed.asObservable(),
    warning$: warnings.asObservable(),
    sessionPorts: (agent) => ({
      onUsage: (turnUsage, turn) =>
        usage.recordTurn(agent.id, agent.runtime, wakesOf(agent.id, turn.wakeTokens), turnUsage, turn.turnId),
      // The announcing turn's wakes (Codex announces around the turn's end): where a warning is said.
      onLimitWindow: (window, turnWakes) =>
        usage.recordLimitWindow({ ...window, agentId: agent.id }, turnWakes[0] ?? null),
      // issue 27: a turn refused by a usage limit pauses its wakes (or fails them with `onUsageLimit: "fail"`).
      onUsageLimit: (generation, detail) => pause.onUsageLimit(agent.id, generation, detail),
    }),
    restore: (agentId, resume) => pause.restore(agentId, resume),
    guard: (turns) => guardBudgets(usage.budgetReached$, turns, d.log),
    api: {
      usage: {
        summary: (filter) => usage.summary(filter),
        wake: (wakeToken) => usage.wake(wakeToken),
        // Written into agentteam.json through the one write path; the file's reload releases the waiting wakes.
        raiseBudget: (agentId, budget) => d.source.write(budgetEdits(agentId, budget)),
      },
      usagePause: pause,
    },
    dispose: () => {
      edits.unsubscribe();
      ended.unsubscribe();
      pause.dispose();
      changed.complete();
      warnings.complete();
    },
  };
}
