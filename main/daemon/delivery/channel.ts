/**
 * The `Channel` port of response delivery (watchdog spec part B): send one chunk of a response,
 * correlated by `response_id` + chunk index, and answer an ACK (message id, seq) or a
 * *classified* failure.
 *
 * Classification is what makes retries safe (DESIGN.md "Beyond the specs"): only a failure known
 * not to have been delivered is retried on a channel without idempotency. An ambiguous outcome
 * (timeout after send, connection lost after send) could have landed: resending could show the
 * operator the same reply twice (research/reliability-perf.md §1, Telegram `TimedOut`), so it
 * becomes `uncertain` with an alert, unless the channel deduplicates by response_id + chunk.
 * `AckStatus` and `DeliveryPurpose`, which the hook bus carries too, live in bus/delivery-words.ts.
 */
import type { AckStatus } from '../bus/delivery-words.js';

/** Why a send did not produce an ACK. */
export type ChannelFailure =
  /** The connection was refused: nothing left this process. */
  | { readonly kind: 'connection_refused' }
  /** 429: the provider refused it; retry after `retryAfterMs` at the earliest. */
  | { readonly kind: 'rate_limited'; readonly retryAfterMs: number }
  /** 5xx answered before the provider accepted the message. */
  | { readonly kind: 'server_error'; readonly status: number }
  /** The local store rolled the write back (nothing stored). */
  | { readonly kind: 'store_unavailable'; readonly detail: string }
  /** The request was sent but no answer came in time: it may have been delivered. */
  | { readonly kind: 'timeout_after_send' }
  /** The connection (or this process) went away between send and ACK: it may have been delivered. */
  | { readonly kind: 'connection_lost_after_send' }
  /** No ACK within the tracker's `ackTimeoutMs`: it may have been delivered. */
  | { readonly kind: 'ack_timeout' }
  /** Refused for good (4xx, unknown target, content too large): retrying cannot help. */
  | { readonly kind: 'rejected'; readonly code: string; readonly detail: string };

export interface ChannelAck {
  readonly ok: true;
  readonly status: AckStatus;
  readonly messageId: string;
  /** TargetSeq on the local channel; null where a channel has no sequence. */
  readonly seq: number | null;
}

export interface ChannelNack {
  readonly ok: false;
  readonly failure: ChannelFailure;
}

export type ChannelSendResult = ChannelAck | ChannelNack;

export interface ChannelSendRequest {
  readonly turnId: string;
  readonly agentId: string;
  readonly target: string;
  readonly responseId: string;
  readonly chunkIndex: number;
  readonly chunkCount: number;
  /** Identical on every attempt (spec B: "retry with identical content and same response_id"). */
  readonly content: string;
  /** Marks a re-delivery of a preserved FAILED_FINAL response (preserveUndelivered). */
  readonly redelivered: boolean;
  /** 1 for the first attempt. */
  readonly attempt: number;
  /** issue 16: a reply's RepliedUpToSeq (the SeenUpToSeq it was sent with), stored with it in one transaction. */
  readonly repliedUpToSeq?: number;
}

export interface Channel {
  /** Config key of the channel (`channels.<name>`), e.g. `local`. */
  readonly name: string;
  /** Whether a resend with the same response_id + chunk can never show a second message. */
  readonly idempotent: boolean;
  /** Where silence beacons go: the status surface (local conversation) or a channel message. */
  readonly beaconSurface: 'status' | 'message';
  /** Resolves with an ACK or a classified failure; rejects only on a bug (treated as ambiguous). */
  send(request: ChannelSendRequest): Promise<ChannelSendResult>;
}

/** `not_delivered`: provably never shown; `ambiguous`: may have been shown; `permanent`: retrying cannot help. */
export type FailureClass = 'not_delivered' | 'ambiguous' | 'permanent';

export function classifyFailure(failure: ChannelFailure): FailureClass {
  switch (failure.kind) {
    case 'connection_refused':
    case 'rate_limited':
    case 'server_error':
    case 'store_unavailable':
      return 'not_delivered';
    case 'timeout_after_send':
    case 'connection_lost_after_send':
    case 'ack_timeout':
      return 'ambiguous';
    case 'rejected':
      return 'permanent';
  }
}

/** Stable code of a failure for events, alerts and the inspector. */
export function failureCode(failure: ChannelFailure): string {
  return failure.kind === 'rejected' ? `rejected:${failure.code}` : failure.kind;
}

/** Delay before a retry: `retryDelayMs`, or longer when a 429 says so (research §1: `max(3 s, retry_after)`). */
export function retryDelayFor(failure: ChannelFailure, retryDelayMs: number): number {
  return failure.kind === 'rate_limited' ? Math.max(retryDelayMs, failure.retryAfterMs) : retryDelayMs;
}
