/**
 * The `wake_status` publisher (contract §10.1): builds the event of one wake from its row and the
 * agent's profile, logs it, and emits it on the lifecycle's status stream — after the journal
 * recorded the transition (the lifecycle writes first, then publishes). One row object in, not its
 * fields one by one: a queued wake publishes the admission it hands the table, so no copy is made
 * per event (issue 19).
 */
import type { Observable } from 'rxjs';
import type { AcpPreset, AgentConfig, PromptLanguage } from '../../../shared/config.js';
import { isTerminal, type RuntimeKind, type WakeStatus } from '../../../shared/wake-status.js';
import type { DaemonLog } from '../daemon-log.js';
import { EventStream } from './event-stream.js';
import type { PendingDelivery } from './pending-delivery.js';
import type { WakeStatusEvent } from './wake-status-event.js';

export interface AgentProfile {
  readonly agentId: string;
  /** Public technical name (mentions, `dm:@name`). */
  readonly publicName: string;
  readonly displayName: string;
  readonly runtime: RuntimeKind;
  readonly model: string | null;
  /** Language of the agent's prompts (the final-check is rendered in it); default `en`. */
  readonly language?: PromptLanguage;
  /** issue 28: an ACP agent's preset (its tool names in the final-check). */
  readonly preset?: AcpPreset;
  /** The agent's send surface (`mcp` tool or `agentteam` CLI), named by its final-check; default `mcp`. */
  readonly agentTools?: AgentConfig['agentTools'];
}

/** What a status event says of its wake: a table row, or the admission of a wake that has none yet. */
export type PublishedWake = Pick<PendingDelivery, 'wakeToken' | 'messageId' | 'target' | 'targetSeq' | 'deliveryClass'>;

export class WakeStatusPublisher {
  // issue 19: not an RxJS Subject: its `next` allocates per call (event-stream.ts).
  readonly #stream = new EventStream<WakeStatusEvent>();
  readonly #now: () => number;
  readonly #log: DaemonLog | undefined;
  /** ISO text of the last timestamp: events in the same millisecond share it (hot path). */
  #lastMs = Number.NaN;
  #lastIso = '';

  readonly events$: Observable<WakeStatusEvent> = this.#stream.observable;

  constructor(now: () => number, log?: DaemonLog) {
    this.#now = now;
    this.#log = log;
  }

  /**
   * The time of a transition as events carry it. issue 19: callers read it once per batch of
   * effects (the events of one transition share it), and lazily, so a batch that publishes nothing
   * reads no clock.
   */
  at(): string {
    const ms = this.#now();
    if (ms !== this.#lastMs) {
      this.#lastMs = ms;
      this.#lastIso = new Date(ms).toISOString();
    }
    return this.#lastIso;
  }

  publish(
    p: AgentProfile,
    wake: PublishedWake,
    status: WakeStatus,
    at: string,
    reason: string | null = null,
    detail: string | null = null,
    localText: WakeStatusEvent['localText'] = null,
  ): void {
    const { wakeToken, target } = wake;
    const event: WakeStatusEvent = {
      type: 'wake_status',
      wakeToken,
      messageId: wake.messageId,
      agentId: p.agentId,
      agentName: p.publicName,
      agentDisplayName: p.displayName,
      runtime: p.runtime,
      model: p.model,
      target,
      targetSeq: wake.targetSeq,
      deliveryClass: wake.deliveryClass,
      status,
      reason,
      detail,
      localText,
      at,
    };
    // issue 19: the line is written synchronously to stderr; at info on every transition it cost
    // 13 % of the daemon's CPU under 20 busy agents. Operators need the outcome (terminal
    // statuses, §6.2) at info; queued/delivered/final_check_sent are in the journal and at debug.
    // contract §10.1: the terminal line carries who (id, technical and display name), runtime,
    // model and target; the agent id is a log field, never a metric label (wake-metrics.ts).
    if (isTerminal(status))
      this.#log?.info('wake status', {
        wakeToken,
        agentId: p.agentId,
        agentName: p.publicName,
        agentDisplayName: p.displayName,
        runtime: p.runtime,
        model: p.model,
        target,
        status,
        reason,
      });
    // issue 30: every non-terminal transition passes here; with debug off it allocates no fields.
    else if (this.#log?.debugEnabled === true)
      this.#log.debug('wake status', { wakeToken, agentId: p.agentId, status, reason });
    this.#stream.next(event);
  }

  /** Completes the stream. */
  complete(): void {
    this.#stream.complete();
  }
}
