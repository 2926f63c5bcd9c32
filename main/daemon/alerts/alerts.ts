/**
 * The status surface's alerts (UI.md): the one place an `Alert` is built and raised. Delivery
 * alerts (watchdog spec B) keep the tracker's id and go on their wake's timeline first; the
 * escalation beacon (spec A) and a runtime that stays down get an `al_` id of their own.
 */
import { randomUUID } from 'node:crypto';
import type { Alert } from '../../../shared/api/contract.js';
import type { DeliveryAlert } from '../delivery/delivery-tracker.js';
import type { BeaconStatus } from '../watchdog/beacon-router.js';
import type { WakeTimeline } from '../wake/wake-timeline.js';

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
    at,
  };
}

export interface AlertsOptions {
  readonly timeline: Pick<WakeTimeline, 'alert'>;
  /** Shows the alert (the API's `alert.raised`). */
  readonly raised: (alert: Alert) => void;
}

export class Alerts {
  constructor(private readonly o: AlertsOptions) {}

  /** A delivery tracker alert (failed, uncertain, no response): on its wake's timeline, then raised. */
  delivery(a: DeliveryAlert): void {
    const alert = newAlert(a, a.id, a.at);
    this.o.timeline.alert(alert);
    this.o.raised(alert);
  }

  /** watchdog spec A: an escalation beacon is raised; `marked` are the wakes whose timeline already shows it. */
  beacon(b: BeaconStatus, marked: readonly string[]): void {
    if (b.kind !== 'escalation') return;
    const wakeToken = marked[0] ?? b.wakeTokens[0] ?? null;
    this.o.raised(newAlert({ kind: 'escalation', target: null, wakeToken, responseId: null, message: b.text }));
  }

  /** The runtime could not start, or gave up after the restart cap. */
  runtimeDown(agentName: string, detail: string): void {
    const message = `${agentName} stopped: ${detail}`;
    this.o.raised(newAlert({ kind: 'runtime_crashed', target: null, wakeToken: null, responseId: null, message }));
  }
}
