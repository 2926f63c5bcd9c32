/**
 * Plain-object records the store returns. Times are ISO-8601 strings; TargetKeys are canonical
 * (shared/target.ts). Field names follow shared/api/contract.ts where the same thing appears.
 */
import type { TargetKey } from '../../../shared/target.js';
import type { RuntimeKind, WakeStatus } from '../../../shared/wake-status.js';
import type { DeliveryClass } from '../wake/pending-delivery.js';
import type { WakeJournalInsert } from '../wake/wake-ports.js';
import type {
  AuditKind,
  AuthorKind,
  ConversationKind,
  PromptInputKind,
  WakeEventKind,
} from '../../../shared/api/contract.js';

/** The contract's vocabularies (shared/api/contract.ts), re-exported under the store's names. */
export type { AuditKind, ConversationKind, PromptInputKind, WakeEventKind };

export type MemberKind = AuthorKind;
/** The wake lifecycle's (contract §5); the store keeps it as text. */
export type { DeliveryClass } from '../wake/pending-delivery.js';
/** contract §6.6: `pending` waits in durable deferred delivery; `replay_pending` was launched in a fresh runtime. */
export type RecoveryMarkerState = 'pending' | 'replay_pending' | 'settled' | 'superseded';

export interface MemberRecord {
  readonly id: string;
  readonly kind: MemberKind;
  readonly name: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface ConversationRecord {
  readonly target: TargetKey;
  readonly kind: ConversationKind;
  /** The parent channel or DM of a thread, else null. */
  readonly parent: TargetKey | null;
  /** Highest TargetSeq stored in this conversation; 0 when empty. */
  readonly lastSeq: number;
  readonly createdAt: string;
}

export interface MessageRecord {
  readonly id: string;
  readonly target: TargetKey;
  /** TargetSeq: per target, monotonic, gap-free, from 1. */
  readonly seq: number;
  readonly authorId: string;
  /** The member's name when the author is a known member, else its id. */
  readonly authorName: string;
  readonly authorKind: MemberKind;
  readonly content: string;
  readonly createdAt: string;
  readonly responseId: string | null;
  readonly chunkIndex: number | null;
  readonly redelivered: boolean;
  /** issue 25: the chain it belongs to (null: none, or stored before chains existed). */
  readonly chainId?: string | null;
}

export interface AppendMessageInput {
  readonly target: TargetKey;
  readonly authorId: string;
  readonly authorKind: MemberKind;
  readonly content: string;
  /** Watchdog spec B: the delivery correlation id; with `chunkIndex` (default 0) it makes the append idempotent per author. */
  readonly responseId?: string;
  readonly chunkIndex?: number;
  readonly redelivered?: boolean;
  /**
   * issue 16: the sending agent's SeenUpToSeq of this target when it sent (a reply only): stored
   * in the same transaction as the message, so a restart knows exactly which inputs a landed
   * reply covered (contract §6.6: a recovered wake whose reply already landed is not asked again).
   */
  readonly repliedUpToSeq?: number;
}

export interface AppendMessageResult {
  /** `already_sent`: this author's `responseId`+`chunkIndex` was stored before; `message` is that original. */
  readonly status: 'sent' | 'already_sent';
  readonly message: MessageRecord;
}

export interface ListMessagesOptions {
  readonly beforeSeq?: number;
  readonly afterSeq?: number;
  /** Default 200. With `beforeSeq` (and no `afterSeq`) the newest `limit` before it are returned. */
  readonly limit?: number;
}

/** The wake journal port's insert (wake/wake-ports.ts): the store implements that port. */
export type InsertWakeInput = WakeJournalInsert;

export interface WakeRecord {
  readonly wakeToken: string;
  readonly messageId: string;
  readonly agentId: string;
  /** contract §10.1: the agent's public technical name when the wake was accepted (null: recorded before issue 24). */
  readonly agentName: string | null;
  /** contract §10.1: its display name then (null: recorded before issue 24). */
  readonly agentDisplayName: string | null;
  readonly runtime: RuntimeKind;
  /** contract §10.1: the model of the runtime context, when one is set. */
  readonly model: string | null;
  readonly target: TargetKey;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
  readonly status: WakeStatus;
  readonly reason: string | null;
  /** Bounded failure detail (at most DETAIL_MAX characters, diagnostics.ts). Never runtime text. */
  readonly detail: string | null;
  readonly beacons: number;
  readonly escalated: boolean;
  readonly lastBeaconAt: string | null;
  readonly finalCheck: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Set once, when the wake reaches its terminal status. */
  readonly endedAt: string | null;
  /** contract §6.6: recovery continuations that covered this wake (at most one). */
  readonly recoveries: number;
  // issue 25: its chain (null: stored before chains existed); optional so test doubles stay valid, the store always reads them
  readonly chainId?: string | null;
  readonly cause?: 'operator' | 'agent_mention' | 'hand_back' | 'recovery';
  readonly hop?: number;
  readonly hopBudget?: number;
  readonly askedById?: string | null;
  readonly askedByName?: string | null;
}

/** issue 25: an agent-caused wake a paused chain held back (Continue admits it). */
export interface HeldWake {
  readonly agentId: string;
  readonly cause: 'agent_mention' | 'hand_back';
}

/** issue 25: a chain (tables/chains-table.ts). */
export interface ChainRecord {
  readonly id: string;
  readonly target: TargetKey;
  readonly status: 'open' | 'paused';
  readonly hops: number;
  readonly budget: number;
  readonly continues: number;
  readonly heldMessageId: string | null;
  /** The agents the held message would have woken, and why. */
  readonly heldFor: readonly HeldWake[];
  readonly startedAt: string;
  readonly pausedAt: string | null;
  readonly updatedAt: string;
}

export interface WakeEventInput {
  readonly wakeToken: string;
  readonly kind: WakeEventKind;
  /** Required for `status` events; on other kinds it also moves the wake's status. */
  readonly status?: WakeStatus;
  readonly reason?: string;
  readonly detail?: string;
}

export interface WakeEventRecord {
  readonly id: number;
  readonly wakeToken: string;
  readonly kind: WakeEventKind;
  readonly status: WakeStatus | null;
  readonly reason: string | null;
  readonly detail: string | null;
  readonly at: string;
}

export interface ListWakesFilter {
  readonly target?: TargetKey;
  readonly agentId?: string;
  /** Only wakes without a terminal status. */
  readonly activeOnly?: boolean;
  readonly status?: WakeStatus;
  /** issue 25: only the wakes of this chain. */
  readonly chainId?: string;
  readonly limit?: number;
  /** `oldest` (default, admission order of `queued` wakes) or `newest` first. */
  readonly order?: 'oldest' | 'newest';
}

export interface PromptInputInput {
  readonly agentId: string;
  readonly wakeTokens: readonly string[];
  readonly kind: PromptInputKind;
  readonly text: string;
}

export interface PromptInputRecord {
  readonly id: string;
  readonly seq: number;
  readonly agentId: string;
  readonly wakeTokens: string[];
  readonly kind: PromptInputKind;
  readonly text: string;
  readonly at: string;
}

export interface UndeliveredInput {
  readonly agentId: string;
  readonly target: TargetKey;
  readonly turnId: string;
  readonly responseId: string;
  readonly chunkIndex: number;
  readonly content: string;
  readonly reason: string;
  /** The channel that failed it and re-delivers it (`local` when absent). */
  readonly channel?: string;
}

export interface UndeliveredRecord extends UndeliveredInput {
  readonly channel: string;
  readonly id: number;
  readonly createdAt: string;
  readonly takenAt: string | null;
}

export interface RecoveryMarkerInput {
  readonly target: TargetKey;
  /** Highest unresolved TargetSeq of this target in the original FIFO. */
  readonly frontierSeq: number;
  /** Bounded identity of the original wakes (contract §6.6); at most RECOVERY_WAKE_TOKENS_MAX kept. */
  readonly wakeTokens?: readonly string[];
}

export interface RecoveryMarkerRecord {
  /** Deterministic: the same agent, target and frontier always give the same id. */
  readonly id: string;
  /** The new deterministic synthetic message id of the recovery continuation (never an original wake token). */
  readonly syntheticMessageId: string;
  readonly agentId: string;
  readonly batchId: string;
  readonly target: TargetKey;
  readonly frontierSeq: number;
  readonly wakeTokens: string[];
  readonly state: RecoveryMarkerState;
  /** What ended the recovered session (`daemon_restarted`, `process_replaced`, `context_overflow`; `context_compacted` in stores older than issue 24); null when unknown. */
  readonly cause: string | null;
  readonly createdAt: string;
  readonly launchedAt: string | null;
  readonly settledAt: string | null;
}

export interface AuditInput {
  readonly agentId: string;
  readonly kind: AuditKind;
  readonly target: TargetKey;
  readonly messageId: string;
  readonly detail?: string;
  /** The wakes the agent was handling when it sent (issue 24: shown on their timelines). */
  readonly wakeTokens?: readonly string[];
}

export interface AuditRecord {
  readonly id: number;
  readonly agentId: string;
  readonly kind: AuditKind;
  readonly target: TargetKey;
  readonly messageId: string;
  readonly detail: string | null;
  readonly wakeTokens: readonly string[];
  readonly at: string;
}

export interface ReactionRecord {
  readonly messageId: string;
  readonly authorId: string;
  /** The member's name when the author is a known member, else its id. */
  readonly authorName: string;
  readonly emoji: string;
  readonly createdAt: string;
}
