/**
 * issue 39 "back-edges become events": the delivery room's tracker hears the wake lifecycle's
 * terminal events itself (contract §9.4: a wake that ended is released from its turn's retries),
 * so the root passes no release port to the lifecycle. An alert of a turn names the first of its
 * wakes still open.
 */
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { DeliveryAlert, WakeStatusNews } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { wireDelivery } from '../../../../../main/daemon/watchdog/delivery-wiring.js';
import { ChannelSettingsSchema } from '../../../../../shared/config.js';
import { FaultChannel } from '../../../../fixtures/fault-channel.js';
import { MemoryStore } from '../../../../fixtures/memory-store.js';
import { StepScheduler, drive } from '../../../../fixtures/virtual-time.js';

describe('wireDelivery (issue 39)', () => {
  it("the tracker releases a wake at the lifecycle's terminal event, only from that agent's turn", async () => {
    const clock = new StepScheduler();
    const bus = new HookBus();
    const wakeStatus$ = new Subject<WakeStatusNews>();
    const settings = ChannelSettingsSchema.parse({});
    const delivery = wireDelivery({
      bus,
      store: new MemoryStore(),
      settingsFor: () => settings,
      clock,
      lifecycle: { wakeStatus$ },
    });
    const chat = new FaultChannel({ name: 'chat', faultFor: () => 'refused' });
    delivery.routes.add({ channel: chat, daemonBeacons: false });
    const alerts: DeliveryAlert[] = [];
    delivery.tracker.alert$.subscribe((a) => alerts.push(a));
    const send = (agentId: string, turnId: string) =>
      drive(clock, delivery.tracker.send({ turnId, agentId, target: '#general', content: 'x', channel: 'chat' }));

    bus.emit('turn.start', { turnId: 't1', agentId: 'claude', channel: 'chat', wakeTokens: ['w1', 'w2'] });
    bus.emit('turn.start', { turnId: 't2', agentId: 'codex', channel: 'chat', wakeTokens: ['w3', 'w4'] });
    wakeStatus$.next({ agentId: 'claude', wakeToken: 'w1', status: 'completed_without_visible_reply' });
    wakeStatus$.next({ agentId: 'claude', wakeToken: 'w3', status: 'failed' });
    await send('claude', 't1');
    await send('codex', 't2');
    expect(alerts.map((a) => [a.agentId, a.turnId, a.wakeToken])).toEqual([
      ['claude', 't1', 'w2'],
      ['codex', 't2', 'w3'],
    ]);
    delivery.stop();
  });
});
