/**
 * The silence watchdog (watchdog spec part A) as a pipeline over the hook bus: the three
 * required hooks addressed to live turns (turn-events.ts), through `silenceBeacons`, which keeps
 * per turn one lazy deadline (silence-beacons.ts says why the grouping is inside it).
 *
 * The result is shared: the beacon router and the metrics see the same beacons from one set of
 * timers. Unsubscribing every subscriber (or completing the bus) stops it and cancels every
 * scheduled action.
 */
import { asyncScheduler, share, type Observable, type SchedulerLike } from 'rxjs';
import type { HookBus } from '../bus/hook-bus.js';
import { silenceBeacons, type Beacon, type SilenceSettings } from './silence-beacons.js';
import { turnEvents } from './turn-events.js';

export interface SilenceWatchdogOptions {
  readonly bus: HookBus;
  /** Effective `silenceWatchdog` settings of a channel, read once at each turn.start. */
  readonly settingsFor: SilenceSettings;
  /** Defaults to `asyncScheduler`; tests pass a `TestScheduler`. */
  readonly scheduler?: SchedulerLike;
}

/** Beacons and escalations, in time order. Never an agent reply (never settles a wake). */
export function silenceWatchdog({
  bus,
  settingsFor,
  scheduler = asyncScheduler,
}: SilenceWatchdogOptions): Observable<Beacon> {
  return turnEvents(bus).pipe(silenceBeacons(settingsFor, scheduler), share());
}
