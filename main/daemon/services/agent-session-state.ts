/**
 * What an agent session remembers between events (agent-session-machine.ts): immutable, the
 * process and lifecycle generations inside it.
 */
import type { Agent } from '../../../shared/api/contract.js';
import type { FailureReason, RuntimeKind } from '../../../shared/wake-status.js';
import type { FinalCheckInjection } from '../wake/wake-lifecycle.js';

/** Which runtime process's events settle wakes (STYLE.md "generation-tagged watches"). */
export type ProcessWatch =
  /** No process is ready yet: every event counts, the first `ready` names the generation. */
  | { readonly phase: 'awaiting_ready' }
  /** issue 14: the old process is being stopped for a replacement: none of its events settle anything. */
  | { readonly phase: 'retiring' }
  /** The old process is gone: the new one's first `ready` is a process replacement (§6.6). */
  | { readonly phase: 'awaiting_replacement' }
  /** Events of `generation` or later count; a later `ready` is a restarted process. */
  | { readonly phase: 'live'; readonly generation: number };

/** The last `runtime_error` of the running turn: the detail (and reason) its failure ends rows with. */
export interface RuntimeErrorNote {
  readonly detail: string;
  readonly reason: FailureReason | null;
}

export interface AgentSessionState {
  readonly agentId: string;
  readonly agentState: Agent['state'];
  /** `stop` was asked: nothing more is settled or delivered. */
  readonly stopped: boolean;
  /** The lifecycle's deliveries are followed (once, by the first start or a replacement). */
  readonly following: boolean;
  /** The attached adapter's runtime; null while none is (not built, or being replaced). */
  readonly runtime: RuntimeKind | null;
  readonly process: ProcessWatch;
  /** The lifecycle generation the current process maps to (-1 before `start`). */
  readonly lifecycleGeneration: number;
  /** A delivery was written into this process's session: the next is a wake, not fresh (§8.1). */
  readonly delivered: boolean;
  /** The running turn (delivery correlation), or null between turns. */
  readonly turnId: string | null;
  /** issue 14: the turn the runtime said it waits on the operator in (its own signal), if it still does. */
  readonly operatorWaitTurn: string | null;
  /** The wakes recent turns carried at their `turn.start` (at most `TURNS_KEPT`, oldest dropped). */
  readonly turnWakes: ReadonlyMap<string, readonly string[]>;
  readonly lastError: RuntimeErrorNote | null;
  /**
   * issue 29 "Turns end": the running turn was asked to end (its `turnTimeoutMinutes` passed, or
   * the operator stopped it); its non-completed end fails its rows with this, whatever the runtime
   * said, and no final-check is chosen at its boundary.
   */
  readonly turnEndAsked: TurnEndNote | null;
  /** The last final-check the lifecycle chose (a `final_check failed` event ends its rows). */
  readonly lastInjection: FinalCheckInjection | null;
  /**
   * issue 38: a context overflow this session goes on from in the same session: `compacting` from
   * the overflow until the runtime compacted and the continuation was written (the overflowed
   * turn's failure ends nothing, no final-check is chosen), then `continued` until that turn ends
   * (an overflow then is one right after a compaction: §6.6). Null otherwise.
   */
  readonly overflow: OverflowNote | null;
  /** issue 15: why the runtime is down (deliveries then fail with it). */
  readonly downReason: FailureReason | null;
  /** What the last "runtime down" said (a delivery to a runtime that could not be built fails with it). */
  readonly downDetail: string | null;
}

/**
 * issue 38: the continuation an overflowed session goes on with after it compacted: the wakes it
 * was working on (runtime-visible rows) and the prompt naming their exact targets (null: none
 * could be rendered; with no wakes, nothing to continue).
 */
export interface OverflowContinuation {
  readonly wakeTokens: readonly string[];
  readonly text: string | null;
}

/** issue 38: where an overflow's compaction continuation is (see `overflow`). */
export type OverflowNote =
  { readonly phase: 'compacting'; readonly continuation: OverflowContinuation } | { readonly phase: 'continued' };

/**
 * Why the daemon ends a running turn: its deadline, the operator's Stop (issue 29), its agent's
 * daily budget reached by its own usage (issue 41, budget-guard.ts).
 */
export type TurnEndReason = Extract<FailureReason, 'turn_timeout' | 'stopped_by_operator' | 'budget_reached'>;

/** Why the daemon ended a turn (issue 29), and the detail its rows end with. */
export interface TurnEndNote {
  readonly turnId: string;
  readonly detail: string;
  readonly reason: TurnEndReason;
}

/** Recent turns remembered per agent (a late retry result of an older turn is simply not shown on a wake). */
export const TURNS_KEPT = 256;

export function initialAgentSessionState(agentId: string): AgentSessionState {
  return {
    agentId,
    agentState: 'starting',
    stopped: false,
    following: false,
    runtime: null,
    process: { phase: 'awaiting_ready' },
    lifecycleGeneration: -1,
    delivered: false,
    turnId: null,
    operatorWaitTurn: null,
    turnWakes: new Map(),
    lastError: null,
    turnEndAsked: null,
    lastInjection: null,
    overflow: null,
    downReason: null,
    downDetail: null,
  };
}
