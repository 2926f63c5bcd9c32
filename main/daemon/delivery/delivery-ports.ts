/**
 * Narrow ports onto the message store (built in parallel; the integrator binds the real one).
 * The method shapes are exactly those the store provides; nothing else of the store is needed.
 */
import type { TargetKey } from '../../../shared/target.js';
import type { AckStatus } from '../bus/delivery-words.js';

export interface AppendAgentMessage {
  /** The store's key of the conversation (the channel speaks canonical target text; the store, TargetKey). */
  readonly target: TargetKey;
  readonly authorId: string;
  readonly authorKind: 'agent';
  readonly content: string;
  /** Idempotency key together with `chunkIndex`: a second append returns `already_sent`. */
  readonly responseId: string;
  readonly chunkIndex: number;
  /** Shown as a re-delivery (preserveUndelivered). */
  readonly redelivered: boolean;
  /** issue 16: the TargetSeq this reply covers, recorded in the same transaction as the reply (contract §9.2). */
  readonly repliedUpToSeq?: number;
}

export interface AppendedMessage {
  readonly status: AckStatus;
  readonly message: { readonly id: string; readonly seq: number };
}

/** What the local channel needs: one synchronous, durable, idempotent append. */
export interface MessageAppendPort {
  appendMessage(input: AppendAgentMessage): AppendedMessage;
}

export interface UndeliveredRow {
  readonly agentId: string;
  readonly target: string;
  readonly turnId: string;
  readonly responseId: string;
  readonly chunkIndex: number;
  readonly content: string;
  readonly reason: string;
  /** The channel that failed it, which re-delivers it (the target's own channel when absent). */
  readonly channel?: string;
}

/** Durable keeping of FAILED_FINAL responses for re-delivery on the next inbound message (spec B). */
export interface UndeliveredPort {
  saveUndelivered(row: UndeliveredRow): void;
  /** Removes and returns the rows of a target, oldest first. */
  takeUndelivered(target: string): readonly UndeliveredRow[];
}
