/**
 * The delivery state of one chunk of a response (watchdog spec part B, "Delivery state model"),
 * as a pure reducer: `(state, event) => { state, effects }`. No timers, no I/O: the tracker
 * performs the effects (send, schedule a retry, emit the final state).
 *
 * Spec → phases:
 *   RESPONSE_GENERATED → `generated`; an attempt in flight → `sending`;
 *   DELIVERY_FAILED (retry scheduled) → `delivery_failed`; RESPONSE_DELIVERED → `delivered`;
 *   FAILED_FINAL → `failed_final`; plus `uncertain` (beyond the spec: an ambiguous outcome on a
 *   channel that cannot deduplicate is never blindly resent).
 *
 * Invariants (checked by the fast-check race test): exactly one `final` effect per chunk; no
 * attempt after a final state; a resend only after a failure known not delivered, or on an
 * idempotent channel.
 */
import type { AckStatus, ChunkFinal } from '../bus/delivery-words.js';
import { classifyFailure, retryDelayFor, failureCode, type ChannelFailure } from './channel.js';

export type ChunkPhase = 'generated' | 'sending' | 'delivery_failed' | 'delivered' | 'failed_final' | 'uncertain';

export interface ChunkState {
  readonly phase: ChunkPhase;
  /** Attempts started so far; while `sending`, the number of the attempt in flight. */
  readonly attempts: number;
  readonly messageId: string | null;
  readonly seq: number | null;
  readonly ack: AckStatus | null;
  /** Stable code of the last failure. */
  readonly failure: string | null;
  /** Some attempt had an ambiguous outcome: it may have been shown even if no ACK came. */
  readonly maybeDelivered: boolean;
}

export interface ChunkPolicy {
  /** Resends after the first attempt (spec B `retryCount`). */
  readonly retryCount: number;
  readonly retryDelayMs: number;
  /** The channel deduplicates by response_id + chunk, so an ambiguous outcome may be resent. */
  readonly idempotent: boolean;
}

export type ChunkEvent =
  /** Start an attempt: the first one, or the retry whose delay elapsed. */
  | { readonly type: 'send' }
  | {
      readonly type: 'ack';
      readonly attempt: number;
      readonly messageId: string;
      readonly seq: number | null;
      readonly status: AckStatus;
    }
  | { readonly type: 'nack'; readonly attempt: number; readonly failure: ChannelFailure }
  /** The daemon is stopping: settle now. An attempt in flight may have landed, so that is `uncertain`. */
  | { readonly type: 'abort' };

export type ChunkEffect =
  | { readonly type: 'attempt'; readonly attempt: number }
  | { readonly type: 'schedule_retry'; readonly delayMs: number }
  | { readonly type: 'cancel_retry' }
  | { readonly type: 'final'; readonly state: ChunkFinal }
  /** An ACK after the chunk already reached its final state: no second message, no second result. */
  | { readonly type: 'late_ack_suppressed'; readonly attempt: number; readonly after: ChunkFinal };

export interface Transition {
  readonly state: ChunkState;
  readonly effects: readonly ChunkEffect[];
}

export const INITIAL_CHUNK_STATE: ChunkState = {
  phase: 'generated',
  attempts: 0,
  messageId: null,
  seq: null,
  ack: null,
  failure: null,
  maybeDelivered: false,
};

export function isFinal(phase: ChunkPhase): phase is ChunkFinal {
  return phase === 'delivered' || phase === 'failed_final' || phase === 'uncertain';
}

const same = (state: ChunkState): Transition => ({ state, effects: [] });

export function reduceChunk(state: ChunkState, event: ChunkEvent, policy: ChunkPolicy): Transition {
  switch (event.type) {
    case 'send': {
      if (state.phase !== 'generated' && state.phase !== 'delivery_failed') return same(state);
      const attempt = state.attempts + 1;
      return { state: { ...state, phase: 'sending', attempts: attempt }, effects: [{ type: 'attempt', attempt }] };
    }
    case 'ack': {
      if (isFinal(state.phase))
        return { state, effects: [{ type: 'late_ack_suppressed', attempt: event.attempt, after: state.phase }] };
      if (state.phase === 'generated') return same(state); // bug guard: no attempt was made
      // Any attempt's ACK settles the chunk, including an earlier attempt's late ACK while the
      // retry is waiting (spec B: the same response_id lets a late ACK be matched).
      const effects: ChunkEffect[] = state.phase === 'delivery_failed' ? [{ type: 'cancel_retry' }] : [];
      effects.push({ type: 'final', state: 'delivered' });
      return {
        state: {
          ...state,
          phase: 'delivered',
          messageId: event.messageId,
          seq: event.seq,
          ack: event.status,
          failure: null,
        },
        effects,
      };
    }
    case 'nack': {
      // Only the attempt in flight decides; a stale attempt's failure changes nothing.
      if (state.phase !== 'sending' || event.attempt !== state.attempts) return same(state);
      const cls = classifyFailure(event.failure);
      const code = failureCode(event.failure);
      const maybeDelivered = state.maybeDelivered || cls === 'ambiguous';
      if (cls === 'permanent')
        return final({ ...state, failure: code, maybeDelivered }, maybeDelivered ? 'uncertain' : 'failed_final');
      if (cls === 'ambiguous' && !policy.idempotent)
        return final({ ...state, failure: code, maybeDelivered }, 'uncertain');
      if (state.attempts > policy.retryCount)
        return final({ ...state, failure: code, maybeDelivered }, maybeDelivered ? 'uncertain' : 'failed_final');
      return {
        state: { ...state, phase: 'delivery_failed', failure: code, maybeDelivered },
        effects: [{ type: 'schedule_retry', delayMs: retryDelayFor(event.failure, policy.retryDelayMs) }],
      };
    }
    case 'abort': {
      if (isFinal(state.phase)) return same(state);
      const landed = state.phase === 'sending' || state.maybeDelivered;
      return final(
        { ...state, failure: 'daemon_stopped', maybeDelivered: landed },
        landed ? 'uncertain' : 'failed_final',
      );
    }
  }
}

function final(state: ChunkState, phase: ChunkFinal): Transition {
  return { state: { ...state, phase }, effects: [{ type: 'final', state: phase }] };
}
