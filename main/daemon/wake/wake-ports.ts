/**
 * Ports the wake lifecycle needs from the rest of the daemon. The integrator binds them:
 * the journal to the store, the renderer to the prompt compiler, the correlation port to the
 * delivery tracker / runtime adapter. All synchronous: the lifecycle never awaits.
 */
import type { RuntimeKind, WakeStatus } from '../../../shared/wake-status.js';
import type { DeliveryClass, FinalCheckGroup } from './pending-delivery.js';

export interface WakeJournalInsert {
  readonly wakeToken: string;
  readonly messageId: string;
  readonly agentId: string;
  readonly runtime: RuntimeKind;
  /** Canonical target text (the TargetKey) when the target parses, else the text as given. */
  readonly target: string;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
}

export interface WakeJournalEvent {
  readonly wakeToken: string;
  readonly kind: 'status' | 'beacon' | 'escalation' | 'final_check' | 'delivery' | 'alert';
  readonly status?: WakeStatus;
  readonly reason?: string | null;
  readonly detail?: string | null;
}

/** What `listWakes({status:'queued'})` must return per wake (the store's WakeRecord has these fields). */
export interface JournalQueuedWake {
  readonly wakeToken: string;
  readonly messageId: string;
  readonly target: string;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
}

/**
 * Persistence (the store). `insertWake` records the wake `queued`; `appendWakeEvent` returns
 * false when it refuses a second terminal status for a wake (the durable half of "at most one
 * terminal, ever"); `listWakes` returns queued wakes oldest first (the durable admission queue).
 */
export interface WakeJournal {
  insertWake(wake: WakeJournalInsert): unknown;
  appendWakeEvent(event: WakeJournalEvent): boolean;
  listWakes(query: { readonly agentId: string; readonly status: 'queued' }): readonly JournalQueuedWake[];
  appendAudit(audit: { readonly agentId: string; readonly kind: 'cross_target_send'; readonly target: string; readonly messageId: string }): unknown;
}

/**
 * Renders the one final-check prompt (contract §8.3; the prompt compiler provides it). Groups
 * come aggregated by canonical target in FIFO order; a null target means "reply unavailable".
 */
export type FinalCheckRenderer = (groups: readonly FinalCheckGroup[]) => string;

/** contract §9.4: terminal cleanup cancels retry ownership and runtime correlation of the wake. */
export interface WakeCorrelationPort {
  release(wakeToken: string): void;
}
