/**
 * The status surface's alerts (UI.md): the one place an `Alert` is built and raised. Delivery
 * alerts (watchdog spec B) keep the tracker's id and go on their wake's timeline first; the
 * escalation beacon (spec A) and a runtime that stays down get an `al_` id of their own.
 */
import { randomUUID } from 'node:crypto';
import type { Alert } from '../../../shared/api/contract.js';
import type { DaemonLog } from '../daemon-log.js';
import type { DeliveryAlert } from '../delivery/delivery-tracker.js';
import type { BeaconStatus } from '../watchdog/beacon-router.js';
import type { WakeTimeline } from '../wake/wake-timeline.js';
import { usageWarningWords, type UsageWarningFacts } from './usage-warning-words.js';

export type AlertFields = Omit<Alert, 'id' | 'at'>;

/** A new alert, stamped now. */
export function newAlert(fields: AlertFields, id = `al_${randomUUID()}`, at = new Date().toISOString()): Alert {
  return {
    id,
    kind: fields.kind,
    target: fields.target,
    wakeToken: fields.wakeToken,
    responseId: fields.responseId,
    message: fields.message,
    ...(fields.agentName === undefined ? {} : { agentName: fields.agentName }),
    ...(fields.channel === undefined ? {} : { channel: fields.channel }),
    at,
  };
}

export interface AlertsOptions {
  readonly timeline: Pick<WakeTimeline, 'alert'>;
  /** Shows the alert (the API's `alert.raised`). */
  readonly raised: (alert: Alert) => void;
  /** issue 24: an agent's display name, carried on the alerts about it. */
  readonly agentName?: (agentId: string) => string;
  /**
   * issue 24: every raised alert is also a log line; under `agentteam serve` (no OS notifications)
   * that line on the terminal and the status line in the browser are where it shows.
   */
  readonly log?: DaemonLog;
}

export class Alerts {
  constructor(private readonly o: AlertsOptions) {}

  /** A delivery tracker alert (failed, uncertain, no response): on its wake's timeline, then raised. */
  delivery(a: DeliveryAlert): void {
    const alert = newAlert({ ...a, ...this.#named(a.agentId) }, a.id, a.at);
    this.o.timeline.alert(alert);
    this.#raise(alert);
  }

  /** watchdog spec A: an escalation beacon is raised; `marked` are the wakes whose timeline already shows it. */
  beacon(b: BeaconStatus, marked: readonly string[]): void {
    if (b.kind !== 'escalation') return;
    const wakeToken = marked[0] ?? b.wakeTokens[0] ?? null;
    this.#raise(
      newAlert({
        kind: 'escalation',
        target: null,
        wakeToken,
        responseId: null,
        message: b.text,
        ...this.#named(b.agentId),
      }),
    );
  }

  /**
   * issue 24 (contract §6.6 "fail closed and publish runtime failure evidence"): a recovery could
   * not be saved, so the wakes it would have continued ended `failed`: one alert, on each wake's timeline.
   */
  recoveryLost(agentName: string, lost: { readonly wakeTokens: readonly string[]; readonly detail: string }): void {
    const message = `${agentName}'s interrupted work could not be continued (${lost.detail}); send the message again if it is still needed.`;
    for (const wakeToken of lost.wakeTokens) this.o.timeline.alert({ wakeToken, kind: 'runtime_crashed', message });
    this.o.raised(
      newAlert({
        kind: 'runtime_crashed',
        target: null,
        wakeToken: lost.wakeTokens[0] ?? null,
        responseId: null,
        message,
      }),
    );
  }

  /**
   * issue 27: an agent reached 80 % of a provider's limit window or of its daily budget (once each,
   * usage-service.ts): on the timeline of the wake it was working on, raised in that conversation.
   */
  usageWarning(raised: {
    readonly warning: UsageWarningFacts & { readonly agentId: string };
    readonly target: string | null;
    readonly wakeToken: string | null;
  }): Alert {
    const { warning, target, wakeToken } = raised;
    const named = this.#named(warning.agentId);
    const message = usageWarningWords(named.agentName ?? warning.agentId, warning, 'en');
    const alert = newAlert({ kind: 'usage_warning', target, wakeToken, responseId: null, message, ...named });
    this.o.timeline.alert(alert);
    this.#raise(alert);
    return alert;
  }

  /** The runtime could not start, or gave up after the restart cap. */
  runtimeDown(agentName: string, detail: string): void {
    const message = `${agentName} stopped: ${detail}`;
    this.#raise(newAlert({ kind: 'runtime_crashed', target: null, wakeToken: null, responseId: null, message }));
  }

  #named(agentId: string): { agentName?: string } {
    const name = this.o.agentName?.(agentId);
    return name === undefined ? {} : { agentName: name };
  }

  #raise(alert: Alert): void {
    this.o.log?.info('alert raised', {
      kind: alert.kind,
      target: alert.target,
      wakeToken: alert.wakeToken,
      agent: alert.agentName ?? null,
      message: alert.message,
    });
    this.o.raised(alert);
  }
}
