/**
 * What an agent session's machine is told (agent-session-machine.ts): the runtime's events with
 * the facts only the shell can read, and what the shell saw happen around them.
 */
import type { RuntimeKind } from '../../../shared/wake-status.js';
import type { DeliverResult, RuntimeEventEnvelope, StartResult } from '../runtime/runtime-adapter.js';
import type { FinalCheckInjection, WakeDelivery } from '../wake/wake-lifecycle.js';
import type { OverflowContinuation, TurnEndReason } from './agent-session-state.js';

/** A row the lifecycle holds when a turn starts (the wakes the turn carries). */
export interface CarriedWake {
  readonly wakeToken: string;
  readonly target: string;
}

export type Envelope<T extends RuntimeEventEnvelope['type']> = Extract<RuntimeEventEnvelope, { readonly type: T }>;

/** A runtime event with the facts its decision needs that only the shell can read. */
export type RuntimeInput =
  | (Envelope<'ready'> & { readonly tableGeneration: number })
  | (Envelope<'turn_start'> & { readonly turnId: string; readonly pending: readonly CarriedWake[] })
  | (Envelope<'context_overflow'> & { readonly continuation: OverflowContinuation })
  | Exclude<RuntimeEventEnvelope, { readonly type: 'ready' | 'turn_start' | 'context_overflow' }>;

/** What the shell saw happen besides the runtime's events. */
export type ShellEvent =
  /** `start`: the lifecycle's generation for this agent now. */
  | { readonly type: 'start'; readonly tableGeneration: number }
  /** The runtime adapter could not be built (`MadeAdapter` not ok). */
  | { readonly type: 'runtime_unbuilt'; readonly code: string; readonly message: string }
  /** An adapter was built and is being started. */
  | { readonly type: 'runtime_attached'; readonly runtime: RuntimeKind }
  | {
      readonly type: 'start_failed';
      readonly runtime: RuntimeKind;
      readonly result: Extract<StartResult, { readonly ok: false }>;
    }
  /** The adapter's start settled (the shell awaited it). */
  | { readonly type: 'launch_settled'; readonly ok: boolean }
  /** issue 14: `replace` was asked (the configuration changed). */
  | { readonly type: 'replace'; readonly detail: string }
  /** The replaced process has stopped. */
  | { readonly type: 'retired' }
  /** The replacement's launch settled; the lifecycle's generation for this agent now. */
  | { readonly type: 'replacement_settled'; readonly ok: boolean; readonly tableGeneration: number }
  /**
   * issue 42 "Sleep and wake": the agent was idle long enough (or memory is short): its process is
   * stopped until the next delivery. `working`: the rows the lifecycle holds for it (delivered or on their way).
   */
  | { readonly type: 'sleep'; readonly working: number }
  /** issue 42: the sleeping agent's process has stopped. */
  | { readonly type: 'slept' }
  /** issue 42: a delivery came for the sleeping agent: its runtime is started again (same session). */
  | { readonly type: 'wake' }
  /** issue 42: the woken runtime's start failed and is tried once more: the agent is starting again. */
  | { readonly type: 'start_again' }
  | { readonly type: 'stop' }
  /** The adapter has stopped after `stop`. */
  | { readonly type: 'stopped' }
  /** The lifecycle admitted rows for this agent (after the runtime's start settled). */
  | { readonly type: 'delivery_due'; readonly delivery: WakeDelivery }
  /** The delivery prompt the shell rendered for `delivery` (null: it could not be built). */
  | { readonly type: 'delivery_rendered'; readonly delivery: WakeDelivery; readonly text: string | null }
  /** The adapter's answer to a delivery written into it. */
  | { readonly type: 'delivery_written'; readonly delivery: WakeDelivery; readonly result: DeliverResult }
  /**
   * issue 29 "Turns end": end the running turn `turnId` through the runtime's own interrupt (its
   * timeout passed, or the operator stopped it). A turn that already ended is left alone.
   */
  | {
      readonly type: 'end_turn';
      readonly turnId: string;
      readonly reason: TurnEndReason;
      readonly detail: string;
    }
  /**
   * issue 38: the adapter's `compact` settled: the session compacted and the continuation was
   * written (ok), or why either failed.
   */
  | { readonly type: 'compaction_settled'; readonly ok: boolean; readonly detail: string | null }
  /** The adapter asks at a turn boundary (`host.onTurnBoundary`, contract §8.3). */
  | { readonly type: 'turn_boundary' }
  /** The lifecycle's answer at that boundary: the one final-check to inject, or null. */
  | { readonly type: 'final_check_chosen'; readonly injection: FinalCheckInjection | null };

export type AgentSessionEvent = RuntimeInput | ShellEvent;
