/**
 * The delivery channels by config name (`channels.<name>`): one routing for the delivery tracker
 * (a request naming a channel, a kept reply re-delivered on the channel that failed it) and the
 * beacon router. Whether a channel takes the daemon's silence beacons is said once, per channel:
 * Telegram does not, it runs its own watchdog on its bound turns (channels/telegram/telegram-turns.ts).
 */
import type { Channel } from './channel.js';

export interface ChannelRoute {
  readonly channel: Channel;
  /** Whether the daemon's silence watchdog posts its beacons on this channel. */
  readonly daemonBeacons: boolean;
}

export class ChannelRoutes {
  readonly #routes = new Map<string, ChannelRoute>();

  /** Registers `route.channel` under its name (a channel built later, e.g. Telegram's, is added then). */
  add(route: ChannelRoute): void {
    this.#routes.set(route.channel.name, route);
  }

  /** The channel registered under `name`. */
  readonly named = (name: string): Channel | undefined => this.#routes.get(name)?.channel;

  /** The channel under `name` if it takes the daemon's beacons. */
  readonly beaconChannelNamed = (name: string): Channel | undefined => {
    const route = this.#routes.get(name);
    return route?.daemonBeacons === true ? route.channel : undefined;
  };
}
