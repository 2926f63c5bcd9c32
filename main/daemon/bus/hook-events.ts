/**
 * Event shapes of the hook bus. The five hook names are the watchdog spec's
 * (`turn.start`, `message.delivered`, `response.outbound`, `delivery.result`, `turn.end`);
 * `runtime.local` carries what a runtime does that the operator never sees.
 *
 * Only `message.delivered` is operator-visible (watchdog spec A: "Resets only on
 * operator-visible output delivery"). Runtime text never travels on the bus: a
 * `local_text` event carries byte and rune counts only (contract §6.5).
 */
import type { AckStatus, ChunkFinal, DeliveryPurpose } from './delivery-words.js';

/** A runtime turn began; the wakes it serves are listed so beacons can be shown on their chips. */
export interface TurnStartEvent {
  readonly turnId: string;
  readonly agentId: string;
  /** Config key of the channel the turn answers on (`channels.<name>` in agentteam.json). */
  readonly channel: string;
  readonly wakeTokens: readonly string[];
  /** The exact target the turn's wakes came from, when there is one (where a channel posts beacons as messages). */
  readonly target?: string;
}

/** The runtime turn ended (any reason). Ends the turn's watchdog; never settles a wake by itself. */
export interface TurnEndEvent {
  readonly turnId: string;
}

/**
 * Operator-visible output confirmed delivered to a channel. `kind`:
 * `message` = a stored/acknowledged message; `stream` = operator-visible streaming output;
 * `typing` = a typing indicator only (never resets unless `resetOnTypingOnly`).
 */
export type DeliveredKind = 'message' | 'stream' | 'typing';

export interface MessageDeliveredEvent {
  /** The turn that produced it, when known; without it every active turn of the agent on the channel counts. */
  readonly turnId?: string;
  readonly agentId: string;
  readonly channel: string;
  readonly target: string;
  readonly messageId: string;
  readonly kind: DeliveredKind;
}

/** One chunk of a response is about to be sent (watchdog spec B: RESPONSE_GENERATED). */
export interface ResponseOutboundEvent {
  readonly turnId: string;
  readonly responseId: string;
  readonly chunkIndex: number;
  readonly chunkCount: number;
  readonly agentId: string;
  readonly target: string;
  readonly content: string;
  /** Whether this is a re-delivery of a preserved FAILED_FINAL response. */
  readonly redelivered: boolean;
  /** A beacon posted as a channel message is not a response of the turn (never counts as outbound, never settles a wake). */
  readonly purpose: DeliveryPurpose;
}

export interface DeliveryResultEvent {
  readonly turnId: string;
  readonly responseId: string;
  readonly chunkIndex: number;
  readonly chunkCount: number;
  readonly agentId: string;
  readonly target: string;
  readonly channel: string;
  /** Exactly one final state per chunk per delivery run. */
  readonly state: ChunkFinal;
  /** Channel send attempts made (1 = no retry). */
  readonly attempts: number;
  readonly messageId: string | null;
  readonly seq: number | null;
  /** `already_sent` when the channel recognised the response_id + chunk (idempotent replay). */
  readonly ack: AckStatus | null;
  /** Stable failure code when not delivered. */
  readonly failure: string | null;
  readonly redelivered: boolean;
  /** What the response was: an agent reply, or a beacon posted as a channel message (never settles a wake). */
  readonly purpose: DeliveryPurpose;
}

/** Runtime-local activity: useful for diagnostics, never operator-visible, never resets the watchdog. */
export type RuntimeLocalEvent =
  | { readonly turnId: string; readonly kind: 'tool_call'; readonly tool: string }
  | { readonly turnId: string; readonly kind: 'local_text'; readonly bytes: number; readonly runes: number }
  | { readonly turnId: string; readonly kind: 'error'; readonly code: string };

/**
 * issue 14: a turn waits for the operator's approval (`waiting: true`) or no longer does. The wait
 * is operator-visible (the chip asks them), so the silence watchdog pauses its clock meanwhile.
 */
export interface ApprovalWaitEvent {
  readonly turnId: string;
  readonly agentId: string;
  readonly waiting: boolean;
}

/** Every bus event by hook name. */
export interface HookEventMap {
  'turn.start': TurnStartEvent;
  'message.delivered': MessageDeliveredEvent;
  'response.outbound': ResponseOutboundEvent;
  'delivery.result': DeliveryResultEvent;
  'turn.end': TurnEndEvent;
  'runtime.local': RuntimeLocalEvent;
  'approval.wait': ApprovalWaitEvent;
}

export type HookName = keyof HookEventMap;
export const HOOK_NAMES: readonly HookName[] = [
  'turn.start',
  'message.delivered',
  'response.outbound',
  'delivery.result',
  'turn.end',
  'runtime.local',
  'approval.wait',
];
