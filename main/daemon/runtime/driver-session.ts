/**
 * One process generation as a driver sees it: the context the skeleton hands over (emit wire
 * facts, wait on the injected scheduler, answer an `in_turn` final-check) and the session the
 * driver opens on it (submit, interrupt, close). See runtime-driver.ts for the driver itself.
 */
import type { SchedulerLike } from 'rxjs';
import type { AnnouncedLimitWindow, TurnUsage } from '../../../shared/usage.js';
import type { FailureReason } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import type { ApprovalAnswer, ApprovalAsk } from './approval-port.js';
import type { RuntimeProcess } from './runtime-process.js';

/** The wire's turn facts, in runtime-neutral words. Local text is reduced to counts by the skeleton (contract §6.5). */
export type DriverEvent =
  /** The provider session id is known (e.g. Claude's `system/init`); the skeleton remembers it with the fingerprint. */
  | { readonly type: 'session'; readonly sessionId: string }
  | { readonly type: 'turn_started' }
  /** A tool call the runtime started; settles nothing (contract §9.2). */
  | { readonly type: 'tool_call'; readonly name: string }
  /** Local assistant text: diagnostics only, never stored or sent (contract §6.5). */
  | { readonly type: 'local_text'; readonly text: string }
  /**
   * issue 14 "Liveness from the runtime where it exists": the runtime itself says it waits on the
   * operator (Codex `thread/status/changed` `activeFlags: ["waitingOnApproval"]`), on each change.
   */
  | { readonly type: 'operator_wait'; readonly waiting: boolean }
  /** issue 24: the runtime compacted its own context and continues the session (a continuation). */
  | { readonly type: 'context_compacted' }
  /** issue 27: the usage of the current turn as the runtime itself reported it (runtime/usage-report.ts). */
  | { readonly type: 'usage'; readonly usage: TurnUsage }
  /** issue 27: a rate-limit window the provider announced (its used share and reset). */
  | { readonly type: 'limit_window'; readonly window: AnnouncedLimitWindow }
  /**
   * issue 16, 38: the provider refused the context as too long. The host decides: a compaction
   * continuation in the same session where the session can `compact`, else §6.6 (a fresh session).
   */
  | { readonly type: 'context_overflow' }
  /** issue 29: a line of the runtime's output over the reader's cap was dropped (line-reader.ts); its length only. */
  | { readonly type: 'input_dropped'; readonly chars: number; readonly limit: number }
  /**
   * The process can take no further prompt although it still runs (e.g. OpenCode 1.18's session
   * after an abort that came before the model answered: every later prompt ends at once with "All
   * fibers interrupted"). The skeleton replaces it as after a crash — a turn still open ends
   * `failed` / `cli_exited` with this detail and is recovered; the new process resumes the session.
   */
  | { readonly type: 'process_unusable'; readonly detail: string }
  /** `failed` carries the wire's error (the skeleton bounds it). */
  | {
      readonly type: 'turn_ended';
      readonly outcome: 'completed' | 'failed' | 'interrupted';
      readonly error: string | null;
      /** issue 15: the failure's reason when the wire names it; else the skeleton classifies `error`. */
      readonly reason?: FailureReason;
    };

/** A wire operation's outcome: errors are values at this boundary. */
export type WireResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** What a driver gets for one process generation. */
export interface DriverContext {
  readonly generation: number;
  readonly process: RuntimeProcess;
  /** The stored session to resume: its thread-contract fingerprint matched (contract §8.1); else null. */
  readonly resumeSessionId: string | null;
  readonly scheduler: SchedulerLike;
  readonly log: DaemonLog | undefined;
  /** Events of a replaced process are dropped by the skeleton (generation-tagged watches). */
  emit(event: DriverEvent): void;
  /** Resolves after `ms` on the injected scheduler (readiness polling). */
  delay(ms: number): Promise<void>;
  /**
   * `finalCheck: 'in_turn'`: the runtime asks at its own boundary (Claude's Stop hook). The
   * skeleton asks the host (contract §8.3); `answer` writes the reply into the runtime (null:
   * let the turn end) and resolves whether it was written.
   */
  askInTurn(answer: (finalCheck: string | null) => Promise<boolean>): Promise<void>;
  /**
   * issue 14: a permission question of the runtime (what the CLI would ask a person) goes to the
   * operator; resolves with their answer (or an expiry / restart deny). Never decided by a driver.
   */
  askApproval(ask: ApprovalAsk): Promise<ApprovalAnswer>;
}

/** One open session on one process. */
export interface DriverSession {
  /** Writes one prompt as a new turn in the same session; resolves once the runtime accepted it. */
  submit(text: string): Promise<WireResult>;
  /** Cancels the running turn (it then ends `interrupted`). */
  interrupt(): Promise<WireResult>;
  /**
   * issue 38: asks the runtime to compact this session natively, between turns (Claude Code's
   * `/compact`, Codex `thread/compact/start`, OpenCode's summarize); resolves once it compacted,
   * or with why it could not. The compaction's own wire turn is no host turn (no `turn_started` /
   * `turn_ended`); its `context_compacted` is emitted. Absent: the runtime cannot compact (§6.6).
   */
  compact?(): Promise<WireResult>;
  /** The process is exiting or gone: release wire resources (event streams). */
  close?(): void;
}
