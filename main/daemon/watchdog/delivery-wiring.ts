/**
 * issue 39: watchdog spec A + B on one bus, wired once — the silence watchdog's beacons, the
 * delivery tracker that confirms every outbound reply, the beacon router that posts beacons
 * through it, and the channels they reach (the local conversation channel first; a chat channel
 * adds its own route). The tracker hears the wake lifecycle's terminals itself (contract §9.4:
 * a wake that ended is released from its turn's retries; issue 39: an event, not a port back from
 * the lifecycle). The root calls `wireDelivery` once.
 */
import type { Observable, SchedulerLike } from 'rxjs';
import type { ChannelSettings } from '../../../shared/config.js';
import type { HookBus } from '../bus/hook-bus.js';
import { ChannelRoutes } from '../delivery/channel-routes.js';
import { DeliveryTracker, type WakeStatusNews } from '../delivery/delivery-tracker.js';
import { LocalChannel } from '../delivery/local-channel.js';
import type { MessageAppendPort, UndeliveredPort } from '../delivery/delivery-ports.js';
import { BeaconRouter } from './beacon-router.js';
import type { Beacon } from './silence-beacons.js';
import { silenceWatchdog } from './silence-watchdog.js';

export interface DeliveryWiringDeps {
  readonly bus: HookBus;
  readonly store: MessageAppendPort & UndeliveredPort;
  /** A channel's effective settings now (an edit applies from the next turn). */
  readonly settingsFor: (channel: string) => ChannelSettings;
  /** The daemon's one clock. */
  readonly clock: SchedulerLike;
  /** The wake lifecycle's status events (§10.1): a terminal releases that agent's wake (§9.4). */
  readonly lifecycle: { readonly wakeStatus$: Observable<WakeStatusNews> };
}

export interface Delivery {
  /** Where each channel's deliveries and beacons go. */
  readonly routes: ChannelRoutes;
  readonly tracker: DeliveryTracker;
  readonly beacons: BeaconRouter;
  /** The silence watchdog's beacons (for the metrics; the router posts them). */
  readonly beacon$: Observable<Beacon>;
  stop(): void;
}

export function wireDelivery(d: DeliveryWiringDeps): Delivery {
  const local = new LocalChannel(d.store);
  const routes = new ChannelRoutes();
  routes.add({ channel: local, daemonBeacons: true });
  const beacon$ = silenceWatchdog({
    bus: d.bus,
    settingsFor: (c) => d.settingsFor(c).silenceWatchdog,
    scheduler: d.clock,
  });
  const tracker = new DeliveryTracker({
    bus: d.bus,
    channelFor: () => local,
    channelNamed: routes.named,
    settingsFor: (c) => d.settingsFor(c).responseDelivery,
    undelivered: d.store,
    wakeStatus$: d.lifecycle.wakeStatus$,
    scheduler: d.clock,
  });
  const beacons = new BeaconRouter({ beacon$, channelNamed: routes.beaconChannelNamed, send: (r) => tracker.send(r) });
  return {
    routes,
    tracker,
    beacons,
    beacon$,
    stop: () => {
      beacons.stop();
      tracker.stop();
    },
  };
}
