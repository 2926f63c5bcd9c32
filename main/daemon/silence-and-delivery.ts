/**
 * Builds the watchdog spec's two companion subsystems on one hook bus (parts A and B): the
 * silence watchdog, the delivery tracker and the beacon router. The daemon's composition root
 * calls this once; `stop()` disposes in reverse order.
 */
import type { SchedulerLike } from 'rxjs';
import type { ChannelSettings } from '../../shared/config.js';
import type { HookBus } from './bus/hook-bus.js';
import type { Channel } from './delivery/channel.js';
import type { UndeliveredPort } from './delivery/delivery-ports.js';
import { DeliveryTracker } from './delivery/delivery-tracker.js';
import { BeaconRouter } from './watchdog/beacon-router.js';
import { SilenceWatchdog } from './watchdog/silence-watchdog.js';

export interface SilenceAndDeliveryOptions {
  readonly bus: HookBus;
  /** Effective settings of a channel, e.g. `(c) => channelSettings(config, c)`. */
  readonly settingsFor: (channel: string) => ChannelSettings;
  /** The channel delivering to a target (the local channel for every local conversation). */
  readonly channelFor: (target: string) => Channel;
  /** The channel registered under a config name, if any. */
  readonly channelNamed: (channel: string) => Channel | undefined;
  readonly undelivered: UndeliveredPort;
  readonly scheduler?: SchedulerLike;
  readonly ackTimeoutMs?: number;
}

export interface SilenceAndDelivery {
  readonly watchdog: SilenceWatchdog;
  readonly tracker: DeliveryTracker;
  readonly beacons: BeaconRouter;
  stop(): void;
}

export function createSilenceAndDelivery(options: SilenceAndDeliveryOptions): SilenceAndDelivery {
  const scheduler = options.scheduler;
  const watchdog = new SilenceWatchdog({
    bus: options.bus,
    settingsFor: (c) => options.settingsFor(c).silenceWatchdog,
    ...(scheduler ? { scheduler } : {}),
  });
  const tracker = new DeliveryTracker({
    bus: options.bus,
    channelFor: options.channelFor,
    settingsFor: (c) => options.settingsFor(c).responseDelivery,
    undelivered: options.undelivered,
    ...(scheduler ? { scheduler } : {}),
    ...(options.ackTimeoutMs !== undefined ? { ackTimeoutMs: options.ackTimeoutMs } : {}),
  });
  const beacons = new BeaconRouter({
    beacon$: watchdog.beacon$,
    channelNamed: options.channelNamed,
    send: (r) => tracker.send(r),
  });
  let stopped = false;
  return {
    watchdog,
    tracker,
    beacons,
    stop() {
      if (stopped) return;
      stopped = true;
      beacons.stop();
      watchdog.stop();
      tracker.stop();
    },
  };
}
