import { Registry } from 'prom-client';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HookBus } from '../../../../main/daemon/bus/hook-bus.js';
import type { DeliveryAlert } from '../../../../main/daemon/delivery/delivery-tracker.js';
import { bindSilenceDeliveryMetrics } from '../../../../main/daemon/silence-delivery-metrics.js';
import type { Beacon } from '../../../../main/daemon/watchdog/silence-beacons.js';

describe('bindSilenceDeliveryMetrics', () => {
  it('counts beacons, escalations, final states, retries, re-deliveries and alerts, never by agent id', async () => {
    const registry = new Registry();
    const bus = new HookBus();
    const beacon$ = new Subject<Beacon>();
    const alert$ = new Subject<DeliveryAlert>();
    const sub = bindSilenceDeliveryMetrics(registry, { bus, beacon$, alert$ });
    const beacon: Beacon = {
      turnId: 't',
      agentId: 'claude',
      channel: 'local',
      target: null,
      wakeTokens: [],
      kind: 'beacon',
      index: 1,
      elapsedMs: 45_000,
      silentMs: 45_000,
      message: 'x',
    };
    beacon$.next(beacon);
    beacon$.next({ ...beacon, index: 2 });
    beacon$.next({ ...beacon, kind: 'escalation', index: 6 });
    const result = {
      turnId: 't',
      responseId: 'r',
      chunkIndex: 0,
      chunkCount: 1,
      agentId: 'claude',
      target: '#general',
      channel: 'local',
      messageId: 'm',
      seq: 1,
      ack: 'sent',
      failure: null,
      redelivered: false,
      purpose: 'reply',
    } as const;
    bus.emit('delivery.result', { ...result, state: 'delivered', attempts: 2 });
    bus.emit('delivery.result', { ...result, state: 'delivered', attempts: 1, redelivered: true });
    alert$.next({
      id: 'a',
      kind: 'delivery_failed',
      turnId: 't',
      agentId: 'claude',
      channel: 'local',
      target: '#general',
      wakeToken: null,
      responseId: 'r',
      message: 'x',
      at: '',
    });
    const text = await registry.metrics();
    expect(text).toContain('agentteam_watchdog_beacons_total{channel="local"} 2');
    expect(text).toContain('agentteam_watchdog_escalations_total{channel="local"} 1');
    expect(text).toContain('agentteam_delivery_results_total{channel="local",state="delivered",purpose="reply"} 2');
    expect(text).toContain('agentteam_delivery_retries_total{channel="local"} 1');
    expect(text).toContain('agentteam_delivery_redelivered_total{channel="local",state="delivered"} 1');
    expect(text).toContain('agentteam_delivery_alerts_total{kind="delivery_failed"} 1');
    // issue 41: the other known kinds are there at 0 before their first alert.
    expect(text).toContain('agentteam_delivery_alerts_total{kind="no_response"} 0');
    expect(text).toContain('agentteam_delivery_alerts_total{kind="delivery_uncertain"} 0');
    expect(text).not.toContain('claude');
    sub.unsubscribe();
  });
});
