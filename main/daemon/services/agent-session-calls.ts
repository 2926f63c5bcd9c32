/**
 * What an agent session's machine asks its shell to perform (agent-session-machine.ts), in
 * order: the closed set of effects — ports, the hook bus, approvals, deliveries, the lifecycle.
 */
import type { AnnouncedLimitWindow, TurnUsage } from '../../../shared/usage.js';
import type { Agent } from '../../../shared/api/contract.js';
import type { FailureReason } from '../../../shared/wake-status.js';
import type { HookEventMap } from '../bus/hook-events.js';
import type { ContextResetCause } from '../runtime/runtime-adapter.js';
import type { WakeDelivery } from '../wake/wake-lifecycle.js';

/** What the shell performs, in order (a closed set). */
export type AgentSessionCall =
  // ports
  | { readonly call: 'report_state'; readonly state: Agent['state'] }
  /** issue 15: a restart was scheduled (its attempt number), or the runtime is up again (null). */
  | { readonly call: 'report_restart'; readonly attempt: number | null }
  | { readonly call: 'report_down'; readonly detail: string }
  | { readonly call: 'log_error'; readonly message: string; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly call: 'log_warn'; readonly message: string; readonly fields: Readonly<Record<string, unknown>> }
  /** contract §8.4: every prompt written into the runtime is a `prompt_input` trajectory entry. */
  | {
      readonly call: 'record_prompt_input';
      readonly kind: 'delivery' | 'final_check' | 'continuation';
      readonly wakeTokens: readonly string[];
      readonly text: string;
    }
  // the hook bus
  | { readonly call: 'turn.start'; readonly event: HookEventMap['turn.start'] }
  | { readonly call: 'turn.end'; readonly event: HookEventMap['turn.end'] }
  | { readonly call: 'runtime.local'; readonly event: HookEventMap['runtime.local'] }
  | { readonly call: 'approval.wait'; readonly event: HookEventMap['approval.wait'] }
  /** issue 14: the process that asked is gone: its pending approvals are cancelled. */
  | { readonly call: 'cancel_approvals'; readonly reason: string }
  /** issue 29: the runtime's own interrupt of the running turn (it then ends `interrupted`). */
  | { readonly call: 'interrupt_runtime' }
  // deliveries (the shell answers with `delivery_rendered`, then `delivery_written`)
  | { readonly call: 'follow_deliveries' }
  | { readonly call: 'render_delivery'; readonly delivery: WakeDelivery; readonly turn: 'fresh' | 'wake' }
  | { readonly call: 'write_prompt'; readonly delivery: WakeDelivery; readonly text: string }
  // the lifecycle
  | { readonly call: 'mark_delivered'; readonly generation: number; readonly wakeTokens: readonly string[] }
  | {
      readonly call: 'fail_delivery';
      readonly generation: number;
      readonly wakeTokens: readonly string[];
      readonly detail: string;
      readonly reason: FailureReason;
    }
  /** The shell asks the lifecycle and answers with `final_check_chosen`. */
  | { readonly call: 'choose_final_check'; readonly generation: number }
  /** The text `host.onTurnBoundary` resolves with: the adapter injects it into the same session (§6.4). */
  | { readonly call: 'answer_final_check'; readonly finalCheck: string }
  /** Phase 4: the final-check could not be injected: its rows end at once, no retry. */
  | {
      readonly call: 'final_check_undeliverable';
      readonly generation: number;
      readonly wakeTokens: readonly string[];
      readonly detail: string | null;
    }
  /** §9.2: every pending row ends `failed` (with `processExited`, admission pauses). */
  | {
      readonly call: 'fail_pending';
      readonly generation: number;
      readonly detail: string;
      readonly reason: FailureReason;
      readonly processExited: boolean;
    }
  /**
   * issue 29, 38: the turn the daemon asked to end (Stop, a turn timeout) is over: its wakes — the
   * runtime-visible rows — end `failed` with why; rows waiting for a later turn are untouched.
   */
  | {
      readonly call: 'end_turn_rows';
      readonly generation: number;
      readonly detail: string;
      readonly reason: FailureReason;
    }
  /** issue 16: admission pauses until a replacement, which recovers the runtime-visible rows. */
  | {
      readonly call: 'process_exited';
      readonly generation: number;
      readonly detail: string;
      readonly reason: FailureReason;
    }
  /** §6.6, §8.3: a new process is the lifecycle's `generation`; its recovery frontiers go to `onRecovery`. */
  | { readonly call: 'process_replaced'; readonly generation: number }
  /**
   * issue 27: the turn's usage / a limit window the runtime reported. `turnId` / `wakeTokens`: the
   * reporting turn and the wakes it carried at its start (the running turn's, else the latest turn's: a CLI reports
   * usage after the reply that already ended its wake, or after the turn's end).
   */
  | {
      readonly call: 'record_usage';
      readonly usage: TurnUsage;
      readonly turnId: string | null;
      readonly wakeTokens: readonly string[];
    }
  | {
      readonly call: 'record_limit_window';
      readonly window: AnnouncedLimitWindow;
      readonly wakeTokens: readonly string[];
    }
  /**
   * issue 24: the runtime compacted its context and goes on; the live wakes' timelines note it
   * (issue 38: `detail` says when it followed an overflow).
   */
  | { readonly call: 'note_compaction'; readonly detail: string | null }
  /**
   * issue 38: compact the overflowed session natively (after its turn ended, ahead of waiting
   * deliveries) and write `continuation` (null: none); the shell answers `compaction_settled`.
   */
  | { readonly call: 'compact_runtime'; readonly continuation: string | null }
  /** issue 38: why an overflow is not continued by a compaction (§6.6 instead): on the live wakes' timelines. */
  | { readonly call: 'note_renewal'; readonly detail: string }
  /** issue 16: the context overflowed; the recovery frontiers go to `onRecovery`. */
  | { readonly call: 'context_reset'; readonly generation: number; readonly cause: ContextResetCause }
  /** issue 24 (§6.6): the overflowed session cannot go on: its process is replaced by one in a fresh session. */
  | { readonly call: 'renew_session'; readonly detail: string }
  /** Counts only (contract §6.5): they reach the wake status as diagnostics, never the text. */
  | {
      readonly call: 'count_local_text';
      readonly generation: number;
      readonly bytes: number;
      readonly runes: number;
    };
