/**
 * The effect applier of the wake lifecycle (DESIGN.md "Reactive core"): what an agent's pure
 * `PendingDeliveryTable` asks for, applied through the ports in order — the journal first (one
 * terminal per wake, ever: §6.2), then the metrics and the `wake_status` bus (§10.1), whose
 * terminal events release the wake's retry ownership (§9.4: the delivery tracker listens); admitted rows go out as one delivery to the runtime adapter.
 * Synchronous and timer-free, like the lifecycle that owns it.
 */
import type { Observable } from 'rxjs';
import type { TargetKey } from '../../../shared/target.js';
import type { DaemonLog } from '../daemon-log.js';
import { boundedDetail } from '../diagnostics.js';
import type { WakeMetrics } from '../metrics/wake-metrics.js';
import { EventStream } from './event-stream.js';
import type { PendingDeliveryTable } from './pending-delivery-table.js';
import type {
  DeliveryClass,
  PendingDelivery,
  RecoveryCause,
  RecoveryFrontier,
  TableEffect,
  TablePause,
  WakeAdmission,
} from './pending-delivery.js';
import { endOf, writeEnd, type Ended, type RecoveryJournal } from './recovery-journal.js';
import type { WakeJournal } from './wake-ports.js';
import type { AgentProfile, WakeStatusPublisher } from './wake-status-publisher.js';

/** One agent of the lifecycle: who it is now, and its table. */
export interface AgentSlot {
  profile: AgentProfile;
  readonly table: PendingDeliveryTable;
}

/** Rows to write into the runtime now (admitted from the FIFO queue, or re-offered after replacement). */
export interface WakeDelivery {
  readonly agentId: string;
  readonly generation: number;
  readonly wakes: ReadonlyArray<{
    readonly wakeToken: string;
    readonly messageId: string;
    readonly target: string;
    readonly targetKey: TargetKey | null;
    readonly targetSeq: number;
    readonly deliveryClass: DeliveryClass;
    /**
     * issue 38: the session already holds this wake's input (a usage pause took it back and the
     * limit has reset): write a continuation, never the task again.
     */
    readonly resumed?: boolean;
  }>;
}

export interface WakeEffectsPorts {
  readonly journal: WakeJournal;
  readonly metrics: WakeMetrics;
  readonly log?: DaemonLog;
  readonly status: WakeStatusPublisher;
  readonly recovery: RecoveryJournal;
}

const NO_FRONTIERS: readonly RecoveryFrontier[] = Object.freeze([]);

export class WakeEffects {
  // issue 19: not an RxJS Subject: its `next` allocates per call (event-stream.ts).
  readonly #deliveries = new EventStream<WakeDelivery>();
  /** Rows the runtime adapter must write into the runtime now; it answers with `onDelivered`. */
  readonly deliveries$: Observable<WakeDelivery> = this.#deliveries.observable;

  constructor(private readonly o: WakeEffectsPorts) {}

  /**
   * Applies the table's effects: each terminal to the journal, then to the metrics and the bus;
   * admitted rows go out as one delivery. With recovery `frontiers` (issue 24, contract §6.6) the
   * terminals and the recovery markers are written in ONE transaction before anything is
   * announced; if that write fails, the recovery is not lost silently: the wakes it would have
   * continued end `failed` with the session's failure reason, `recoveryLost$` tells the alerts, and
   * no frontier is returned (recovery-journal.ts). Returns the frontiers saved.
   */
  apply(
    slot: AgentSlot,
    effects: readonly TableEffect[],
    frontiers: readonly RecoveryFrontier[] = NO_FRONTIERS,
    cause?: RecoveryCause,
  ): readonly RecoveryFrontier[] {
    const { journal, status } = this.o;
    // Two phases only when a recovery must commit with its terminals; the hot path writes and
    // announces each terminal at once (issue 19: no per-batch arrays).
    const ends =
      frontiers.length > 0 && cause !== undefined
        ? this.o.recovery.persist(
            slot.profile.agentId,
            effects.flatMap((e) => (e.kind === 'terminal' ? [endOf(e.row, e.outcome)] : [])),
            frontiers,
            cause,
          )
        : null;
    let admitted: PendingDelivery[] | null = null;
    // issue 19: one clock read per batch of effects (the events of one transition share its time);
    // read lazily, so a batch that publishes nothing reads no clock.
    let at: string | undefined;
    let k = 0;
    for (const effect of effects) {
      const row = effect.row;
      switch (effect.kind) {
        case 'admitted':
          (admitted ??= []).push(row);
          break;
        case 'paused':
          this.#paused(slot, row, (at ??= status.at()));
          break;
        case 'unpaused':
          journal.appendWakeEvent({ wakeToken: row.wakeToken, kind: 'status', status: 'queued' });
          status.publish(slot.profile, row, 'queued', (at ??= status.at()));
          break;
        case 'final_check_sent':
          journal.appendWakeEvent({ wakeToken: row.wakeToken, kind: 'final_check', status: 'final_check_sent' });
          status.publish(slot.profile, row, 'final_check_sent', (at ??= status.at()));
          break;
        case 'terminal': {
          let end: Ended | null;
          if (ends === null) {
            end = endOf(row, effect.outcome);
            if (!writeEnd(journal, end)) end = null;
          } else end = ends.ended[k++] ?? null;
          if (end === null) {
            this.o.log?.warn('wake: journal refused a second terminal status', {
              wakeToken: row.wakeToken,
              status: effect.outcome.status,
            });
            break;
          }
          this.#ended(slot, end, (at ??= status.at()));
          break;
        }
      }
    }
    if (admitted !== null) {
      // Group by generation: re-offered rows after a replacement share the new one.
      const generation = admitted[0]?.generation ?? slot.table.generation;
      // The rows themselves, not a copy of each (issue 19): the fields a delivery carries are
      // readonly on a row, so a consumer reading them later (after `await`) sees the same values.
      this.#deliveries.next({ agentId: slot.profile.agentId, generation, wakes: admitted });
    }
    return ends === null ? frontiers : ends.saved;
  }

  /**
   * A routed wake: recorded `queued` in the journal — unless the caller already stored it (with its
   * message, or a recovery wake with its marker: issue 16) — counted, and published `queued`.
   * contract §10.1: it records who the agent is now (technical and display name, model).
   */
  received(slot: AgentSlot, wake: WakeAdmission, recorded: boolean): void {
    const p = slot.profile;
    if (!recorded)
      this.o.journal.insertWake({
        wakeToken: wake.wakeToken,
        messageId: wake.messageId,
        agentId: p.agentId,
        runtime: p.runtime,
        target: wake.target as TargetKey,
        targetSeq: wake.targetSeq,
        deliveryClass: wake.deliveryClass,
        agentName: p.publicName,
        agentDisplayName: p.displayName,
        model: p.model,
      });
    this.o.metrics.received(p.runtime);
    this.o.status.publish(p, wake, 'queued', this.o.status.at());
  }

  /** The runtime adapter wrote these rows (the table just marked them runtime-visible): `delivered`. */
  delivered(slot: AgentSlot, wakeTokens: readonly string[]): void {
    const { journal, status } = this.o;
    let at: string | undefined;
    for (const token of wakeTokens) {
      const row = slot.table.row(token) as PendingDelivery;
      journal.appendWakeEvent({ wakeToken: token, kind: 'status', status: 'delivered' });
      status.publish(slot.profile, row, 'delivered', (at ??= status.at()));
    }
  }

  /** Completes the status and delivery streams. */
  complete(): void {
    this.o.status.complete();
    this.#deliveries.complete();
  }

  /** A written terminal: counted, published (its event releases the retry ownership: §9.4). */
  #ended(slot: AgentSlot, end: Ended, at: string): void {
    const { row, status, reason, detail } = end;
    const { metrics } = this.o;
    const { runtime } = slot.profile;
    if (status === 'reply_sent') metrics.replySent(runtime);
    else if (status === 'failed') metrics.failed(runtime);
    else metrics.completedWithoutVisibleReply(runtime, reason as string);
    const localText = row.localTextBytes > 0 ? { bytes: row.localTextBytes, runes: row.localTextRunes } : null;
    this.o.status.publish(slot.profile, row, status, at, reason, detail, localText);
  }

  /** issue 27: records and publishes a wake the table shows `paused`, with the table's pause. */
  #paused(slot: AgentSlot, row: PendingDelivery, at: string): void {
    const pause = slot.table.pauseState();
    if (pause === null) return;
    const detail = pauseDetail(pause);
    this.o.journal.appendWakeEvent({
      wakeToken: row.wakeToken,
      kind: 'status',
      status: 'paused',
      reason: pause.kind,
      detail,
    });
    this.o.status.publish(slot.profile, row, 'paused', at, pause.kind, detail);
  }
}

function pauseDetail(p: TablePause): string {
  const until = p.resetsAt === null ? 'until further notice' : `until ${new Date(p.resetsAt).toISOString()}`;
  return boundedDetail(`${p.kind} ${until}${p.detail === null ? '' : `; ${p.detail}`}`);
}
