/**
 * The beacon router between the two subsystems on one bus (watchdog spec A + B), wired as the
 * daemon wires them, with the local conversation channel on a fake store: a confirmed reply
 * resets the watchdog; beacons are status updates, never stored messages; on an external channel
 * they are posted through delivery confirmation and still never count.
 */
import { describe, expect, it } from 'vitest';
import { ChannelSettingsSchema } from '../../../../../shared/config.js';
import { HookBus } from '../../../../../main/daemon/bus/hook-bus.js';
import type { DeliveryResultEvent } from '../../../../../main/daemon/bus/hook-events.js';
import { LocalChannel } from '../../../../../main/daemon/delivery/local-channel.js';
import { DeliveryTracker } from '../../../../../main/daemon/delivery/delivery-tracker.js';
import { BeaconRouter, formatElapsed, type BeaconStatus } from '../../../../../main/daemon/watchdog/beacon-router.js';
import { silenceWatchdog } from '../../../../../main/daemon/watchdog/silence-watchdog.js';
import { FaultChannel } from '../../../../fixtures/fault-channel.js';
import { MemoryStore } from '../../../../fixtures/memory-store.js';
import { StepScheduler, drive } from '../../../../fixtures/virtual-time.js';

function setup(external?: FaultChannel) {
  const scheduler = new StepScheduler();
  const bus = new HookBus();
  const store = new MemoryStore();
  const local = new LocalChannel(store);
  const settings = ChannelSettingsSchema.parse({ silenceWatchdog: { maxBeacons: 2 } });
  const tracker = new DeliveryTracker({
    bus,
    channelFor: (target) => (external !== undefined && target.startsWith('#tg') ? external : local),
    settingsFor: () => settings.responseDelivery,
    undelivered: store,
    scheduler,
  });
  const beacons = new BeaconRouter({
    beacon$: silenceWatchdog({ bus, settingsFor: () => settings.silenceWatchdog, scheduler }),
    channelNamed: (name) => (name === 'local' ? local : name === external?.name ? external : undefined),
    send: (r) => tracker.send(r),
  });
  const services = { tracker, beacons };
  const statuses: Array<BeaconStatus & { at: number }> = [];
  services.beacons.status$.subscribe((s) => statuses.push({ ...s, at: scheduler.now() }));
  const results: DeliveryResultEvent[] = [];
  bus.deliveryResult$.subscribe((r) => results.push(r));
  return { scheduler, bus, store, services, statuses, results };
}

describe('BeaconRouter: silence watchdog + delivery confirmation on one bus', () => {
  it('a confirmed message_send reply resets the watchdog; beacons are status updates, never stored messages', async () => {
    const t = setup();
    t.bus.emit('turn.start', {
      turnId: 't1',
      agentId: 'claude',
      channel: 'local',
      wakeTokens: ['w1'],
      target: '#general',
    });
    let reply: Promise<unknown> = Promise.resolve();
    t.scheduler.schedule(() => {
      reply = t.services.tracker.send({ turnId: 't1', agentId: 'claude', target: '#general', content: 'looking now' });
    }, 30_000);
    // run virtual time to 200 s
    t.scheduler.schedule(() => t.bus.emit('turn.end', { turnId: 't1' }), 200_000);
    await drive(t.scheduler, new Promise<void>((resolve) => t.bus.turnEnd$.subscribe(() => resolve())));
    await reply;
    expect(t.statuses.map((s) => [s.kind, s.at, s.text])).toEqual([
      ['beacon', 75_000, '🧠 Working… 1m 15s'],
      ['beacon', 120_000, '🧠 Working… 2m'],
      ['escalation', 165_000, '⚠️ Extended processing — still working. Response may be delayed.'],
    ]);
    expect(t.statuses[0]!.wakeTokens).toEqual(['w1']);
    // Only the agent's reply is a message; beacons never are.
    expect(t.store.messages.map((m) => m.content)).toEqual(['looking now']);
  });

  it('on a channel that posts beacons as messages, each beacon goes through delivery confirmation once and never resets the watchdog', async () => {
    const telegram = new FaultChannel({ name: 'telegram', beaconSurface: 'message' });
    const t = setup(telegram);
    t.bus.emit('turn.start', {
      turnId: 't1',
      agentId: 'claude',
      channel: 'telegram',
      wakeTokens: ['w1'],
      target: '#tg',
    });
    t.scheduler.schedule(() => t.bus.emit('turn.end', { turnId: 't1' }), 200_000);
    await drive(t.scheduler, new Promise<void>((resolve) => t.bus.turnEnd$.subscribe(() => resolve())));
    expect(telegram.visible.map((m) => m.content)).toEqual([
      '🧠 Working… 45s',
      '🧠 Working… 1m 30s',
      '⚠️ Extended processing — still working. Response may be delayed.',
    ]);
    // 45 s apart, unaffected by their own delivery
    expect(t.statuses.map((s) => s.at)).toEqual([45_000, 90_000, 135_000]);
    expect(t.results.every((r) => r.purpose === 'beacon')).toBe(true);
  });

  it('formats elapsed time for the chip', () => {
    expect([0, 45_000, 60_000, 90_000, 3_600_000, 3_900_000].map(formatElapsed)).toEqual([
      '0s',
      '45s',
      '1m',
      '1m 30s',
      '1h',
      '1h 5m',
    ]);
  });
});
