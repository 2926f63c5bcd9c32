/**
 * The runtime-neutral adapter every runtime implements (Claude Code stream-json today; Codex
 * app-server JSON-RPC turns and OpenCode serve HTTP+SSE fit the same shape; the demo runtime
 * too). The host (wake lifecycle) talks to a runtime only through this interface.
 *
 * Runtime text is never a message (DESIGN.md; contract §6.1, §6.5): events carry byte and
 * rune counts of local text, tool names and bounded error details, never the text itself.
 */
import type { Observable } from 'rxjs';
import type { AnnouncedLimitWindow, TurnUsage } from '../../../shared/usage.js';
import type { FailureReason, RuntimeKind } from '../../../shared/wake-status.js';
import type { ApprovalHost } from './approval-port.js';

export type RuntimeEvent =
  /** The runtime accepted its session and can take deliveries. */
  | { readonly type: 'ready'; readonly sessionId: string | null; readonly resumed: boolean }
  /** bus `turn.start`. */
  | { readonly type: 'turn_start'; readonly sessionId: string | null }
  /** Local assistant text (diagnostics only, contract §6.5). */
  | { readonly type: 'local_text'; readonly bytes: number; readonly runes: number }
  /** A tool call as the runtime names it (e.g. `mcp__agentteam__message_send`); observing it settles nothing (contract §9.2). */
  | { readonly type: 'tool_call'; readonly name: string }
  /** The host's final-check text was written into the same session, or could not be (contract §8.3, §11 phase 4). */
  | {
      readonly type: 'final_check';
      readonly outcome: 'injected' | 'failed';
      readonly via: 'stop_hook' | 'user_message';
      readonly detail: string | null;
    }
  /**
   * issue 14: the runtime's own "waiting on the operator" signal (driver-session.ts), on each
   * change; the host pauses the turn's silence clock with it (bus `approval.wait`).
   */
  | { readonly type: 'operator_wait'; readonly waiting: boolean }
  /** bus `turn.end`. */
  | { readonly type: 'turn_end'; readonly outcome: 'completed' | 'error' | 'interrupted' }
  /**
   * issue 24, contract §8.3, §9.2: the runtime compacted its own context (Claude Code
   * `compact_boundary`, Codex `contextCompaction`, OpenCode `session.compacted`) and goes on in
   * the same session: a continuation. The wakes stay pending, the send scope survives, nothing is
   * re-sent; the turn ends by the ordinary rule (its one final-check restores the decision point).
   */
  | { readonly type: 'context_compacted' }
  /** issue 27: the turn's usage and the provider's limit windows, as the runtime reported them. */
  | { readonly type: 'usage'; readonly usage: TurnUsage }
  | { readonly type: 'limit_window'; readonly window: AnnouncedLimitWindow }
  /**
   * issue 16, 38: the provider refused the session's context as too long. `canCompact`: the
   * adapter can compact this session natively (`compact`), so the host may continue the same wake
   * in it; else (or when that fails) the host recovers the runtime-visible inputs into a fresh
   * session (contract §6.6).
   */
  | { readonly type: 'context_overflow'; readonly canCompact: boolean }
  /**
   * issue 29: a line of the runtime's output was over the line reader's cap and dropped (its
   * length only, never its text); the runtime keeps running.
   */
  | { readonly type: 'input_dropped'; readonly chars: number; readonly limit: number }
  /** A runtime/provider error, bounded detail (≤ DETAIL_MAX chars, diagnostics.ts). */
  | { readonly type: 'runtime_error'; readonly detail: string; readonly reason?: FailureReason }
  /** The runtime process (or in-process agent) ended; `expected` when stop() asked for it. */
  | { readonly type: 'exit'; readonly code: number | null; readonly signal: string | null; readonly expected: boolean }
  | { readonly type: 'restart_scheduled'; readonly attempt: number; readonly delayMs: number }
  /**
   * The restart cap was reached; the runtime stays down until started again. issue 43: `reason` and
   * `detail` when the last restart was refused for a reason of the launcher's (its host did not answer).
   */
  | { readonly type: 'gave_up'; readonly restarts: number; readonly reason?: FailureReason; readonly detail?: string };

/** Why a runtime's context was reset (issue 16); a native compaction is no reset (issue 24). */
export type ContextResetCause = 'context_overflow';

/**
 * Every event carries the process generation it came from, so a stale event of an old
 * process can never settle a newer turn (STYLE.md, dam-agents turn recovery).
 */
export type RuntimeEventEnvelope = RuntimeEvent & { readonly generation: number };

/** The host side of the turn boundary hook. */
export interface TurnBoundaryHost {
  /**
   * Called at each turn boundary before the runtime goes idle (contract §8.3). Returns the
   * final-check text to inject into the same session, or null to let the turn end. The host
   * alone decides (one final-check per row, contract §6.4); the adapter only injects.
   */
  onTurnBoundary(): Promise<string | null>;
  /** issue 14: the runtime's permission questions, answered by the operator (approval-port.ts). */
  readonly requestApproval?: ApprovalHost['requestApproval'];
}

export type StartResult =
  | { readonly ok: true; readonly sessionId: string | null; readonly resumed: boolean }
  | {
      readonly ok: false;
      readonly code: 'spawn_failed' | 'start_timeout' | 'exited';
      readonly message: string;
      /** issue 15: why, from the closed vocabulary (`cli_missing` for a command not found). */
      readonly reason?: FailureReason;
    };

export type DeliverResult =
  | { readonly ok: true }
  /** `withdrawn` (issue 38): its wakes were paused or ended while it waited; it was never written. */
  | { readonly ok: false; readonly code: 'not_running' | 'write_failed' | 'withdrawn'; readonly message: string };

export interface RuntimeAdapter {
  readonly runtime: RuntimeKind;
  readonly events$: Observable<RuntimeEventEnvelope>;
  /** Starts the runtime and resolves once it is ready (or could not start). */
  start(): Promise<StartResult>;
  /**
   * Writes one user input into the same session (queued by the runtime if a turn is running).
   * `due` (issue 38) is asked right before the input is written: false withdraws it (`withdrawn`).
   */
  deliver(text: string, due?: () => boolean): Promise<DeliverResult>;
  /** Interrupts the running turn, if any. */
  interrupt(): Promise<void>;
  /**
   * issue 38: after a context overflow, compacts the session natively once its overflowed turn
   * ended (ahead of any waiting delivery), then writes `continuation` (null: none) as the next turn
   * in the same session. Resolves once the continuation was accepted, or with why the compaction or
   * the write failed. Absent where the runtime cannot compact.
   */
  compact?(continuation: string | null): Promise<DeliverResult>;
  /** Stops the runtime and everything it spawned; resolves when it has exited. Idempotent. */
  stop(): Promise<void>;
}

export { boundedDetail, textMetrics } from '../diagnostics.js';
