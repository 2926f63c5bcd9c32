/**
 * The wake lifecycle's journal of terminals and recoveries (contract §6.2, §6.6): how a terminal is
 * recorded (one per wake, ever), what a daemon restart reads back from the store (the wakes in
 * flight, the durable queue), and how a recovery's terminals and markers are saved together — or,
 * when that save fails, how its wakes end `failed` instead (issue 24 "fail closed").
 */
import type { TargetKey } from '../../../shared/target.js';
import type { DaemonLog } from '../daemon-log.js';
import { boundedDetail } from '../diagnostics.js';
import type { PendingDeliveryTable } from './pending-delivery-table.js';
import {
  failureReasonOf,
  type PendingDelivery,
  type RecoveryCause,
  type RecoveryFrontier,
  type TableEffect,
  type TablePause,
  type TerminalOutcome,
  type WakeAdmission,
} from './pending-delivery.js';
import type { JournalQueuedWake, WakeJournal, WakeJournalEvent } from './wake-ports.js';

/** A wake's terminal as the journal records it: the table's outcome, with the refusal it names (issue 15). */
export interface Ended {
  readonly row: PendingDelivery;
  readonly status: TerminalOutcome['status'];
  readonly reason: string | null;
  readonly detail: string | null;
}

/** issue 24 (contract §6.6 "fail closed"): a recovery whose markers could not be saved, and the wakes it failed. */
export interface RecoveryLost {
  readonly agentId: string;
  readonly cause: RecoveryCause;
  /** The original wakes that now end `failed` instead of being continued. */
  readonly wakeTokens: readonly string[];
  /** Why the save failed (bounded). */
  readonly detail: string;
}

/** Canonical TargetKey of a stored target text, or null (unparseable: "reply unavailable"). */
type Canonical = (target: string) => TargetKey | null;

/** What a restart restores one agent with: its fresh table, and how the lifecycle applies the table's effects. */
export interface AgentRestore {
  readonly agentId: string;
  readonly table: PendingDeliveryTable;
  /** The lifecycle's effect applier (wake-effects.ts); with frontiers, a recovery saved with its terminals. */
  readonly apply: (
    effects: readonly TableEffect[],
    frontiers?: readonly RecoveryFrontier[],
    cause?: RecoveryCause,
  ) => readonly RecoveryFrontier[];
  readonly canonical: Canonical;
  /** Launches the recovery wakes of the saved frontiers (the daemon enqueues them). */
  readonly recover?: (frontiers: readonly RecoveryFrontier[]) => void;
  /** issue 27: the agent's stored pause, if any. */
  readonly pause?: TablePause | null;
}

const NO_FRONTIERS: readonly RecoveryFrontier[] = Object.freeze([]);

/**
 * The terminal of a row as the journal records it. issue 15: a wake that ends without a reply
 * after our own refusal of the agent's `message_send` (charged on its row) names that refusal.
 */
export function endOf(row: PendingDelivery, outcome: TerminalOutcome): Ended {
  const { status, reason } = outcome;
  const refusal = row.refusal;
  const detail =
    refusal !== null && status !== 'reply_sent'
      ? boundedDetail(`message_send refused: ${refusal}${outcome.detail ? `; ${outcome.detail}` : ''}`)
      : outcome.detail;
  return { row, status, reason, detail };
}

/** The journal is the durable half of "one terminal per wake, ever" (§6.2): false when it refused. */
export function writeEnd(journal: WakeJournal, end: Ended): boolean {
  // Keys absent when there is none (the port's shape); built without spread copies (issue 19).
  const event: { -readonly [K in keyof WakeJournalEvent]: WakeJournalEvent[K] } = {
    wakeToken: end.row.wakeToken,
    kind: 'status',
    status: end.status,
  };
  if (end.reason !== null) event.reason = end.reason;
  if (end.detail !== null) event.detail = end.detail;
  return journal.appendWakeEvent(event);
}

export class RecoveryJournal {
  constructor(
    private readonly journal: WakeJournal,
    private readonly log: DaemonLog | undefined,
    /** issue 24: a recovery could not be saved, so its wakes ended `failed` (the lifecycle's `recoveryLost$`). */
    private readonly lost: { next(lost: RecoveryLost): void },
  ) {}

  /**
   * After a daemon restart (§8.3: the send scope and the rows of the old process are not
   * restored): the wakes the journal holds in flight (`delivered` / `final_check_sent`) end by the
   * recovery rule (recovery-rule.ts, contract §6.6) with what the journal knows of each — the
   * recoveries that already covered it, the agent's stored RepliedUpToSeq on its target — and
   * their terminals and recovery markers are saved in one transaction (issue 24); then `recover`
   * launches the saved frontiers BEFORE the wakes still waiting re-enter the FIFO in their stored
   * order (§9.1: never dropped, never reordered; the recovered inputs were older).
   */
  restore(r: AgentRestore): {
    readonly requeued: number;
    readonly ended: number;
    readonly recovery: readonly RecoveryFrontier[];
  } {
    const { agentId, table, apply, canonical, pause } = r;
    const journal = this.journal;
    const repliedUpToSeq = (key: TargetKey | null) =>
      key === null ? 0 : (journal.agentCursor?.(agentId, key).repliedUpToSeq ?? 0);
    const inFlight = [
      ...journal.listWakes({ agentId, status: 'delivered' }),
      ...journal.listWakes({ agentId, status: 'final_check_sent' }),
    ].map((w) => {
      const targetKey = canonical(w.target);
      return { ...admissionOf(w, targetKey), recoveries: w.recoveries, repliedUpToSeq: repliedUpToSeq(targetKey) };
    });
    const restored = table.restoreInFlight(inFlight);
    const recovery = apply(restored.effects, restored.recovery, 'daemon_restarted');
    // Always: pending markers of an earlier run are launched here too, before the queued wakes.
    r.recover?.(recovery);
    // issue 27: the wakes a pause held (always the oldest: every row of the table paused) re-enter
    // first and stay held with the stored pause until the recovery service's timer releases them.
    const waiting = (status: 'paused' | 'queued') =>
      journal.listWakes({ agentId, status }).map((w) => admissionOf(w, canonical(w.target)));
    const paused = waiting('paused');
    // A recovery wake just launched waits too (a paused agent's wakes never reach its runtime).
    if (paused.length > 0 || pause)
      apply(
        table.pause(null, {
          kind: pause?.kind ?? 'usage_limit',
          resetsAt: pause?.resetsAt ?? null,
          detail: pause?.detail ?? null,
        }),
      );
    const queued = [...paused, ...waiting('queued')];
    const { effects: admitted, requeued } = table.requeue(queued, new Set(paused.map((w) => w.wakeToken)));
    apply(admitted);
    return { requeued, ended: restored.effects.length, recovery };
  }

  /**
   * issue 24: the terminals of a recovery's transition and its markers, in one transaction. On
   * failure (fail closed, §6.6) the covered wakes end `failed` instead, written one by one; a
   * store that refuses even those is logged, never thrown at the caller (a runtime event's
   * subscriber). Returns, in order, what was written for each terminal (null: nothing), and the
   * frontiers saved.
   */
  persist(
    agentId: string,
    ends: readonly Ended[],
    frontiers: readonly RecoveryFrontier[],
    cause: RecoveryCause,
  ): { readonly ended: ReadonlyArray<Ended | null>; readonly saved: readonly RecoveryFrontier[] } {
    const { journal, log } = this;
    const markers = frontiers.map((f) => ({
      target: f.target,
      frontierSeq: f.targetSeq,
      wakeTokens: f.wakeTokens ?? [f.wakeToken],
    }));
    try {
      const written = journal.transaction(() => {
        const w = ends.map((end) => (writeEnd(journal, end) ? end : null));
        journal.saveRecoveryBatch(agentId, markers, cause);
        return w;
      });
      return { ended: written, saved: frontiers };
    } catch (err) {
      const why = boundedDetail(err instanceof Error ? err.message : String(err));
      const covered = new Set(markers.flatMap((m) => m.wakeTokens));
      log?.error('wake: the recovery could not be saved; its wakes end failed', { agentId, cause, error: why });
      const failed = ends.map((end): Ended | null => {
        const closed: Ended = covered.has(end.row.wakeToken)
          ? {
              row: end.row,
              status: 'failed',
              reason: end.status === 'failed' ? end.reason : failureReasonOf(cause),
              detail: boundedDetail(
                `the recovery continuation could not be saved (${why})${end.detail === null ? '' : `; ${end.detail}`}`,
              ),
            }
          : end;
        try {
          return writeEnd(journal, closed) ? closed : null;
        } catch (writeErr) {
          log?.error('wake: the journal refused a failed terminal', {
            wakeToken: end.row.wakeToken,
            error: writeErr instanceof Error ? writeErr.message : String(writeErr),
          });
          return null;
        }
      });
      // An event (issue 39): its subscriber (the alerts) is told after the terminals are written, and
      // an error of that subscriber never reaches this caller (event-stream.ts reports it apart).
      this.lost.next({ agentId, cause, wakeTokens: [...covered], detail: why });
      return { ended: failed, saved: NO_FRONTIERS };
    }
  }
}

/** A stored wake as the table takes it (the journal keeps no sendable targets: §8.3, not restored). */
function admissionOf(w: JournalQueuedWake, targetKey: TargetKey | null): WakeAdmission {
  return {
    wakeToken: w.wakeToken,
    messageId: w.messageId,
    target: w.target,
    targetKey,
    targetSeq: w.targetSeq,
    deliveryClass: w.deliveryClass,
    ...(w.finalCheck === true ? { finalCheckSent: true } : {}),
  };
}
