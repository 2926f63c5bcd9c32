/**
 * Context recovery end to end (contract §6.6, issue 16). When a session's runtime-visible rows
 * were lost — the daemon restarted, the runtime process was replaced, or the runtime's context
 * overflowed (then the agent session starts a fresh session for the recovery, issue 24) — the
 * wake lifecycle ends those rows (`failed` with the session's failure; `context_overflow` after
 * an overflow, issue 24) and, in the same store transaction, persists their recovery frontiers as one
 * recovery batch (one deterministic marker per canonical target, the exact target and its highest
 * unresolved TargetSeq, the bounded original wake tokens, the cause): never "ended and not
 * recovered". It then hands the saved frontiers here. This service:
 *
 * 1. logs the batch;
 * 2. launches ONE marker at a time per agent: the marker becomes `replay_pending` and its
 *    synthetic recovery wake (deterministic token, the marker's synthetic message id, never a
 *    revived original token) is recorded `queued` in the same transaction, then enters the FIFO
 *    like any wake — its delivery is the compiled recovery prompt (stored-prompts.ts);
 * 3. settles the marker when that wake reaches its terminal status, then launches the next
 *    pending marker (the other targets wait in durable deferred delivery, §6.6).
 *
 * After a restart the same rules pick up where the store left off: a launched marker whose wake
 * already ended is settled; one whose wake is still queued is simply waited for. A store error
 * here is logged, never thrown out of the subscriber that called it: the marker stays durable
 * and the next launch (the next recovery wake's end, or the next start) picks it up.
 */
import type { Subscription } from 'rxjs';
import { isTerminal, type RuntimeKind } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { markerIdOfRecoveryMessage, recoveryWakeToken } from '../store/store-ids.js';
import type { Store } from '../store/index.js';
import type { RecoveryCause, RecoveryFrontier } from '../wake/pending-delivery.js';
import type { WakeLifecycle, WakePause } from '../wake/wake-lifecycle.js';

export interface RecoveryServiceOptions {
  readonly store: Store;
  readonly lifecycle: WakeLifecycle;
  readonly runtimeOf: (agentId: string) => RuntimeKind;
  readonly log?: DaemonLog;
}

export class RecoveryService {
  readonly #o: RecoveryServiceOptions;
  readonly #sub: Subscription;

  constructor(options: RecoveryServiceOptions) {
    this.#o = options;
    this.#sub = options.lifecycle.wakeStatus$.subscribe((e) => {
      if (!isTerminal(e.status)) return;
      const markerId = markerIdOfRecoveryMessage(e.messageId);
      if (markerId === null) return;
      this.#guarded(e.agentId, 'settle', () => {
        this.#o.store.settleRecoveryMarker(markerId);
        this.launchNext(e.agentId);
      });
    });
  }

  /**
   * A daemon restart (issue 16): the agent's in-flight wakes are ended by the recovery rule and
   * recovered (one recovery wake per target, launched before the still-queued wakes re-enter the
   * FIFO in their stored order).
   */
  restore(agentId: string, pause?: WakePause | null): void {
    // issue 27: a stored pause keeps its wakes paused (the usage-pause service re-arms its reset).
    const { ended, requeued, recovery } = this.#o.lifecycle.restore(
      agentId,
      (frontiers) => this.recover(agentId, frontiers, 'daemon_restarted'),
      pause,
    );
    if (ended > 0 || requeued > 0)
      this.#o.log?.info('wakes restored', { agentId, ended, requeued, recovered: recovery.length });
  }

  /**
   * A batch of frontiers the lifecycle saved (one marker per target, with the originals'
   * terminals): launches the next marker if none runs.
   */
  recover(agentId: string, frontiers: readonly RecoveryFrontier[], cause: RecoveryCause): void {
    if (frontiers.length > 0)
      this.#o.log?.info('recovery markers saved', { agentId, cause, targets: frontiers.map((f) => f.target) });
    this.#guarded(agentId, 'launch', () => this.launchNext(agentId));
  }

  /** A store error while settling or launching is logged; the durable marker waits for the next launch. */
  #guarded(agentId: string, step: 'settle' | 'launch', fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#o.log?.error('recovery: the store refused a step; the marker waits for the next launch', {
        agentId,
        step,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }

  /** Launches the oldest pending marker of an agent unless one of its recovery wakes is still open. */
  launchNext(agentId: string): void {
    const { store, lifecycle, log } = this.#o;
    for (const m of store.listRecoveryMarkers(agentId)) {
      if (m.state !== 'replay_pending') continue;
      const wake = store.getWake(recoveryWakeToken(m.id));
      if (wake !== undefined && !isTerminal(wake.status)) return;
      // Its wake ended (or was never recorded) before the marker was settled: settle it now.
      store.settleRecoveryMarker(m.id);
    }
    const launched = store.launchRecovery(agentId, (m) => ({
      agentId,
      runtime: this.#o.runtimeOf(agentId),
      ...lifecycle.wakeAgent(agentId),
      target: m.target,
      targetSeq: m.frontierSeq,
      deliveryClass: 'visible_reply',
    }));
    if (launched === undefined) return;
    const { marker, wake } = launched;
    log?.info('recovery launched', { agentId, marker: marker.id, wakeToken: wake.wakeToken, target: marker.target });
    lifecycle.enqueue(
      agentId,
      {
        wakeToken: wake.wakeToken,
        messageId: wake.messageId,
        target: wake.target,
        targetSeq: wake.targetSeq,
        deliveryClass: 'visible_reply',
      },
      { recorded: true },
    );
  }

  dispose(): void {
    this.#sub.unsubscribe();
  }
}
