/**
 * Ports the wake lifecycle needs from the rest of the daemon. The integrator binds them:
 * the journal to the store, the renderer to the prompt compiler. All synchronous: the lifecycle
 * never awaits. What it announces (status, lost recoveries) leaves as events, never as ports.
 */
import type { WakeCause } from '../../../shared/api/contract.js';
import type { WakeEventKind } from '../../../shared/api/contract.js';
import type { AcpPreset, AgentConfig, PromptLanguage } from '../../../shared/config.js';
import type { TargetKey } from '../../../shared/target.js';
import type { RuntimeKind, WakeStatus } from '../../../shared/wake-status.js';
import type { DeliveryClass, FinalCheckGroup, RecoveryCause } from './pending-delivery.js';

/** One recovery marker to save: the exact target, its highest unresolved TargetSeq, the wakes it covers. */
export interface RecoveryMarkerSave {
  readonly target: TargetKey;
  readonly frontierSeq: number;
  readonly wakeTokens: readonly string[];
}

export interface WakeJournalInsert extends WakeAgentFields, WakeChainFields {
  readonly wakeToken: string;
  readonly messageId: string;
  readonly agentId: string;
  readonly runtime: RuntimeKind;
  readonly target: TargetKey;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
}

/**
 * issue 25: the chain a wake belongs to (the operator message that started it), what caused it,
 * and — for an agent-caused wake — its hop in the chain's budget and the agent that asked.
 */
export interface WakeChainFields {
  readonly chainId?: string | null;
  readonly cause?: WakeCause;
  readonly hop?: number;
  readonly hopBudget?: number;
  readonly askedById?: string | null;
  readonly askedByName?: string | null;
}

/**
 * contract §10.1: who the wake is for as the daemon resolved it when it accepted the wake — the
 * agent's public technical name and display name — and the model of its runtime context. A wake
 * recorded without them (an older store, a test journal) reads them from the running config.
 */
export interface WakeAgentFields {
  readonly agentName?: string;
  readonly agentDisplayName?: string;
  readonly model?: string | null;
}

export interface WakeJournalEvent {
  readonly wakeToken: string;
  readonly kind: WakeEventKind;
  readonly status?: WakeStatus;
  /** Omitted when there is none. */
  readonly reason?: string;
  readonly detail?: string;
}

/** What `listWakes` must return per wake (the store's WakeRecord has these fields). */
export interface JournalQueuedWake {
  readonly wakeToken: string;
  readonly messageId: string;
  readonly target: string;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
  /** contract §6.6: recovery continuations that already covered this wake (issue 16; absent = 0). */
  readonly recoveries?: number;
  /** issue 38: its one final-check went out (a paused wake keeps it across a restart: §6.4). */
  readonly finalCheck?: boolean;
}

/**
 * Persistence (the store). `insertWake` records the wake `queued`; `appendWakeEvent` returns
 * false when it refuses a second terminal status for a wake (the durable half of "at most one
 * terminal, ever"); `listWakes` returns an agent's wakes in one status oldest first (`queued`
 * is the durable admission queue; `delivered` / `final_check_sent` are in flight at a restart).
 */
export interface WakeJournal {
  insertWake(wake: WakeJournalInsert): unknown;
  appendWakeEvent(event: WakeJournalEvent): boolean;
  listWakes(query: {
    readonly agentId: string;
    readonly status: 'queued' | 'delivered' | 'final_check_sent' | 'paused';
  }): readonly JournalQueuedWake[];
  /** issue 16: the agent's durable cursors on a target (absent: a journal that keeps none, treated as 0). */
  agentCursor?(agentId: string, target: TargetKey): { readonly seenUpToSeq: number; readonly repliedUpToSeq: number };
  /**
   * issue 24 (contract §6.6): runs `fn` in ONE store transaction — every write it makes commits
   * together, or (it throws, or the daemon dies) none does. The terminals of the wakes a recovery
   * continues and the recovery's markers are written so: never "ended and not recovered".
   */
  transaction<T>(fn: () => T): T;
  /** contract §6.6: one recovery batch, one marker per canonical target (the store's `saveRecoveryBatch`). */
  saveRecoveryBatch(agentId: string, markers: readonly RecoveryMarkerSave[], cause: RecoveryCause): unknown;
}

/**
 * Renders the one final-check prompt (contract §8.3; the prompt compiler provides it). Groups
 * come aggregated by canonical target in FIFO order; a null target means "reply unavailable".
 */
export type FinalCheckRenderer = (groups: FinalCheckGroup[], ctx: FinalCheckRenderContext) => string;

/** Who the final-check is for: the renderer names the runtime's own send tool, in the agent's language. */
export interface FinalCheckRenderContext {
  readonly agentId: string;
  readonly runtime: RuntimeKind;
  readonly language: PromptLanguage;
  /**
   * issue 38: an ACP agent's preset, which names its tools (`mcp_agentteam_message_send`, …);
   * a closed enum, so no free text rides in with it.
   */
  readonly preset?: AcpPreset;
  /** The agent's send surface as its profile has it (the MCP tool, or the `agentteam` CLI). */
  readonly agentTools?: AgentConfig['agentTools'];
}
