/**
 * issue 27 "pause, don't fail": the one rule for a turn refused by a usage or rate limit, and for
 * an agent whose daily budget is reached.
 *
 * - A turn that ends `provider_rate_limited` (the failure classifier, a driver's structured kind)
 *   for an agent with `onUsageLimit: "wait"` (the default) does not end its wakes: the lifecycle
 *   pauses them in their place (FIFO: later wakes for that agent wait behind them), the reset comes
 *   from the limit window the runtime announced structured (`announcedReset`, issue 38), else from
 *   the CLI's own structured error as the driver bounded it (`usageLimitResetAt`: never model
 *   text), else a probe after a backoff (issue 40 item 8): the agent's `usageLimitBackoffSeconds`,
 *   doubled for each further limit that names no reset either (1, 2, 4, 8… minutes by default),
 *   capped at `PROBE_CAP_MS`, back to the first step once a wake of the agent ends (the provider took
 *   a turn); one timer per agent resumes it at the reset, and the paused wakes are delivered again —
 *   once. `"fail"` keeps `failed/provider_rate_limited`.
 * - One pause, from the first limit until a wake of the agent ends (or Cancel), is one episode: its
 *   start is the stored `pausedAt` however many probes it takes, so what is said once per pause (the
 *   Telegram notice) is said once.
 * - Try now resumes at once; Cancel ends the paused wakes `failed/stopped_by_operator` (the
 *   operator ended that work) and lets the wakes behind them go on.
 * - A pause is stored (`agent_pauses`, migration 13) with its wakes (`paused` in the journal): after
 *   a daemon restart `restore` hands it to the lifecycle's restore and re-arms its reset.
 * - Budget (the usage port `usageBudget(agentId)`): while it says reached, a new wake for that agent
 *   waits `paused` (`daily_budget`); it is re-checked at the port's `resetsAt` and on
 *   `budgetChanged(agentId)` (the budget was raised, the day turned) — no polling loop.
 *
 * No silence beacon while paused: the refused turn ended (`turn.end`), and the watchdog's next turn
 * starts with the resumed delivery.
 */
import { asyncScheduler, timer, type SchedulerLike, type Subscription } from 'rxjs';
import type { OnUsageLimit } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { usageLimitResetAt } from '../runtime/failure-classifier.js';
import type { AgentPauseRecord } from '../store/tables/agent-pauses-table.js';
import type { WakeLifecycle, WakePause } from '../wake/wake-lifecycle.js';

/** The usage engineer's port (message `usage contract:`): an agent's daily budget, now. */
export interface UsageBudget {
  readonly reached: boolean;
  readonly kind: 'tokens' | 'cost' | null;
  readonly used: number;
  readonly limit: number | null;
  /** Epoch ms (or ISO text) when the budget's day ends; null when unknown. */
  readonly resetsAt: number | string | null;
}
export type UsageBudgetPort = (agentId: string) => UsageBudget;

/** The default port until the usage service is wired: never reached. */
export const NEVER_REACHED: UsageBudgetPort = () => ({
  reached: false,
  kind: null,
  used: 0,
  limit: null,
  resetsAt: null,
});

/** Where pauses are kept across restarts (the store's `agent_pauses`). */
export interface PauseStore {
  save(p: AgentPauseRecord): void;
  clear(agentId: string): boolean;
  get(agentId: string): AgentPauseRecord | undefined;
}

export interface UsagePausePolicy {
  readonly onUsageLimit: OnUsageLimit;
  readonly usageLimitBackoffSeconds: number;
}

export interface UsagePauseOptions {
  readonly lifecycle: WakeLifecycle;
  readonly pauses: PauseStore;
  /** The agent's policy as configured now; undefined for an unknown agent (then: fail, as before). */
  readonly policyOf: (agentId: string) => UsagePausePolicy | undefined;
  readonly usageBudget?: UsageBudgetPort;
  /**
   * issue 38: the reset of the agent's provider limit as its runtime announced it structured
   * (usage-service.ts `limitResetOf`: an exhausted limit window's `resetsAt`), epoch ms, or null.
   */
  readonly announcedReset?: (agentId: string, nowMs: number) => number | null;
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
}

/**
 * issue 40 item 8: the longest wait between two probes of a limit whose reset is unknown (unless the
 * agent's own `usageLimitBackoffSeconds` is longer): a provider that stays limited is asked twice an hour.
 */
export const PROBE_CAP_MS = 30 * 60_000;

/** The wait before probe `n` (0 = the first) of a limit whose reset is unknown: `base`, doubled each time, capped. */
export function probeDelayMs(baseSeconds: number, n: number): number {
  const base = baseSeconds * 1000;
  return Math.min(base * 2 ** Math.min(n, 30), Math.max(base, PROBE_CAP_MS));
}

/** issue 40 item 8: one pause episode of an agent: since when, and how many probes of an unknown reset so far. */
interface Episode {
  readonly since: string;
  probes: number;
}

/** The reset of a pause whose time is unknown (a budget without `resetsAt`): the next local midnight. */
function nextDay(nowMs: number): number {
  const d = new Date(nowMs);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

export class UsagePauseService {
  readonly #o: UsagePauseOptions;
  readonly #scheduler: SchedulerLike;
  readonly #timers = new Map<string, Subscription>();
  readonly #episodes = new Map<string, Episode>();

  constructor(options: UsagePauseOptions) {
    this.#o = options;
    this.#scheduler = options.scheduler ?? asyncScheduler;
  }

  /** The lifecycle's `admissionHold`: a budget reached holds the agent's new wakes. */
  readonly admissionHold = (agentId: string): WakePause | null => {
    const budget = (this.#o.usageBudget ?? NEVER_REACHED)(agentId);
    if (!budget.reached) return null;
    const resetsAt = this.#resetOf(budget.resetsAt);
    const pause: WakePause = {
      kind: 'daily_budget',
      resetsAt,
      detail: `daily ${budget.kind ?? 'usage'} budget reached (${budget.used} of ${budget.limit ?? '?'})`,
    };
    this.#store(agentId, pause);
    this.#arm(agentId, resetsAt);
    return pause;
  };

  /**
   * A turn of `generation` ended `provider_rate_limited` with `detail`: true when its wakes are
   * paused (the caller fails nothing), false when the agent's policy is `fail` (fail as before).
   */
  onUsageLimit(agentId: string, generation: number, detail: string): boolean {
    const policy = this.#o.policyOf(agentId);
    if (policy === undefined || policy.onUsageLimit === 'fail') return false;
    const now = this.#scheduler.now();
    const episode = this.#episodeOf(agentId);
    const named = this.#o.announcedReset?.(agentId, now) ?? usageLimitResetAt(detail, now);
    // issue 40 item 8: an unknown reset is probed with a growing backoff, never a flat wait.
    const resetsAt = named ?? now + probeDelayMs(policy.usageLimitBackoffSeconds, episode.probes++);
    const pause: WakePause = { kind: 'usage_limit', resetsAt, detail };
    // Stored first: the wakes' `paused` events read their reset from it (the API's `pausedUntil`).
    this.#store(agentId, pause);
    const paused = this.#o.lifecycle.pause(agentId, generation, pause);
    this.#o.log?.info('usage limit: wakes paused until the reset', {
      agentId,
      resetsAt: new Date(resetsAt).toISOString(),
      wakes: paused.length,
    });
    this.#arm(agentId, resetsAt);
    return true;
  }

  /** Operator: Try now — the paused wakes are delivered now. False when the agent was not paused. */
  tryNow(agentId: string): boolean {
    return this.#resume(agentId, 'try_now');
  }

  /**
   * issue 40 item 8: a wake of the agent ended while nothing of it is paused — the provider took its
   * turn: the next limit starts a new episode, its probes from the first step again.
   */
  wakeEnded(agentId: string): void {
    if (this.#o.lifecycle.pauseOf(agentId) === null) this.#episodes.delete(agentId);
  }

  /** Operator: Cancel — the paused wakes end `failed/stopped_by_operator`; returns their tokens. */
  cancel(agentId: string): readonly string[] {
    this.#episodes.delete(agentId);
    this.#disarm(agentId);
    this.#o.pauses.clear(agentId);
    return this.#o.lifecycle.cancelPause(agentId, 'the operator cancelled the paused work');
  }

  /**
   * The budget may have changed (raised, a new day, the usage service's event): re-asks the port
   * and releases a budget pause it no longer reaches.
   */
  budgetChanged(agentId: string): boolean {
    const pause = this.#o.lifecycle.pauseOf(agentId);
    if (pause?.kind !== 'daily_budget') return false;
    if ((this.#o.usageBudget ?? NEVER_REACHED)(agentId).reached) return false;
    return this.#resume(agentId, 'budget_released');
  }

  /**
   * After a daemon restart: the stored pause goes to the lifecycle's restore (`restoreWakes`, the
   * recovery service's), and its reset is re-armed (a reset already past resumes at once).
   */
  restore(agentId: string, restoreWakes: (pause: WakePause | null) => void): void {
    const stored = this.#o.pauses.get(agentId);
    const pause: WakePause | null =
      stored === undefined ? null : { kind: stored.kind, resetsAt: stored.resetsAt, detail: stored.detail };
    if (stored !== undefined) this.#episodes.set(agentId, { since: stored.pausedAt, probes: 0 });
    restoreWakes(pause);
    if (pause !== null) this.#arm(agentId, pause.resetsAt ?? nextDay(this.#scheduler.now()));
  }

  /** Ends every timer (daemon stop); stored pauses stay for the next start. */
  dispose(): void {
    for (const t of this.#timers.values()) t.unsubscribe();
    this.#timers.clear();
  }

  #resume(agentId: string, why: 'reset' | 'try_now' | 'budget_released'): boolean {
    this.#disarm(agentId);
    this.#o.pauses.clear(agentId);
    const resumed = this.#o.lifecycle.resume(agentId);
    if (resumed) this.#o.log?.info('paused wakes resumed', { agentId, why });
    return resumed;
  }

  #arm(agentId: string, resetsAt: number): void {
    this.#disarm(agentId);
    const delay = Math.max(0, resetsAt - this.#scheduler.now());
    this.#timers.set(
      agentId,
      timer(delay, this.#scheduler).subscribe(() => {
        this.#timers.delete(agentId);
        const pause = this.#o.lifecycle.pauseOf(agentId);
        // A budget is released only when the port no longer says reached; else re-checked next day.
        if (pause?.kind === 'daily_budget' && (this.#o.usageBudget ?? NEVER_REACHED)(agentId).reached) {
          this.#arm(agentId, nextDay(this.#scheduler.now()));
          return;
        }
        this.#resume(agentId, 'reset');
      }),
    );
  }

  #disarm(agentId: string): void {
    this.#timers.get(agentId)?.unsubscribe();
    this.#timers.delete(agentId);
  }

  /** The agent's current pause episode, begun now when it has none. */
  #episodeOf(agentId: string): Episode {
    let episode = this.#episodes.get(agentId);
    if (episode === undefined) {
      episode = { since: new Date(this.#scheduler.now()).toISOString(), probes: 0 };
      this.#episodes.set(agentId, episode);
    }
    return episode;
  }

  #store(agentId: string, pause: WakePause): void {
    try {
      this.#o.pauses.save({
        agentId,
        kind: pause.kind,
        resetsAt: pause.resetsAt,
        detail: pause.detail,
        // issue 40 item 8: the episode's start, the same for every probe of one pause.
        pausedAt: this.#episodeOf(agentId).since,
      });
    } catch (err) {
      // The pause holds in memory; only its survival of a restart is lost (logged, never thrown at a runtime subscriber).
      this.#o.log?.error('usage pause: could not be stored', {
        agentId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  #resetOf(v: number | string | null): number {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string') {
      const ms = Date.parse(v);
      if (Number.isFinite(ms)) return ms;
    }
    return nextDay(this.#scheduler.now());
  }
}
