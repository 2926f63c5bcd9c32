/**
 * The `wake_status` event (contract §10.1): published on every status change, persisted
 * through the journal, forwarded to the UI by the integrator. It never carries local
 * assistant text: only its byte and rune counts (§6.5).
 */
import type { RuntimeKind, WakeStatus } from '../../../shared/wake-status.js';
import type { DeliveryClass } from './pending-delivery.js';

export interface WakeStatusEvent {
  readonly type: 'wake_status';
  readonly wakeToken: string;
  readonly messageId: string;
  readonly agentId: string;
  /** The agent's public technical name (what mentions and `dm:@` targets use). */
  readonly agentName: string;
  readonly agentDisplayName: string;
  readonly runtime: RuntimeKind;
  readonly model: string | null;
  readonly target: string;
  readonly targetSeq: number;
  readonly deliveryClass: DeliveryClass;
  readonly status: WakeStatus;
  /** `no_reply` / `signal_only` for `completed_without_visible_reply` (§9.3), else null. */
  readonly reason: string | null;
  /** Bounded diagnostic detail (e.g. runtime failure); never runtime text. */
  readonly detail: string | null;
  /** §6.5: local assistant text observed while the wake was pending, as counts only. */
  readonly localText: { readonly bytes: number; readonly runes: number } | null;
  readonly at: string;
}
