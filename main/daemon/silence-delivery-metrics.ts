/**
 * Beacon and delivery counters (DESIGN.md "Metrics": "plus beacon/delivery counters") on the
 * daemon's Prometheus registry. Labels are bounded: channel config names, states and kinds;
 * never an agent id (contract §10.1).
 */
import { Counter, type Registry } from 'prom-client';
import { Subscription, type Observable } from 'rxjs';
import type { HookBus } from './bus/hook-bus.js';
import { DELIVERY_ALERT_KINDS, type DeliveryAlert } from './delivery/delivery-tracker.js';
import type { Beacon } from './watchdog/silence-beacons.js';

export interface SilenceDeliveryMetricSources {
  readonly bus: HookBus;
  readonly beacon$: Observable<Beacon>;
  readonly alert$: Observable<DeliveryAlert>;
}

/** Registers the counters and feeds them; unsubscribe the result to stop feeding. */
export function bindSilenceDeliveryMetrics(registry: Registry, sources: SilenceDeliveryMetricSources): Subscription {
  const registers = [registry];
  const beacons = new Counter({
    name: 'agentteam_watchdog_beacons_total',
    help: 'Silence watchdog beacons emitted',
    labelNames: ['channel'] as const,
    registers,
  });
  const escalations = new Counter({
    name: 'agentteam_watchdog_escalations_total',
    help: 'Silence watchdog escalations emitted (at most one per turn)',
    labelNames: ['channel'] as const,
    registers,
  });
  const results = new Counter({
    name: 'agentteam_delivery_results_total',
    help: 'Final delivery states of response chunks',
    labelNames: ['channel', 'state', 'purpose'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'agentteam_delivery_retries_total',
    help: 'Resends of response chunks (same response_id)',
    labelNames: ['channel'] as const,
    registers,
  });
  const redelivered = new Counter({
    name: 'agentteam_delivery_redelivered_total',
    help: 'Preserved responses re-delivered on the next inbound message',
    labelNames: ['channel', 'state'] as const,
    registers,
  });
  const alerts = new Counter({
    name: 'agentteam_delivery_alerts_total',
    help: 'Delivery and no-response alerts raised',
    labelNames: ['kind'] as const,
    registers,
  });

  // issue 41: each alert kind has a series at 0 from the start (an alert rule's increase() sees the first one).
  for (const kind of DELIVERY_ALERT_KINDS) alerts.inc({ kind }, 0);

  const subscription = new Subscription();
  subscription.add(
    sources.beacon$.subscribe((b) => (b.kind === 'beacon' ? beacons : escalations).inc({ channel: b.channel })),
  );
  subscription.add(
    sources.bus.deliveryResult$.subscribe((r) => {
      results.inc({ channel: r.channel, state: r.state, purpose: r.purpose });
      if (r.attempts > 1) retries.inc({ channel: r.channel }, r.attempts - 1);
      if (r.redelivered) redelivered.inc({ channel: r.channel, state: r.state });
    }),
  );
  subscription.add(sources.alert$.subscribe((a) => alerts.inc({ kind: a.kind })));
  return subscription;
}
