/**
 * The port the agentteam MCP server calls for the real work of a tool call (DESIGN.md data
 * flow: guard → delivery tracker → channel → wake table). The server owns transport, auth,
 * argument validation, target parsing, size and rate limits; the handler owns scope,
 * freshness, idempotency, durable writes and delivery confirmation.
 *
 * Contract for implementers: on `{ ok: false }` nothing may have been written (contract §6.1:
 * the communication tool is the only writer, and a refused call writes nothing).
 */
import type { TargetKey } from '../../../shared/target.js';

export interface MessageSendArgs {
  readonly target: TargetKey;
  readonly content: string;
  /** contract §8.3: an intentional send outside the turn's message-send scope, audited. */
  readonly allowCrossTarget: boolean;
}

export interface MessageSendResult {
  readonly ok: true;
  readonly status: 'sent' | 'already_sent';
  readonly targetKey: TargetKey;
  /** DESIGN.md "TargetSeq": highest TargetSeq of the target runtime-visible to the sender before the send. */
  readonly seenUpToSeq: number;
  readonly messageId: string;
}

export interface ReactionArgs {
  readonly messageId: string;
  readonly emoji: string;
}

/** A refusal the model can act on: a stable snake_case code and one actionable sentence. */
export interface ToolRefusal {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

export interface CommunicationHandler {
  messageSend(agentId: string, args: MessageSendArgs): Promise<MessageSendResult | ToolRefusal>;
  reaction(agentId: string, args: ReactionArgs): Promise<{ readonly ok: true } | ToolRefusal>;
}
