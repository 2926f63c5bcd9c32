/**
 * issue 29 "Turns end": no turn runs forever, and the operator can end one at once.
 *
 * - Deadline: each `turn.start` on the hook bus starts one timer of that agent's
 *   `turnTimeoutMinutes` (read at the turn's start) on the injected scheduler (virtual time in
 *   tests); its `turn.end` cancels it. When it fires, the session ends the turn through the
 *   runtime's own interrupt and the turn's wakes end `failed` with `turn_timeout`.
 * - Stop: `stop(agentId)` is the operator's action (the working chip's Stop, `agentteam stop
 *   --agent ID`, Telegram's Stop button): the running turn ends the same way, at once, with
 *   `stopped_by_operator`. An agent with no running turn is refused with a clear error.
 *
 * - Another rule of the daemon (issue 41: the daily budget, budget-guard.ts) ends a running turn
 *   through `end`, the same way, with its own reason.
 *
 * The decision of what the end does (cancel the turn's approvals, interrupt, fail the rows with
 * the reason, no final-check) is the session machine's `end_turn` (agent-session-machine.ts).
 */
import { ApiError } from '../../../shared/api/contract.js';
import { Subscription, asyncScheduler, timer, type SchedulerLike } from 'rxjs';
import type { HookBus } from '../bus/hook-bus.js';
import type { DaemonLog } from '../daemon-log.js';
import type { AgentSession } from './agent-session.js';
import type { TurnEndReason } from './agent-session-state.js';

export interface TurnDeadlinesOptions {
  readonly bus: HookBus;
  /** The agent's session (undefined: not launched). */
  readonly session: (agentId: string) => Pick<AgentSession, 'endTurn' | 'turnId' | 'stillEnding'> | undefined;
  /**
   * A turn asked to end that is still running after `graceMs` (its runtime ignored its own
   * interrupt): the agent's process is replaced (its rows then end `failed` with the reason).
   */
  readonly restart?: (agentId: string, detail: string) => void;
  /** How long a runtime has to end a turn after its interrupt; 30 s by default. */
  readonly graceMs?: number;
  /** The agent's `turnTimeoutMinutes` as it runs (undefined: unknown agent). */
  readonly timeoutMinutesOf: (agentId: string) => number | undefined;
  readonly agentName: (agentId: string) => string;
  readonly scheduler?: SchedulerLike;
  readonly log?: DaemonLog;
}

export class TurnDeadlines {
  readonly #o: TurnDeadlinesOptions;
  readonly #scheduler: SchedulerLike;
  readonly #subs = new Subscription();
  /** The deadline of each live turn, by turn id. */
  readonly #timers = new Map<string, Subscription>();
  /** After an interrupt: the time the runtime has to end that turn, by turn id. */
  readonly #graces = new Map<string, Subscription>();

  constructor(options: TurnDeadlinesOptions) {
    this.#o = options;
    this.#scheduler = options.scheduler ?? asyncScheduler;
  }

  /** Follows the bus: a deadline per turn from its start to its end. */
  start(): void {
    const { bus } = this.#o;
    this.#subs.add(
      bus.turnStart$.subscribe(({ turnId, agentId }) => {
        if (this.#timers.has(turnId)) return;
        const minutes = this.#o.timeoutMinutesOf(agentId);
        if (minutes === undefined) return;
        const deadline = timer(minutes * 60_000, this.#scheduler).subscribe(() => {
          this.#timers.delete(turnId);
          this.#end(agentId, turnId, 'turn_timeout', timeoutDetail(minutes));
        });
        this.#timers.set(turnId, deadline);
      }),
    );
    this.#subs.add(
      bus.turnEnd$.subscribe(({ turnId }) => {
        this.#timers.get(turnId)?.unsubscribe();
        this.#timers.delete(turnId);
        this.#graces.get(turnId)?.unsubscribe();
        this.#graces.delete(turnId);
      }),
    );
  }

  /**
   * The operator's Stop: ends the agent's running turn now (`stopped_by_operator`). Throws
   * `ApiError` `unknown_agent` for an agent that is not running, `not_working` when it is
   * not working on a turn (nothing to stop).
   */
  stop(agentId: string, turnId?: string): void {
    const session = this.#o.session(agentId);
    if (session === undefined || this.#o.timeoutMinutesOf(agentId) === undefined)
      throw new ApiError('unknown_agent', `There is no agent "${agentId}"; see agentteam.json.`);
    const running = session.turnId;
    // `turnId`: the turn the operator saw working (Telegram's button); another turn is not stopped.
    if (
      running === null ||
      (turnId !== undefined && turnId !== running) ||
      !this.#end(agentId, running, 'stopped_by_operator', 'the operator stopped the turn')
    )
      throw new ApiError(
        'not_working',
        `${this.#o.agentName(agentId)} (${agentId}) is not working on a turn; there is nothing to stop.`,
      );
  }

  /**
   * issue 41: ends the agent's running turn for a daemon rule (`budget_reached`) as Stop does, with
   * the same grace before a deaf runtime is replaced. False when no turn is running, or it is
   * already ending (asked once: a later report of the same turn ends nothing more).
   */
  end(agentId: string, reason: Extract<TurnEndReason, 'budget_reached'>, detail: string): boolean {
    const session = this.#o.session(agentId);
    const running = session?.turnId ?? null;
    if (running === null || session?.stillEnding(running) === true) return false;
    return this.#end(agentId, running, reason, detail);
  }

  /** Cancels every deadline; nothing more is ended. */
  dispose(): void {
    this.#subs.unsubscribe();
    for (const t of [...this.#timers.values(), ...this.#graces.values()]) t.unsubscribe();
    this.#timers.clear();
    this.#graces.clear();
  }

  #end(agentId: string, turnId: string, reason: TurnEndReason, detail: string): boolean {
    const ended = this.#o.session(agentId)?.endTurn(reason, detail, turnId) ?? false;
    if (!ended) return false;
    this.#o.log?.info('turn ended by the daemon', { agentId, turnId, reason });
    // The runtime's own interrupt first; a runtime that ignores it is replaced after the grace.
    if (this.#o.restart !== undefined && !this.#graces.has(turnId)) {
      const grace = timer(this.#o.graceMs ?? STOP_GRACE_MS, this.#scheduler).subscribe(() => {
        this.#graces.delete(turnId);
        if (this.#o.session(agentId)?.stillEnding(turnId) !== true) return;
        this.#o.log?.warn('runtime did not end an interrupted turn: restarting it', { agentId, turnId, reason });
        this.#o.restart?.(agentId, detail);
      });
      this.#graces.set(turnId, grace);
    }
    return true;
  }
}

/** How long a runtime has to end a turn after its own interrupt before its process is replaced. */
const STOP_GRACE_MS = 30_000;

const timeoutDetail = (minutes: number): string =>
  `the turn ran longer than ${minutes} minute${minutes === 1 ? '' : 's'} (turnTimeoutMinutes) and was interrupted`;
