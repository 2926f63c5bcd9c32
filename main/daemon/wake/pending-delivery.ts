/**
 * Pending delivery rows (contract §9.1) and the values the pure table hands back.
 * No I/O here: these are plain data shared by the table, the lifecycle service and tests.
 */
import type { FailureReason, NoReplyReason, PauseKind, SendRefusalCode } from '../../../shared/wake-status.js';
import type { TargetKey } from '../../../shared/target.js';

/** contract §9.1: workflow callbacks, system and reaction signals are `signal_only`. */
export const DELIVERY_CLASSES = ['visible_reply', 'signal_only'] as const;
export type DeliveryClass = (typeof DELIVERY_CLASSES)[number];

/** contract §9.1 `Status`: a row is waiting for a reply, or its one final-check went out. */
export type PendingDeliveryStatus = 'awaiting_check' | 'final_check_sent';

/** A wake offered to the table: queued until the FIFO has room, then a row. */
export interface WakeAdmission {
  readonly wakeToken: string;
  readonly messageId: string;
  /** The target as the message carried it (`Target` in §9.1). */
  readonly target: string;
  /** Canonical `TargetKey`; null when the wake has no exact target ("reply unavailable", §8.3). */
  readonly targetKey: TargetKey | null;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
  /**
   * contract §8.3: further exact sendable destinations this input carries (task scope,
   * workflow target). The wake's own `targetKey` is always in the send scope.
   */
  readonly sendableTargets?: readonly TargetKey[];
  /** issue 38: its one final-check already went out (a paused wake restored after a daemon restart). */
  readonly finalCheckSent?: boolean;
}

/**
 * One row of the bounded FIFO (contract §9.1), plus the process generation that saw it and
 * the byte/rune counts of local assistant text observed while it was pending (§6.5: counts
 * only, never the text). A class so every row shares one hidden class (heap per row).
 */
export class PendingDelivery {
  status: PendingDeliveryStatus = 'awaiting_check';
  /**
   * The runtime adapter confirmed the row written into the runtime (§9.1: a row is a runtime-visible
   * message); it stays so until the row ends. A field, not a set of tokens: checked on every
   * boundary for every row (issue 19).
   */
  visible = false;
  /**
   * issue 38: the process generation whose session last had this row's input written into it (-1:
   * never). A usage pause takes a row back without forgetting it: when it is admitted again into
   * the same generation, the session already holds the input, so a continuation is written instead
   * of the task (the operator's task reaches a session once per wake).
   */
  seenIn = -1;
  /** issue 38: admitted again into the session that already saw it (set at admission, see `seenIn`). */
  resumed = false;
  localTextBytes = 0;
  localTextRunes = 0;
  /**
   * issue 15: the last of our own refusals of the agent's `message_send` made while this row was
   * runtime-visible (the communication service charges it); a terminal without a reply names it.
   */
  refusal: SendRefusalCode | null = null;
  constructor(
    readonly messageId: string,
    readonly target: string,
    readonly targetKey: TargetKey | null,
    readonly targetSeq: number,
    readonly wakeToken: string,
    readonly deliveryClass: DeliveryClass,
    /** Process generation the row belongs to; re-bound only while it never reached a process. */
    public generation: number,
    /** contract §8.3: extra exact destinations this input carries (null when none). */
    readonly sendableTargets: readonly TargetKey[] | null = null,
  ) {}
}

export type TerminalOutcome =
  | { readonly status: 'reply_sent'; readonly reason: null; readonly detail: string | null }
  /** issue 15: `reason` from the closed vocabulary (shared/wake-status.ts FAILURE_REASONS). */
  | { readonly status: 'failed'; readonly reason: FailureReason | null; readonly detail: string }
  | {
      readonly status: 'completed_without_visible_reply';
      readonly reason: NoReplyReason;
      readonly detail: string | null;
    };

/** What the table asks its caller to do; applied in order by the lifecycle service. */
export type TableEffect =
  /** The row left the durable queue and is now runtime-visible in `generation`: deliver it. */
  | { readonly kind: 'admitted'; readonly row: PendingDelivery }
  /** The row's one final-check is going out (contract §6.4). */
  | { readonly kind: 'final_check_sent'; readonly row: PendingDelivery }
  /** The row reached its one terminal status and is already gone from the table (§9.4). */
  | { readonly kind: 'terminal'; readonly row: PendingDelivery; readonly outcome: TerminalOutcome }
  /**
   * issue 27 "pause, don't fail": the row's turn was refused by a usage or rate limit; it left the
   * FIFO back to the head of the queue (its place kept) and waits for the limit's reset, not ended.
   */
  | { readonly kind: 'paused'; readonly row: PendingDelivery }
  /** issue 38: the pause that held the row ended; it waits for admission again (`queued`), its place kept. */
  | { readonly kind: 'unpaused'; readonly row: PendingDelivery };

/** issue 27, 38: why and until when the table holds admission (its one home: the table). */
export interface TablePause {
  readonly kind: PauseKind;
  /** Epoch milliseconds of the reset (usage limit) or of the next day (budget); null when unknown. */
  readonly resetsAt: number | null;
  /** Bounded detail (the runtime's structured limit signal), never runtime text beyond the error. */
  readonly detail: string | null;
}

/** One canonical target of a final-check and the unresolved wakes it covers (contract §8.3). */
export interface FinalCheckGroup {
  target: TargetKey | null;
  // Plain arrays, built fresh per boundary: the prompt compiler's renderer takes them as such.
  wakes: Array<{ messageId: string; targetSeq: number; wakeToken: string }>;
}

/** contract §6.6: per canonical target, the highest unresolved TargetSeq at a process replacement. */
export interface RecoveryFrontier {
  readonly target: TargetKey;
  readonly targetSeq: number;
  readonly messageId: string;
  readonly wakeToken: string;
  /** Every original wake of that target the continuation covers, in FIFO order (bounded wake identity). */
  readonly wakeTokens?: readonly string[];
}

/**
 * What ended the session whose runtime-visible rows a recovery continues (issue 16): the daemon
 * died, the runtime process was replaced, or its context overflowed and it cannot go on. A native
 * compaction is none of these: the session continues (issue 24, contract §8.3).
 */
export const RECOVERY_CAUSES = ['daemon_restarted', 'process_replaced', 'context_overflow'] as const;
export type RecoveryCause = (typeof RECOVERY_CAUSES)[number];

/** The `failed` reason (shared/wake-status.ts FAILURE_REASONS) of a wake whose recovery was itself interrupted. */
export function failureReasonOf(cause: RecoveryCause): FailureReason {
  if (cause === 'daemon_restarted') return 'daemon_restarted';
  if (cause === 'process_replaced') return 'cli_exited';
  return 'context_overflow';
}

/** Message ids of synthetic recovery continuations (contract §6.6), never a stored message. */
export const RECOVERY_MESSAGE_PREFIX = 'msg_recovery_';

/** A synthetic recovery row is never recovered again: at most one recovery per wake (issue 16). */
export function isRecoveryMessage(messageId: string): boolean {
  return messageId.startsWith(RECOVERY_MESSAGE_PREFIX);
}

/** Kinds of turn boundary a runtime adapter reports (contract §8.3, §9.2). */
export type TurnBoundaryKind = 'turn_end' | 'idle' | 'compaction';
